// Admission to the provider's connections (HOSTING_API_MAX_CONNECTIONS), shared fairly between callers.

/** A connection's turn, held by one operation until it releases it. */
export interface Slot {
  release(): void;
}

/** Who is waiting, and how: the fairness key, a way to stop waiting, and who wants to know meanwhile. */
export interface Turn {
  /** Requests are shared out between callers (an invocation, the watch), not served first come first. */
  readonly caller: string;
  /** Aborting stops the wait (the request is never sent); it has no effect once admitted. */
  readonly signal?: AbortSignal;
  /** Told when the turn starts waiting (with its place in the queue) and when the wait ends (undefined). */
  waiting?(place: Place | undefined): void;
}

export interface Place {
  /** Requests the queue would serve before this one as things stand now. */
  ahead(): number;
}

export class QueueClosedError extends Error {
  override readonly name = 'QueueClosedError';
}

interface Waiter extends Place {
  caller: string;
  seq: number;
  grant(slot: Slot): void;
  refuse(error: unknown): void;
}

/**
 * At most `size` operations hold a connection; the others wait here rather than in undici's pool, so the
 * provider's time limit starts only once a request has a connection. A freed connection goes to the
 * caller with the fewest operations holding one (ties: whoever has waited longest), so callers with
 * equal shares take turns. And while more than one caller uses the connections, one of them is kept for a
 * caller holding none: a single `/domain info` sent while a bulk check and the watch want every
 * connection starts at once, rather than after one of theirs comes back.
 */
export class ConnectionQueue {
  readonly #size: number;
  #busy = 0;
  #seq = 0;
  #closed = false;
  /** Operations holding a connection, per caller (absent: none). */
  readonly #holding = new Map<string, number>();
  /** Waiting operations per caller, oldest first (absent: none). */
  readonly #waiting = new Map<string, Waiter[]>();

  constructor(size: number) {
    this.#size = size;
  }

  /** Operations holding a connection now: requests to the provider in flight. */
  get holding(): number {
    return this.#busy;
  }

  /** Operations waiting for a connection now. */
  get waiting(): number {
    let count = 0;
    for (const queue of this.#waiting.values()) count += queue.length;
    return count;
  }

  /**
   * A connection at once if one is free and nobody waits — in the same turn of the event loop, so an
   * uncontended request costs nothing here; undefined otherwise (then `wait`).
   */
  admit(caller: string): Slot | undefined {
    if (this.#closed || this.#waiting.size > 0 || !this.#fits(caller)) return undefined;
    return this.#hold(caller);
  }

  /** Whether `caller` may take a connection now: one is free, and not the one kept for callers holding none. */
  #fits(caller: string): boolean {
    if (!this.#holding.has(caller)) return this.#busy < this.#size;
    const callers = new Set([...this.#holding.keys(), ...this.#waiting.keys(), caller]).size;
    const kept = this.#size > 1 && callers > 1 ? 1 : 0;
    return this.#busy < this.#size - kept;
  }

  /** Waits for a connection; rejects with the signal's reason when it is aborted, or QueueClosedError. */
  wait(turn: Turn): Promise<Slot> {
    const immediate = this.admit(turn.caller);
    if (immediate) return Promise.resolve(immediate);
    if (this.#closed) return Promise.reject(new QueueClosedError('the connection queue is closed'));
    const { signal } = turn;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<Slot>((resolve, reject) => {
      const onAbort = () => {
        this.#drop(waiter);
        turn.waiting?.(undefined);
        reject(signal?.reason);
        // One caller fewer may free the connection kept for others.
        this.#serve();
      };
      const settle = () => {
        signal?.removeEventListener('abort', onAbort);
        turn.waiting?.(undefined);
      };
      const waiter: Waiter = {
        caller: turn.caller,
        seq: this.#seq++,
        ahead: () => this.#ahead(waiter),
        grant: (slot) => {
          settle();
          resolve(slot);
        },
        refuse: (error) => {
          settle();
          reject(error);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const queue = this.#waiting.get(turn.caller);
      if (queue) queue.push(waiter);
      else this.#waiting.set(turn.caller, [waiter]);
      turn.waiting?.(waiter);
      // A caller holding none may take the connection the others wait behind.
      this.#serve();
    });
  }

  /** Refuses every waiting operation (never sent) and any that comes later; holders finish as they are. */
  close(): void {
    this.#closed = true;
    const waiting = [...this.#waiting.values()].flat();
    this.#waiting.clear();
    for (const waiter of waiting) waiter.refuse(new QueueClosedError('HostOps is shutting down'));
  }

  #hold(caller: string): Slot {
    this.#busy++;
    this.#holding.set(caller, (this.#holding.get(caller) ?? 0) + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.#busy--;
        const left = (this.#holding.get(caller) ?? 1) - 1;
        if (left === 0) this.#holding.delete(caller);
        else this.#holding.set(caller, left);
        this.#serve();
      },
    };
  }

  #serve(): void {
    for (;;) {
      const next = this.#next();
      // The one picked holds the fewest: if it may not have a connection, nobody waiting may.
      if (!next || !this.#fits(next.caller)) return;
      this.#drop(next);
      next.grant(this.#hold(next.caller));
    }
  }

  /** The head of the caller holding the fewest connections; ties go to the one that has waited longest. */
  #next(): Waiter | undefined {
    let best: Waiter | undefined;
    let bestHolding = Number.POSITIVE_INFINITY;
    for (const [caller, queue] of this.#waiting) {
      const head = queue[0];
      if (!head) continue;
      const holding = this.#holding.get(caller) ?? 0;
      if (holding < bestHolding || (holding === bestHolding && head.seq < (best?.seq ?? Infinity))) {
        best = head;
        bestHolding = holding;
      }
    }
    return best;
  }

  #drop(waiter: Waiter): void {
    const queue = this.#waiting.get(waiter.caller);
    if (!queue) return;
    const index = queue.indexOf(waiter);
    if (index !== -1) queue.splice(index, 1);
    if (queue.length === 0) this.#waiting.delete(waiter.caller);
  }

  /**
   * The requests served before this one if nothing else changed. Serving always takes the caller with
   * the fewest connections held, so the n-th waiting operation of a caller holding h goes at "level"
   * h + n; the order is by level, then by age — which is exactly what #next would pick, one at a time.
   */
  #ahead(waiter: Waiter): number {
    const queue = this.#waiting.get(waiter.caller);
    const index = queue?.indexOf(waiter) ?? -1;
    if (index === -1) return 0;
    const level = (this.#holding.get(waiter.caller) ?? 0) + index;
    let ahead = 0;
    for (const [caller, others] of this.#waiting) {
      const holding = this.#holding.get(caller) ?? 0;
      for (const [n, other] of others.entries()) {
        const otherLevel = holding + n;
        if (otherLevel > level) break;
        if (otherLevel < level || other.seq < waiter.seq) ahead++;
      }
    }
    return ahead;
  }
}
