import { constants, type PerformanceEntry, PerformanceObserver, performance } from 'node:perf_hooks';
import { createContext } from 'node:vm';
import type { Logger } from 'pino';

export interface IdleCollectorTiming {
  /** How often the collector looks; a quiet process is told from a busy one over this span. */
  lookEveryMs: number;
  /** Event-loop utilisation under which a span counts as quiet: heartbeats and a sweep, nobody waiting. */
  quietUtilisation: number;
  /** Growth of the resident set since the last collection that makes one worth its pause. */
  growthBytes: number;
  /** How long after an offer V8 did not collect (it judged the process busy) before one is made again. */
  offerAgainAfterMs: number;
}

const TIMING: IdleCollectorTiming = {
  lookEveryMs: 10_000,
  quietUtilisation: 0.02,
  growthBytes: 24 * 1024 * 1024,
  offerAgainAfterMs: 120_000,
};

/** V8 marks its memory reducer's collections so (kGCCallbackFlagCollectAllExternalMemory). */
const REDUCER_FLAG = constants.NODE_PERFORMANCE_GC_FLAGS_ALL_EXTERNAL_MEMORY;

/**
 * Gives memory back once the process has gone quiet after work, when it grew since the last collection. V8
 * left alone keeps the heap a burst or an hour of commands grew to (bench/results.md, the long run: 280 MB
 * resident after a quiet minute, ≈ 139 MB after a memory-reducing collection); a limit on the old generation
 * would give the memory back but makes V8 collect on the acknowledgements' path. It acts only when the span
 * was quiet AND nothing is in flight at that moment (`inFlight`: interactions, API calls — the runtime's
 * count), so it never lands on work already begun.
 *
 * It never stops the loop itself: it offers V8 the garbage (a new, unused context makes V8's memory reducer
 * plan a collection), and V8 collects some seconds later only if its own allocation rate says the process
 * is still idle (else it waits), marking incrementally in steps between tasks — a command arriving then is
 * served between the steps — and hands the freed pages back in one final pause. Measured (load ≈ 10 on 2
 * cores, ≈ 55 MB live, 230 MB of garbage): the same memory back as the 'last-resort' collection this used
 * to run (two to three full collections back to back: 530–850 ms, 1.5–2.4 s under heavier load) with a
 * final pause of 139–235 ms; a plain gc() (108–244 ms) gives back only 14–28 MB (its pages stay pooled).
 * Needs node's --expose-gc, the switch npm start and the image set: a process started without it is never
 * offered anything.
 */
export class IdleCollector {
  readonly #timer: NodeJS.Timeout | undefined;
  readonly #observer: PerformanceObserver | undefined;
  #lastUse = performance.eventLoopUtilization();
  #baseline = process.memoryUsage.rss();
  /** When V8 was offered the garbage and has not collected since (performance.now()), with the RSS then. */
  #offered: { at: number; rss: number } | undefined;
  /** Whether V8 has begun marking since the offer. */
  #marking = false;

  constructor(
    private readonly logger: Logger,
    private readonly inFlight: () => number,
    private readonly timing: IdleCollectorTiming = TIMING,
  ) {
    if (typeof globalThis.gc !== 'function') return;
    this.#observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) this.#collected(entry);
    });
    this.#timer = setInterval(() => this.#look(), timing.lookEveryMs);
    this.#timer.unref();
  }

  #look(): void {
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
    if (this.#offered !== undefined && performance.now() - this.#offered.at < this.timing.offerAgainAfterMs)
      return;
    this.#offered = { at: performance.now(), rss };
    this.#marking = false;
    this.logger.info({ rss }, 'collection offered while quiet');
    // Collections are watched only from an offer to its collection: a burst's scavenges call nothing here.
    this.#observer?.observe({ entryTypes: ['gc'] });
    createContext({});
  }

  /** A collection V8 ran: the memory reducer's, after an offer, is the idle collection. */
  #collected(entry: PerformanceEntry): void {
    const detail = (entry as PerformanceEntry & { detail?: { kind?: number; flags?: number } }).detail;
    if (this.#offered === undefined) return;
    if (detail?.kind === constants.NODE_PERFORMANCE_GC_INCREMENTAL && !this.#marking) {
      this.#marking = true;
      // The bench sends its commands from here on: the final pause comes within about a second.
      this.logger.info('V8 is collecting while quiet');
      return;
    }
    if (detail?.kind !== constants.NODE_PERFORMANCE_GC_MAJOR || ((detail.flags ?? 0) & REDUCER_FLAG) === 0)
      return;
    const rssBefore = this.#offered.rss;
    this.#offered = undefined;
    this.#observer?.disconnect();
    // What a collection could not give back stays the baseline: a process that keeps its memory is not
    // offered again and again.
    this.#baseline = process.memoryUsage.rss();
    // Info: rare (once a quiet spell after growth); the bench reads when the final pause was (`at`, epoch ms).
    this.logger.info(
      {
        rssBefore,
        rssAfter: this.#baseline,
        pauseMs: Math.round(entry.duration),
        at: performance.timeOrigin + entry.startTime,
      },
      'collected while quiet',
    );
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#observer?.disconnect();
  }
}
