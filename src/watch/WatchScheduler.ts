import { Cron } from 'croner';
import type { Logger } from '../logger.js';
import type { Store } from '../store/index.js';
import type { DomainWatch } from './DomainWatch.js';
import { RunDeadline } from './RegistryLanes.js';

/**
 * Runs the watch on its cron schedule, in the API's time zone. Every replica keeps the schedule; the
 * one that claims a tick in the store runs it, so each tick runs once. A run's registries are asked until
 * the next tick at most (its deadline); a run still under way at a tick is ended there (what it could not
 * ask is carried), and the tick runs after it: no tick is skipped for a run that cannot end.
 */
export class WatchScheduler {
  readonly #cron: Cron;
  #running: Promise<unknown> | undefined;
  #deadline: RunDeadline | undefined;

  constructor(
    watch: DomainWatch,
    store: Store,
    replicaId: string,
    schedule: string,
    timeZone: string,
    logger: Logger,
    /** Started later than the process (once the bot is ready): a tick that fell since then runs at once. */
    since?: Date,
  ) {
    const runTick = async (at: Date, next: () => Date | null) => {
      // The scheduled time, not the clock: replicas whose clocks differ by a little claim the same tick.
      const tick = at.toISOString().slice(0, 19);
      const previous = this.#running;
      if (previous) {
        logger.warn({ tick }, 'the last watch run is still going at the next tick: its registries end now');
        this.#deadline?.end();
      }
      const run = (async () => {
        await previous?.catch(() => {});
        if (!(await store.claims.claimJobRun('watch', tick, replicaId, new Date()))) return;
        const upcoming = next();
        const deadline = new RunDeadline(upcoming ? upcoming.getTime() - Date.now() : undefined);
        this.#deadline = deadline;
        await watch.run('schedule', { deadline });
      })();
      this.#running = run;
      try {
        await run;
      } catch (error) {
        logger.error({ err: error }, 'scheduled watch run failed');
      } finally {
        if (this.#running === run) this.#running = undefined;
      }
    };
    this.#cron = new Cron(schedule, { timezone: timeZone, unref: true }, (job: Cron) =>
      runTick(job.currentRun() ?? new Date(), () => job.nextRun()),
    );
    const missed = since ? this.#cron.nextRun(since) : null;
    if (missed && missed.getTime() <= Date.now()) void runTick(missed, () => this.#cron.nextRun());
  }

  nextRun(): Date | null {
    return this.#cron.nextRun();
  }

  /** No new ticks; a run under way is waited for. */
  async stop(): Promise<void> {
    this.#cron.stop();
    await this.#running?.catch(() => {});
  }
}

/**
 * The longest wait between two of a schedule's next runs, in seconds: for `0 8 * * 1-5` the weekend's, so a
 * "has not run for twice its schedule" alert does not fire every Monday morning. Undefined if it has fewer
 * than two runs ahead.
 */
export function longestScheduleInterval(schedule: string, timeZone: string): number | undefined {
  const runs = new Cron(schedule, { timezone: timeZone, paused: true }).nextRuns(8);
  let longest: number | undefined;
  for (let i = 1; i < runs.length; i++) {
    const gap = ((runs[i] as Date).getTime() - (runs[i - 1] as Date).getTime()) / 1000;
    longest = Math.max(longest ?? 0, gap);
  }
  return longest;
}
