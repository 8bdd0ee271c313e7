import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { CommandOutcome } from '../audit/outcomes.js';
import { coalesced, type DeflatedPart, deflatePart, gzipParts } from '../gzipParts.js';
import type { AttemptEvent } from '../hosting/HostingClientOptions.js';
import type { PostKind } from '../store/index.js';
import { TurnBudget } from '../TurnBudget.js';
import type { Alert } from '../watch/alertRules.js';
import type { RunSummary, WatchObserver } from '../watch/DomainWatch.js';
import { OncePerChange } from '../watch/OncePerChange.js';
import type { WatchData } from '../watch/watchPages.js';
import type { RouterObserver } from './RouterObserver.js';
import type { SignatureRefusal } from './signatureRefusals.js';
import { emptyWatchSeries, renderWatchSeries } from './watchSeries.js';

/** A scrape's text, rendered once and shared by every request that asked for it meanwhile. */
export interface Scrape {
  chunks: readonly Buffer[];
  bytes: number;
  /** The same text gzipped (as Prometheus asks for it): the kept series are compressed once per change. */
  gzip(): Promise<{ chunks: readonly Buffer[]; bytes: number }>;
}

/** The per-domain series as kept between changes of the watch data: their text, and compressed. */
interface KeptSeries {
  plain: Buffer[];
  compressed: DeflatedPart;
}

const sizeOf = (chunks: readonly Buffer[]) => chunks.reduce((sum, chunk) => sum + chunk.length, 0);

/** Prometheus metrics, on a registry of their own so tests and several bots in one process don't collide. */
export class Metrics implements RouterObserver, WatchObserver {
  readonly registry = new Registry();
  readonly #commands = new Counter({
    name: 'hostops_commands_total',
    help: 'Commands by name and outcome',
    labelNames: ['command', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly #ackSeconds = new Histogram({
    name: 'hostops_command_ack_seconds',
    help: 'Time from receiving an interaction to Discord accepting the first response',
    labelNames: ['command'] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3],
    registers: [this.registry],
  });
  readonly #commandSeconds = new Histogram({
    name: 'hostops_command_duration_seconds',
    help: 'Time from receiving a command to its end state',
    labelNames: ['command', 'outcome'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120],
    registers: [this.registry],
  });
  readonly #apiCalls = new Counter({
    name: 'hostops_api_requests_total',
    help: 'Hosting API attempts by operation and HTTP status (or error kind when no answer came)',
    labelNames: ['operation', 'status'] as const,
    registers: [this.registry],
  });
  readonly #apiSeconds = new Histogram({
    name: 'hostops_api_request_duration_seconds',
    help: 'Hosting API attempt latency',
    labelNames: ['operation'] as const,
    buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
    registers: [this.registry],
  });
  readonly #apiRetries = new Counter({
    name: 'hostops_api_retries_total',
    help: 'Hosting API attempts that are being retried',
    labelNames: ['operation'] as const,
    registers: [this.registry],
  });
  readonly #abandonedPosts = new Counter({
    name: 'hostops_discord_posts_abandoned_total',
    help: 'Posts owed to Discord (audit-channel lines, sweep notices) given up after every attempt, by kind',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  readonly #claims = new Counter({
    name: 'hostops_interaction_claims_total',
    help: 'Interactions this replica claimed (won) or found claimed by another replica (lost)',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  #watch: WatchData | undefined;
  #watchSeries: OncePerChange<KeptSeries> | undefined;
  /** The families without samples, for a scrape that could not read the store. */
  #noSeries: Promise<KeptSeries> | undefined;
  #rendering: Promise<Scrape> | undefined;
  #giveWay: () => boolean = () => false;
  #watchUnreadable = false;
  readonly #watchRuns = new Counter({
    name: 'hostops_watch_runs_total',
    help: 'Watch runs by outcome (ok, partial, failed)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly #watchAlerts = new Counter({
    name: 'hostops_watch_alerts_total',
    help: 'Watch alerts sent, by kind',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  readonly #interactionRequests = new Counter({
    name: 'hostops_interaction_requests_total',
    help: 'Requests to POST /interactions (INTERACTIONS_MODE=http) by the HTTP status answered',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  readonly #signatureRefusals = new Counter({
    name: 'hostops_interaction_signature_refusals_total',
    help: 'Requests to POST /interactions refused 401, by why (missing, malformed, stale timestamp, invalid): the 401 body is the same for all',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  readonly #operatorRequests = new Counter({
    name: 'hostops_operator_requests_total',
    help: 'Requests to the operator and calendar listeners by page (healthz, metrics, calendar, other) and status answered (cut: not read in time)',
    labelNames: ['page', 'status'] as const,
    registers: [this.registry],
  });
  readonly #gatewayReconnects = new Counter({
    name: 'hostops_gateway_reconnects_total',
    help: 'Times the Discord gateway connection was lost and re-established or resumed',
    registers: [this.registry],
  });

  #defaultsStarted = false;

  constructor(private readonly onCollectError: (error: unknown) => void = () => {}) {
    // Node's default metrics (process, heap, GC, event-loop lag) start with the first scrape: until then
    // nobody reads them, and two of them cost an idle bot CPU (event-loop lag samples every 10 ms, GC
    // durations are observed on every collection). A bot without HTTP_PORT never starts them.
    const metrics = this.registry.metrics.bind(this.registry);
    this.registry.metrics = () => {
      this.#startDefaults();
      return metrics();
    };
  }

  #startDefaults(): void {
    if (this.#defaultsStarted) return;
    this.#defaultsStarted = true;
    collectDefaultMetrics({ register: this.registry });
  }

  acknowledged(command: string, ms: number): void {
    this.#ackSeconds.observe({ command }, ms / 1000);
  }

  finished(command: string, outcome: CommandOutcome, ms: number): void {
    this.#commands.inc({ command, outcome });
    this.#commandSeconds.observe({ command, outcome }, ms / 1000);
  }

  postAbandoned(kind: PostKind): void {
    this.#abandonedPosts.inc({ kind });
  }

  claimed(won: boolean): void {
    this.#claims.inc({ result: won ? 'won' : 'lost' });
  }

  apiAttempt(event: AttemptEvent): void {
    this.#apiCalls.inc({ operation: event.operation, status: String(event.outcome) });
    this.#apiSeconds.observe({ operation: event.operation }, event.durationMs / 1000);
    if (event.willRetry) this.#apiRetries.inc({ operation: event.operation });
  }

  watchRun(summary: RunSummary): void {
    this.#watchRuns.inc({ outcome: summary.outcome });
  }

  /** Counted as posted, whoever found them: a nameserver change a /domain info found alerts like a run's. */
  watchAlerts(alerts: readonly Alert[]): void {
    for (const alert of alerts) this.#watchAlerts.inc({ kind: alert.kind });
  }

  /**
   * Everything a scrape exports: prom-client's metrics, then the watch's per-domain series, kept from the
   * last change of the watch data (a scrape with nothing changed renders only prom-client's few lines).
   * One render at a time: scrapes that arrive meanwhile share it, and every response writes the same
   * pieces (a slow scraper holds no copy of its own).
   */
  scrape(): Promise<Scrape> {
    this.#rendering ??= this.#render().finally(() => {
      this.#rendering = undefined;
    });
    return this.#rendering;
  }

  async #render(): Promise<Scrape> {
    const series = this.#watchSeries;
    const [text, read] = await Promise.all([
      this.registry.metrics(),
      series ? this.#readWatch(async () => (await series.get()).value) : undefined,
    ]);
    const kept = series ? (read ?? (await this.#emptySeries())) : undefined;
    // The kept series first: the gzip answer continues from their compressed blocks.
    const last = Buffer.from(text);
    const chunks = [...(kept?.plain ?? []), last];
    let gzipped: Promise<{ chunks: readonly Buffer[]; bytes: number }> | undefined;
    return {
      chunks,
      bytes: sizeOf(chunks),
      gzip: () => {
        gzipped ??= (async () => {
          const parts = await gzipParts(kept?.compressed ?? { deflated: [], crc: 0, bytes: 0 }, last);
          return { chunks: parts, bytes: sizeOf(parts) };
        })();
        return gzipped;
      },
    };
  }

  #emptySeries(): Promise<KeptSeries> {
    this.#noSeries ??= keep(emptyWatchSeries());
    return this.#noSeries;
  }

  /**
   * A scrape pauses while `pending` says work that cannot wait is under way: an interaction Discord has
   * not had a first response to (it wants one within 3 s; Prometheus waits 10 s by default).
   */
  giveWayTo(pending: () => boolean): void {
    this.#giveWay = pending;
  }

  /**
   * Exports the watch list's gauges, from the store: every replica reports the same current value per
   * domain (whichever replica last checked it), and a removed domain is gone. The per-domain series
   * (`watchSeries`) are rendered once per change of the watch data (the store's change stamp) rather than
   * kept in prom-client, which would render all of their lines in one turn of the event loop.
   */
  observeWatch(watch: WatchData): void {
    if (this.#watch) return;
    this.#watch = watch;
    this.#watchSeries = new OncePerChange(
      () => watch.changeStamp(),
      async () => keep(await renderWatchSeries(watch, new TurnBudget(this.#giveWay))),
    );
    const metrics = this;
    new Gauge({
      name: 'hostops_watch_domains',
      help: 'Domains on the watch list',
      registers: [this.registry],
      async collect() {
        this.reset();
        const count = await metrics.#readWatch(() => watch.count());
        if (count !== undefined) this.set(count);
      },
    });
  }

  /** A store read for a gauge: undefined (and logged once per outage) when the store cannot be read. */
  readStore<T>(read: () => Promise<T>): Promise<T | undefined> {
    return this.#readWatch(read);
  }

  async #readWatch<T>(read: () => Promise<T>): Promise<T | undefined> {
    try {
      const value = await read();
      this.#watchUnreadable = false;
      return value;
    } catch (error) {
      // Once per outage, not once per gauge and scrape.
      if (!this.#watchUnreadable) this.onCollectError(error);
      this.#watchUnreadable = true;
      return undefined;
    }
  }

  interactionRequest(status: number): void {
    this.#interactionRequests.inc({ status: String(status) });
  }

  signatureRefused(reason: SignatureRefusal): void {
    this.#signatureRefusals.inc({ reason });
  }

  operatorRequest(page: 'healthz' | 'metrics' | 'calendar' | 'other', status: number | 'cut'): void {
    this.#operatorRequests.inc({ page, status: String(status) });
  }

  gatewayReconnected(): void {
    this.#gatewayReconnects.inc();
  }
}

async function keep(plain: Buffer[]): Promise<KeptSeries> {
  return { plain, compressed: await coalesced(await deflatePart(plain)) };
}
