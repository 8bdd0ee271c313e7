import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Answers that arrive together resume their callers one per turn of the event loop. A pool's connections
 * free up together (ten answers in one poll phase): without this, every caller's rendering, store writes
 * and next request ran back to back, and a gateway event or HTTP interaction that came in meanwhile
 * waited for all of them. An answer alone in its turn resumes at once: nothing waits behind it, and a
 * turn given back would only add to the provider's latency.
 */
export class AnswerTurns {
  #tail: Promise<void> | undefined;
  /** Answers waiting for a turn of their own. */
  #waiting = 0;
  /** An answer has resumed in the current turn of the event loop. */
  #turnTaken = false;

  /** Resolves at once for an answer alone in its turn; otherwise in a turn of its own, after every earlier waiter's. */
  next(): Promise<void> | undefined {
    if (this.#waiting === 0 && !this.#turnTaken) {
      this.#turnTaken = true;
      setImmediate(() => {
        this.#turnTaken = false;
      });
      return undefined;
    }
    this.#waiting++;
    const turn = (this.#tail ?? Promise.resolve())
      .then(() => nextTurn())
      .then(() => {
        this.#waiting--;
      });
    this.#tail = turn;
    return turn;
  }
}
