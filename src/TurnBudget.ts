import { setImmediate as nextTurn } from 'node:timers/promises';

/** Items between two looks at the clock: a clock read costs as much as a cheap item. */
const ITEMS_PER_LOOK = 32;

/**
 * A long loop's share of the event loop. `spent()`, called once per item, says when `ms` of work have
 * passed since the loop last gave the event loop back; `giveBack()` does so (a setImmediate, so gateway
 * events, HTTP requests and timers that came in meanwhile run first). A loop of 100,000 items then holds
 * the event loop for a few milliseconds at a time instead of for all of them at once.
 */
export class TurnBudget {
  #since = performance.now();
  #items = 0;

  constructor(private readonly ms = 5) {}

  spent(): boolean {
    if (++this.#items < ITEMS_PER_LOOK) return false;
    this.#items = 0;
    return performance.now() - this.#since >= this.ms;
  }

  async giveBack(): Promise<void> {
    await nextTurn();
    this.#since = performance.now();
    this.#items = 0;
  }
}
