/** One request waiting for its turn at a server. */
interface Waiter {
  start: () => void;
  urgent: boolean;
}

/**
 * The limits of one RDAP server: at most `max` requests at once, starts at least `intervalMs` apart, and
 * none before a `Retry-After` the server gave has passed. Urgent requests (someone waits in Discord) go
 * ahead of the watch's.
 */
export class ServerGate {
  #active = 0;
  /** performance.now() before which nothing starts. */
  #notBefore = 0;
  readonly #queue: Waiter[] = [];
  #timer: NodeJS.Timeout | undefined;
  /**
   * Added to the interval after a 429 (a server counts arrivals, which jitter on their way there): 5 % of
   * the interval per 429, up to a whole interval more, wearing off by 1 % of itself per start.
   */
  #extraMs = 0;

  constructor(
    private readonly max: number,
    private readonly intervalMs: number,
  ) {}

  /** Requests waiting for their turn. */
  get waiting(): number {
    return this.#queue.length;
  }

  /** How long from now before the next request may start (a Retry-After's pause, or the spacing). */
  get pausedForMs(): number {
    return Math.max(0, this.#notBefore - performance.now());
  }

  /** Nothing starts for `ms` from now (a 429's Retry-After), and starts are spaced a little wider. */
  pause(ms: number): void {
    this.#notBefore = Math.max(this.#notBefore, performance.now() + ms);
    this.#extraMs = Math.min(this.intervalMs, this.#extraMs + this.intervalMs * 0.05);
  }

  /**
   * Runs `task` in its turn. `signal` gives up waiting (an AbortError) while the task has not started;
   * a started task is the caller's to bound.
   */
  async run<T>(task: () => Promise<T>, options: { urgent?: boolean; signal?: AbortSignal } = {}): Promise<T> {
    await this.#turn(options.urgent ?? false, options.signal);
    try {
      return await task();
    } finally {
      this.#active--;
      this.#pump();
    }
  }

  #turn(urgent: boolean, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        urgent,
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        const index = this.#queue.indexOf(waiter);
        if (index >= 0) this.#queue.splice(index, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (urgent) {
        const firstPatient = this.#queue.findIndex((w) => !w.urgent);
        this.#queue.splice(firstPatient < 0 ? this.#queue.length : firstPatient, 0, waiter);
      } else this.#queue.push(waiter);
      this.#pump();
    });
  }

  #pump(): void {
    while (this.#active < this.max && this.#queue.length > 0) {
      const now = performance.now();
      const wait = this.#notBefore - now;
      if (wait > 0) {
        if (this.#timer === undefined) {
          this.#timer = setTimeout(() => {
            this.#timer = undefined;
            this.#pump();
          }, Math.ceil(wait));
        }
        return;
      }
      const waiter = this.#queue.shift() as Waiter;
      this.#active++;
      this.#notBefore = now + this.intervalMs + this.#extraMs;
      this.#extraMs *= 0.99;
      waiter.start();
    }
  }
}
