/** The longest delay a Node timer holds (2^31 − 1 ms, ≈ 24.8 days): a longer one fires after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A wait given up because the server is paused (its Retry-After) past the waiter's deadline. */
export class ServerPaused extends Error {
  constructor(
    /** performance.now() at which the server's pause ends. */
    readonly until: number,
  ) {
    super('the server asked us to wait past the deadline');
    this.name = 'ServerPaused';
  }
}

/** One request waiting for its turn at a server. */
interface Waiter {
  start: () => void;
  refuse: (error: Error) => void;
  urgent: boolean;
  /** performance.now() past which its caller no longer waits. */
  deadline: number;
}

/**
 * The limits of one RDAP server: at most `max` requests at once, starts at least `intervalMs` apart, and
 * none before a `Retry-After` the server gave has passed. Urgent requests (someone waits in Discord) go
 * ahead of the watch's. A waiter whose deadline falls before the pause ends leaves at once (ServerPaused),
 * never after waiting for nothing.
 */
export class ServerGate {
  #active = 0;
  /** performance.now() before which nothing starts (spacing and pause). */
  #notBefore = 0;
  /** performance.now() at which the server's own pause (Retry-After) ends. */
  #pausedUntil = 0;
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

  /** performance.now() at which the server's pause ends, if it is paused now. */
  pausedUntil(): number | undefined {
    return this.#pausedUntil > performance.now() ? this.#pausedUntil : undefined;
  }

  /**
   * Nothing starts for `ms` from now (a 429's Retry-After, at most what a timer holds), and starts are
   * spaced a little wider. Waiters whose deadline comes first leave at once.
   */
  pause(ms: number): void {
    const until = performance.now() + Math.min(Math.max(0, ms), MAX_TIMER_MS);
    this.#pausedUntil = Math.max(this.#pausedUntil, until);
    this.#notBefore = Math.max(this.#notBefore, until);
    this.#extraMs = Math.min(this.intervalMs, this.#extraMs + this.intervalMs * 0.05);
    for (const waiter of [...this.#queue]) {
      if (waiter.deadline < this.#pausedUntil) this.#leave(waiter, new ServerPaused(this.#pausedUntil));
    }
    this.#pump();
  }

  /**
   * Runs `task` in its turn. `signal` gives up waiting (its reason is thrown) while the task has not
   * started, `deadline` (performance.now()) gives up at once when the server is paused past it
   * (ServerPaused); a started task is the caller's to bound.
   */
  async run<T>(
    task: () => Promise<T>,
    options: { urgent?: boolean; signal?: AbortSignal; deadline?: number } = {},
  ): Promise<T> {
    await this.#turn(options.urgent ?? false, options.deadline ?? Number.POSITIVE_INFINITY, options.signal);
    try {
      return await task();
    } finally {
      this.#active--;
      this.#pump();
    }
  }

  #turn(urgent: boolean, deadline: number, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    const paused = this.pausedUntil();
    if (paused !== undefined && deadline < paused) return Promise.reject(new ServerPaused(paused));
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => this.#leave(waiter, signal?.reason);
      const waiter: Waiter = {
        urgent,
        deadline,
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        refuse: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (urgent) {
        const firstPatient = this.#queue.findIndex((w) => !w.urgent);
        this.#queue.splice(firstPatient < 0 ? this.#queue.length : firstPatient, 0, waiter);
      } else this.#queue.push(waiter);
      this.#pump();
    });
  }

  #leave(waiter: Waiter, error: unknown): void {
    const index = this.#queue.indexOf(waiter);
    if (index < 0) return;
    this.#queue.splice(index, 1);
    // Nobody left to wake: a pause of hours holds no timer (nor the process) for nothing.
    if (this.#queue.length === 0 && this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    waiter.refuse(error instanceof Error ? error : new Error(String(error)));
  }

  #pump(): void {
    while (this.#active < this.max && this.#queue.length > 0) {
      const now = performance.now();
      const wait = this.#notBefore - now;
      if (wait > 0) {
        // A timer already set fires no later than a new one would (the pause only grows).
        if (this.#timer === undefined) {
          this.#timer = setTimeout(
            () => {
              this.#timer = undefined;
              this.#pump();
            },
            Math.min(Math.ceil(wait), MAX_TIMER_MS),
          );
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
