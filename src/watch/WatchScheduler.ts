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

  /** No new ticks; a run under way is waited for. */
  async stop(): Promise<void> {
    this.#cron.stop();
    await this.#running;
  }
}
