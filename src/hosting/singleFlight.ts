import type { Place, Turn } from './ConnectionQueue.js';

// Identical reads in flight at the same moment share one operation; each reader may stop waiting alone.

/** Told about a read while its answer is awaited: whether, and how far back, it waits for a connection. */
export interface WaitWatcher {
  /** Returns the function that stops watching this call. */
  watch(call: { ahead(): number | undefined }): () => void;
}

export interface Waiter {
  /** performance.now() after which this reader stops waiting for a connection (never once one is held). */
  waitUntil: number;
  /** Aborting stops this reader's wait, whatever the operation is doing; the others keep theirs. */
  signal?: AbortSignal | undefined;
  watcher?: WaitWatcher | undefined;
}

/** A reader gave up before its operation got a connection: nothing was sent on its behalf. */
export class WaitExpired extends Error {
  override readonly name = 'WaitExpired';
  constructor(readonly waitedMs: number) {
    super(`no connection came free within ${Math.round(waitedMs)} ms`);
  }
}

/**
 * One operation and the readers of its answer. It is cancelled (its wait for a connection ended, never a
 * request under way) only when the last reader has left.
 */
export class Flight<T> implements Turn {
  readonly caller: string;
  #work: Promise<T> | undefined;
  /** Made when the operation waits for a connection: only then is there anything to cancel. */
  #abort: AbortController | undefined;
  readonly #onEnd: () => void;
  #readers = 0;
  #settled = false;
  #place: Place | undefined;
  /** The readers' time limits, running while the operation waits for a connection. */
  readonly #timers = new Set<NodeJS.Timeout>();

  constructor(caller: string, onEnd: () => void) {
    this.caller = caller;
    this.#onEnd = onEnd;
  }

  /**
   * The operation's answer. Its first reader starts it (`start`) in the same turn it joined — itself,
   * not from here, so the stack that sends the request is the caller's own.
   */
  get work(): Promise<T> {
    if (!this.#work) throw new Error('the flight has not been started');
    return this.#work;
  }

  get started(): boolean {
    return this.#work !== undefined;
  }

  start(work: Promise<T>): void {
    this.#work = work;
    const end = () => {
      this.#settled = true;
      this.#onEnd();
    };
    // Nobody may be left to read a failure: it is handled here, each reader gets it through `work`.
    work.then(end, end);
  }

  get signal(): AbortSignal {
    this.#abort ??= new AbortController();
    return this.#abort.signal;
  }

  /**
   * The operation waits for its connection (during `start`, before any reader joined), or has it: it is
   * admitted once and keeps it, so a reader's time limit matters only until then.
   */
  waiting(place: Place | undefined): void {
    this.#place = place;
    if (place) return;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }

  /** Requests ahead while the operation waits for a connection; undefined while it holds one. */
  ahead(): number | undefined {
    return this.#place?.ahead();
  }

  /**
   * A reader joins. `gaveUp`, when the reader can give up at all (a signal, or its operation still waits
   * for a connection), rejects when it does and never resolves: the reader races it against `work`. It
   * calls `leave` when done either way.
   */
  join(waiter: Waiter): { gaveUp?: Promise<never>; leave(): void } {
    this.#readers++;
    const unwatch = waiter.watcher?.watch(this);
    const { signal } = waiter;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    let gaveUp: Promise<never> | undefined;
    if (signal || this.#place) {
      let giveUp: (error: unknown) => void = () => {};
      gaveUp = new Promise<never>((_, reject) => {
        giveUp = reject;
      });
      // Its rejection is read through the race, or not at all once the reader has its answer.
      gaveUp.catch(() => {});
      if (this.#place && Number.isFinite(waiter.waitUntil)) {
        const joinedAt = performance.now();
        timer = setTimeout(
          () => giveUp(new WaitExpired(performance.now() - joinedAt)),
          Math.max(0, waiter.waitUntil - joinedAt),
        );
        timer.unref();
        this.#timers.add(timer);
      }
      const abort = () => giveUp(signal?.reason);
      onAbort = abort;
      if (signal?.aborted) abort();
      else signal?.addEventListener('abort', abort, { once: true });
    }
    let left = false;
    const leave = () => {
      if (left) return;
      left = true;
      if (timer) {
        clearTimeout(timer);
        this.#timers.delete(timer);
      }
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      unwatch?.();
      if (--this.#readers === 0 && !this.#settled) {
        // Out of the shared map first, so a new identical read starts its own operation.
        this.#onEnd();
        this.#abort?.abort(new Error('every reader gave up'));
      }
    };
    return gaveUp ? { gaveUp, leave } : { leave };
  }
}

/** The operations in flight, by key: a keyed one is shared with whoever asks for the same key meanwhile. */
export class SingleFlight {
  readonly #flights = new Map<string, Flight<unknown>>();

  /**
   * The operation under `key` if one is in flight (its answer will be as fresh as one started now),
   * else a new one, which the caller starts at once (`started` is false). Without a key the operation is
   * never shared (changes).
   */
  join<T>(key: string | undefined, caller: string): Flight<T> {
    if (key !== undefined) {
      const existing = this.#flights.get(key);
      if (existing) return existing as Flight<T>;
    }
    const flight: Flight<T> = new Flight(caller, () => {
      if (key !== undefined && this.#flights.get(key) === flight) this.#flights.delete(key);
    });
    // Its end is told a microtask later at the earliest, so it is always in the map before it leaves it.
    if (key !== undefined) this.#flights.set(key, flight as Flight<unknown>);
    return flight;
  }
}
