import type { IncomingMessage } from 'node:http';

/** Overdue bodies cut per turn of the event loop: each is a 408 written and a connection closed. */
const EXPIRE_PER_TURN = 64;

/** A body read whole, or why it was not: too big (413), too slow (408), shed (429), shutting down (503). */
export type BodyResult = { body: Buffer } | { refused: 408 | 413 | 429 | 503 } | { gone: true };

export interface UnverifiedBodiesLimits {
  /** Per request: more is refused (413) without reading further. */
  maxBytes: number;
  /** From the request's arrival: a body not complete by then is cut (408). */
  deadlineMs: number;
  /** All incomplete bodies together: past it the oldest is cut (429). */
  budgetBytes: number;
  /** How often deadlines are enforced. */
  checkEveryMs: number;
}

interface Pending {
  arrivedAt: number;
  bytes: number;
  finish(result: BodyResult): void;
}

/**
 * The bodies of requests not yet verified, as they arrive. What one holds is what actually arrived (never
 * its announced size), under a per-request cap, for at most the deadline; there is no count of them to
 * fill. Arrival order is deadline order, so one timer enforces every deadline by looking at the oldest.
 */
export class UnverifiedBodies {
  // A Set keeps insertion order: the first is always the oldest.
  readonly #pending = new Set<Pending>();
  #heldBytes = 0;
  #timer: NodeJS.Timeout | undefined;
  /** The rest of a round of cuts, in the next turn (`#expire`). */
  #expiring: NodeJS.Immediate | undefined;

  constructor(private readonly limits: UnverifiedBodiesLimits) {}

  /** Bytes of incomplete bodies held right now. */
  get heldBytes(): number {
    return this.#heldBytes;
  }

  get count(): number {
    return this.#pending.size;
  }

  /** Reads `req`'s raw body (the signature covers its exact bytes); `arrivedAt` is performance.now() at its headers. */
  read(req: IncomingMessage, arrivedAt: number): Promise<BodyResult> {
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let done = false;
      const pending: Pending = {
        arrivedAt,
        bytes: 0,
        finish: (result) => {
          if (done) return;
          done = true;
          this.#pending.delete(pending);
          this.#heldBytes -= pending.bytes;
          req.off('data', onData);
          req.off('end', onEnd);
          req.off('close', onClose);
          chunks.length = 0;
          resolve(result);
        },
      };
      const onData = (chunk: Buffer) => {
        if (pending.bytes + chunk.length > this.limits.maxBytes) {
          pending.finish({ refused: 413 });
          return;
        }
        chunks.push(chunk);
        pending.bytes += chunk.length;
        this.#heldBytes += chunk.length;
        this.#shed();
      };
      const onEnd = () => {
        const body = Buffer.concat(chunks, pending.bytes);
        pending.finish({ body });
      };
      const onClose = () => pending.finish({ gone: true });
      this.#pending.add(pending);
      req.on('data', onData);
      req.once('end', onEnd);
      req.once('close', onClose);
      this.#arm();
    });
  }

  /** Every incomplete body is refused (503): the listener is closing. */
  refuseAll(): void {
    for (const pending of [...this.#pending]) pending.finish({ refused: 503 });
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    if (this.#expiring !== undefined) clearImmediate(this.#expiring);
    this.#expiring = undefined;
  }

  #shed(): void {
    for (const oldest of this.#pending) {
      if (this.#heldBytes <= this.limits.budgetBytes) return;
      oldest.finish({ refused: 429 });
    }
  }

  #arm(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => this.#expire(), this.limits.checkEveryMs);
    this.#timer.unref();
  }

  #expire(): void {
    const due = performance.now() - this.limits.deadlineMs;
    let cut = 0;
    for (const oldest of this.#pending) {
      if (oldest.arrivedAt > due) break;
      // A flood's connections arrive together and fall due together: cut a few at a time, with the event
      // loop given back between (signed requests waiting meanwhile go first), not a thousand 408s at once.
      if (cut === EXPIRE_PER_TURN) {
        this.#expiring ??= setImmediate(() => {
          this.#expiring = undefined;
          this.#expire();
        });
        return;
      }
      oldest.finish({ refused: 408 });
      cut++;
    }
    if (this.#pending.size === 0) this.stop();
  }
}
