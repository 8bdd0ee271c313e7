import { Cron } from 'croner';
import type { Logger } from '../logger.js';
import type { Store } from '../store/index.js';
import type { DomainWatch } from './DomainWatch.js';

/**
 * Runs the watch on its cron schedule, in the API's time zone. Every replica keeps the schedule; the
 * one that claims a tick in the store runs it, so each tick runs once.
 */
export class WatchScheduler {
  readonly #cron: Cron;
  #running: Promise<unknown> | undefined;

  constructor(
    watch: DomainWatch,
    store: Store,
    replicaId: string,
    schedule: string,
    timeZone: string,
    logger: Logger,
  ) {
    this.#cron = new Cron(schedule, { timezone: timeZone, protect: true, unref: true }, async (job: Cron) => {
      // The scheduled time, not the clock: replicas whose clocks differ by a little claim the same tick.
      const tick = (job.currentRun() ?? new Date()).toISOString().slice(0, 19);
      try {
        if (!(await store.claims.claimJobRun('watch', tick, replicaId, new Date()))) return;
        this.#running = watch.run('schedule');
        await this.#running;
      } catch (error) {
        logger.error({ err: error }, 'scheduled watch run failed');
      } finally {
        this.#running = undefined;
      }
    });
  }

  nextRun(): Date | null {
    return this.#cron.nextRun();
  }

  /**
   * The longest wait between two of the next runs, in seconds: for `0 8 * * 1-5` the weekend's, so a
   * "has not run for twice its schedule" alert does not fire every Monday morning.
   */
  longestIntervalSeconds(): number | undefined {
    const runs = this.#cron.nextRuns(8);
    let longest: number | undefined;
    for (let i = 1; i < runs.length; i++) {
      const gap = ((runs[i] as Date).getTime() - (runs[i - 1] as Date).getTime()) / 1000;
      longest = Math.max(longest ?? 0, gap);
    }
    return longest;
  }

  /** No new ticks; a run under way is waited for. */
  async stop(): Promise<void> {
    this.#cron.stop();
    await this.#running;
  }
}
