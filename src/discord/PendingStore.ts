import { randomBytes } from 'node:crypto';

export interface PendingEntry<T> {
  nonce: string;
  ownerId: string;
  value: T;
  expiresAt: number;
}

/**
 * Short-lived state behind buttons and modals. `take` removes synchronously, which is what makes a
 * double click (or two Confirm presses racing) act exactly once.
 */
export class PendingStore<T> {
  readonly #entries = new Map<string, { entry: PendingEntry<T>; timer: NodeJS.Timeout }>();
  readonly #ttlMs: number;
  readonly #onExpire: (entry: PendingEntry<T>) => void;

  constructor(ttlMs: number, onExpire: (entry: PendingEntry<T>) => void) {
    this.#ttlMs = ttlMs;
    this.#onExpire = onExpire;
  }

  add(ownerId: string, value: T): PendingEntry<T> {
    const nonce = randomBytes(9).toString('base64url');
    const entry = { nonce, ownerId, value, expiresAt: Date.now() + this.#ttlMs };
    const timer = setTimeout(() => {
      if (this.#entries.delete(nonce)) this.#onExpire(entry);
    }, this.#ttlMs);
    timer.unref();
    this.#entries.set(nonce, { entry, timer });
    return entry;
  }

  peek(nonce: string): PendingEntry<T> | undefined {
    return this.#entries.get(nonce)?.entry;
  }

  take(nonce: string): PendingEntry<T> | undefined {
    const slot = this.#entries.get(nonce);
    if (!slot) return undefined;
    this.#entries.delete(nonce);
    clearTimeout(slot.timer);
    return slot.entry;
  }

  /** Expires everything now (shutdown): each entry's owner is told nothing was sent. */
  expireAll(): void {
    for (const nonce of [...this.#entries.keys()]) {
      const entry = this.take(nonce);
      if (entry) this.#onExpire(entry);
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}
