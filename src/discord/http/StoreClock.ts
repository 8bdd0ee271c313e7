import type { Logger } from '../../logger.js';

// The offset drifts by milliseconds a day; a minute between readings is plenty for a 5-minute tolerance.
const REFRESH_MS = 60_000;
const START_READINGS = 3;
/** A reading this fast is always taken; a slower one only if not much slower than the one in use. */
const GOOD_ROUND_TRIP_MS = 50;
const ROUND_TRIP_MARGIN_MS = 20;

/** What the store clock counts elapsed time with: monotonic, so a step of the wall clock changes nothing. */
export type Monotonic = () => number;

/**
 * The store's clock, read without a round trip: the store's time at a reading plus the monotonic time
 * elapsed since (performance.now()), measured when started and once a minute after. Neither replica's
 * wall clock enters it, so replicas whose local clocks disagree — or whose clock steps — judge a
 * request's age and a prompt's deadline alike. Every deadline a replica stamps or checks is read here.
 */
export class StoreClock {
  /** The store's epoch milliseconds at monotonic time 0. */
  #baseMs: number;
  /** The round trip of the reading in use (none yet: any reading is better than the local clock). */
  #roundTripMs = Number.POSITIVE_INFINITY;
  #readAt = 0;
  #failing = false;
  readonly #timer: NodeJS.Timeout;

  private constructor(
    private readonly read: () => Promise<Date>,
    private readonly logger: Logger,
    private readonly monotonic: Monotonic,
  ) {
    // Until the first reading lands: the local clock is the only guess there is.
    this.#baseMs = Date.now() - monotonic();
    this.#timer = setInterval(() => void this.#measure(), REFRESH_MS);
    this.#timer.unref();
  }

  static async start(
    read: () => Promise<Date>,
    logger: Logger,
    monotonic: Monotonic = () => performance.now(),
  ): Promise<StoreClock> {
    const clock = new StoreClock(read, logger, monotonic);
    // A reading is only as good as its round trip is short (a busy event loop at start-up can stretch
    // one by seconds): of a few, the shortest.
    for (let reading = 0; reading < START_READINGS; reading++) await clock.#measure();
    return clock;
  }

  /** Epoch milliseconds by the store's clock. */
  now(): number {
    return this.#baseMs + this.monotonic();
  }

  /** The store's time now, as a Date. */
  date(): Date {
    return new Date(this.now());
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  async #measure(): Promise<void> {
    try {
      const sent = this.monotonic();
      const store = (await this.read()).getTime();
      const received = this.monotonic();
      const roundTrip = received - sent;
      // The store read its clock somewhere in the round trip: the middle is the best guess, off by at
      // most half of it. A longer round trip than the reading in use (by a margin) is not taken.
      // The reading in use ages (a millisecond of allowance a second), so a later one always wins in time.
      const inUse = this.#roundTripMs + (sent - this.#readAt) / 1_000;
      if (roundTrip <= inUse + ROUND_TRIP_MARGIN_MS || roundTrip <= GOOD_ROUND_TRIP_MS) {
        this.#baseMs = store - (sent + received) / 2;
        this.#roundTripMs = roundTrip;
        this.#readAt = received;
      }
      this.#failing = false;
    } catch (error) {
      // The last reading stays; once per outage in the log.
      if (!this.#failing) this.logger.warn({ err: error }, 'could not read the store clock');
      this.#failing = true;
    }
  }
}
