import { setImmediate as nextTurn } from 'node:timers/promises';

/** Items between two looks at the clock: a clock read costs as much as a cheap item. */
const ITEMS_PER_LOOK = 32;
/**
 * Work between two turns given back. A gateway event arriving meanwhile waits about this long; HostOps'
 * own acknowledgement takes 2–3 ms (bench/results.md), so a longer turn would show in its tail, while a
 * turn given back costs microseconds.
 */
const TURN_MS = 1;

/**
 * A long loop's share of the event loop. `spent()`, called once per item, says when a turn's work
 * (TURN_MS) has been done since the loop last gave the event loop back; `giveBack()` does so (a
 * setImmediate, so gateway events, HTTP requests and timers that came in meanwhile run first). A loop of
 * 100,000 items then holds the event loop for about a millisecond at a time instead of all at once.
 */
export class TurnBudget {
  #since = performance.now();
  #items = 0;

  spent(): boolean {
    if (++this.#items < ITEMS_PER_LOOK) return false;
    this.#items = 0;
    return performance.now() - this.#since >= TURN_MS;
  }

  async giveBack(): Promise<void> {
    await nextTurn();
    this.#since = performance.now();
    this.#items = 0;
  }
}
