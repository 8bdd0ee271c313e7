import type { Logger } from '../../logger.js';

// The offset drifts by milliseconds a day; a minute between readings is plenty for a 5-minute tolerance.
const REFRESH_MS = 60_000;

/**
 * The store's clock, read without a round trip: the offset from the local clock, measured when started
 * and once a minute after. Replicas whose local clocks disagree still judge a request's age alike.
 */
export class StoreClock {
  #offsetMs = 0;
  #failing = false;
  readonly #timer: NodeJS.Timeout;

  private constructor(
    private readonly read: () => Promise<Date>,
    private readonly logger: Logger,
  ) {
    this.#timer = setInterval(() => void this.#measure(), REFRESH_MS);
    this.#timer.unref();
  }

  static async start(read: () => Promise<Date>, logger: Logger): Promise<StoreClock> {
    const clock = new StoreClock(read, logger);
    await clock.#measure();
    return clock;
  }

  /** Epoch milliseconds by the store's clock. */
  now(): number {
    return Date.now() + this.#offsetMs;
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  async #measure(): Promise<void> {
    try {
      const sent = Date.now();
      const store = (await this.read()).getTime();
      // The store read its clock somewhere in the round trip: the middle is the best guess.
      this.#offsetMs = store - (sent + Date.now()) / 2;
      this.#failing = false;
    } catch (error) {
      // The last offset stays; once per outage in the log.
      if (!this.#failing) this.logger.warn({ err: error }, 'could not read the store clock');
      this.#failing = true;
    }
  }
}
