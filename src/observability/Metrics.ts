import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { CommandOutcome } from '../audit/outcomes.js';
import type { RouterObserver } from '../discord/InteractionRouter.js';
import type { AttemptEvent } from '../hosting/HostingClient.js';
import type { RunSummary, WatchGauges, WatchObserver } from '../watch/DomainWatch.js';
import { expiryGauges } from './expiryGauges.js';

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
  readonly #claims = new Counter({
    name: 'hostops_interaction_claims_total',
    help: 'Interactions this replica claimed (won) or found claimed by another replica (lost)',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  #watch: WatchGauges | undefined;
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
    for (const alert of summary.alerts) this.#watchAlerts.inc({ kind: alert.kind });
  }

  /**
   * Everything a scrape exports: prom-client's metrics, then the watch's per-domain expiry gauges. What
   * can fail (reading the store) is read before this resolves, so a failure can still be answered with
   * a 500; the per-domain lines are rendered as the response takes them, a turn of the event loop at a time.
   */
  async scrape(): Promise<AsyncIterable<string>> {
    const watch = this.#watch;
    const [text, expiries] = await Promise.all([
      this.registry.metrics(),
      watch ? this.#readWatch(() => watch.expiries()) : undefined,
    ]);
    return (async function* () {
      yield text;
      if (watch) yield* expiryGauges(expiries);
    })();
  }

  /**
   * Exports the watch list's gauges, read from the store at each scrape: every replica reports the
   * same current value per domain (whichever replica last checked it), and a removed domain is gone.
   * The per-domain ones (`expiryGauges`) are rendered by `scrape` rather than kept in prom-client,
   * which would render all of their lines in one turn of the event loop.
   */
  observeWatch(watch: WatchGauges): void {
    if (this.#watch) return;
    this.#watch = watch;
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

  gatewayReconnected(): void {
    this.#gatewayReconnects.inc();
  }
}
