import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';

export interface IdleCollectorTiming {
  /** How often the collector looks; a quiet process is told from a busy one over this span. */
  lookEveryMs: number;
  /** Event-loop utilisation under which a span counts as quiet: heartbeats and a sweep, nobody waiting. */
  quietUtilisation: number;
  /** Growth of the resident set since the last collection that makes one worth its pause. */
  growthBytes: number;
}

const TIMING: IdleCollectorTiming = {
  lookEveryMs: 10_000,
  quietUtilisation: 0.02,
  growthBytes: 24 * 1024 * 1024,
};

/**
 * A full collection once the process has gone quiet after work, when it grew since the last one. V8 left
 * alone keeps the heap a burst or an hour of commands grew to (bench/results.md, the long run: 280 MB
 * resident after a quiet minute, 141 MB after a collection); a limit on the old generation would give the
 * memory back but makes V8 collect on the acknowledgements' path. Collecting when nothing waits costs a
 * pause nobody sees: it starts only when the span was quiet AND nothing is in flight at that moment
 * (`inFlight`: interactions, API calls — the runtime's count), so it never lands on work already begun; a
 * command arriving during the pause waits for it (bench: the ack p99 of commands arriving while it runs).
 * Needs node's --expose-gc (npm start and the image set it); without it, does nothing.
 */
export class IdleCollector {
  readonly #timer: NodeJS.Timeout | undefined;
  #lastUse = performance.eventLoopUtilization();
  #baseline = process.memoryUsage.rss();

  constructor(
    private readonly logger: Logger,
    private readonly inFlight: () => number,
    private readonly timing: IdleCollectorTiming = TIMING,
  ) {
    const gc = globalThis.gc;
    if (typeof gc !== 'function') return;
    this.#timer = setInterval(() => this.#look(gc), timing.lookEveryMs);
    this.#timer.unref();
  }

  #look(gc: NodeJS.GCFunction): void {
    const use = performance.eventLoopUtilization(this.#lastUse);
    this.#lastUse = performance.eventLoopUtilization();
    const rss = process.memoryUsage.rss();
    if (use.utilization >= this.timing.quietUtilisation || rss - this.#baseline < this.timing.growthBytes)
      return;
    const working = this.inFlight();
    if (working > 0) {
      this.logger.debug({ inFlight: working }, 'not collected: work in flight');
      return;
    }
    // Said before the pause, synchronously (pino's stdout): the bench sends its commands on reading it.
    this.logger.info({ rss }, 'collecting while quiet');
    const started = performance.now();
    // 'last-resort' (what V8 does on a low-memory notification) also hands the freed pages back to the
    // system: measured on 85 MB live + 150 MB garbage, it gave back 293-340 MB in a 1.5-2.4 s pause, where
    // a plain gc() or gc({ execution: 'async' }) (the same full pause, in a task) gave back 16-28 MB in
    // 0.5-0.76 s, the pages kept pooled: ~6x the memory per millisecond of pause.
    gc({ type: 'major', flavor: 'last-resort' });
    // What a collection could not give back stays the baseline: a process that keeps its memory is not
    // collected again and again.
    this.#baseline = process.memoryUsage.rss();
    // Info: rare (once a quiet spell after growth), and the bench reads when the pause was from it.
    this.logger.info(
      { rssBefore: rss, rssAfter: this.#baseline, pauseMs: Math.round(performance.now() - started) },
      'collected while quiet',
    );
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}
