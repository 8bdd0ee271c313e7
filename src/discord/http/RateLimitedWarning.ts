const WINDOW_S = 60;

/**
 * A warning about something that may happen thousands of times a minute (a request with an invalid
 * signature): said at once the first time, then at most once a minute, with how many there were in the last
 * minute. Counts are kept per second, so a flood costs a counter, never a log line or memory per event.
 */
export class RateLimitedWarning {
  readonly #counts = new Array<number>(WINDOW_S).fill(0);
  readonly #seconds = new Array<number>(WINDOW_S).fill(-1);
  #lastSaidAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly say: (countInLastMinute: number) => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  note(): void {
    const now = this.now();
    const second = Math.floor(now / 1000);
    const slot = second % WINDOW_S;
    if (this.#seconds[slot] !== second) {
      this.#seconds[slot] = second;
      this.#counts[slot] = 0;
    }
    this.#counts[slot] = (this.#counts[slot] ?? 0) + 1;
    if (now - this.#lastSaidAt < WINDOW_S * 1000) return;
    this.#lastSaidAt = now;
    this.say(this.#inLastMinute(second));
  }

  #inLastMinute(second: number): number {
    let total = 0;
    for (let i = 0; i < WINDOW_S; i += 1) {
      if ((this.#seconds[i] ?? -1) > second - WINDOW_S) total += this.#counts[i] ?? 0;
    }
    return total;
  }
}
