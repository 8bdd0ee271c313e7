import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Answers that arrive together resume their callers one per turn of the event loop. A pool's connections
 * free up together (ten answers in one poll phase): without this, every caller's rendering, store writes
 * and next request ran back to back, and a gateway event or HTTP interaction that came in meanwhile
 * waited for all of them. Each waiter costs one setImmediate; a lone answer resumes in the next turn.
 */
export class AnswerTurns {
  #tail: Promise<void> = Promise.resolve();

  /** Resolves in a turn of its own, after every earlier waiter's turn. */
  next(): Promise<void> {
    const turn = this.#tail.then(() => nextTurn());
    this.#tail = turn;
    return turn;
  }
}
