import { Gauge, type Registry } from 'prom-client';
import type { Store } from '../store/index.js';
import { LEASE_MS } from '../store/Presence.js';
import type { DomainWatch } from '../watch/DomainWatch.js';
import type { HealthState } from './HealthState.js';

// The gauges the shipped alert rules and dashboard (deploy/) need beyond the counters: each read at the
// scrape, from the store where every replica must say the same (no stale value from a replica that
// happened to do the work), and nothing rather than an old value when the store cannot be read.

export interface OperatorSources {
  health: HealthState;
  store: Store;
  approvalTimeoutMs: number;
  watch: DomainWatch | undefined;
  /** The longest wait between two scheduled watch runs, in seconds; asked at the first scrape, not at start-up. */
  scheduleInterval: () => number | undefined;
  now: () => Date;
  /** Once per outage, not once per gauge and scrape. */
  readStore<T>(read: () => Promise<T>): Promise<T | undefined>;
}

export function registerOperatorGauges(registry: Registry, sources: OperatorSources): void {
  const { health, store, watch, readStore } = sources;
  new Gauge({
    name: 'hostops_ready',
    help: 'Whether this replica takes interactions (1) or not: starting, reconnecting or stopping (0)',
    registers: [registry],
    collect() {
      this.set(health.healthy ? 1 : 0);
    },
  });
  new Gauge({
    name: 'hostops_replicas_alive',
    help: 'Bot replicas with a heartbeat in the store inside their lease',
    registers: [registry],
    async collect() {
      this.reset();
      const live = await readStore(() => store.replicas.live({ withinMs: LEASE_MS }));
      if (live) this.set(live.filter((replica) => replica.role === 'bot').length);
    },
  });
  const awaiting = () =>
    readStore(() =>
      store.changes.countAwaiting(new Date(sources.now().getTime() + sources.approvalTimeoutMs / 2)),
    );
  new Gauge({
    name: 'hostops_approvals_waiting',
    help: 'Approval requests open',
    registers: [registry],
    async collect() {
      this.reset();
      const counts = await awaiting();
      if (counts) this.set(counts.waiting);
    },
  });
  new Gauge({
    name: 'hostops_approvals_waiting_past_half_timeout',
    help: 'Approval requests open for more than half of APPROVAL_TIMEOUT_S',
    registers: [registry],
    async collect() {
      this.reset();
      const counts = await awaiting();
      if (counts) this.set(counts.due);
    },
  });
  if (!watch) return;
  // The per-domain flags and failures are the watch series (watchSeries.ts), rendered once per change.
  new Gauge({
    name: 'hostops_watch_lead_time_seconds',
    help: 'How long before expiry the watch starts alerting: the largest of WATCH_LEAD_DAYS',
    registers: [registry],
  }).set(Math.max(...watch.settings.leadDays) * 86_400);
  new Gauge({
    name: 'hostops_watch_last_run_timestamp_seconds',
    help: 'When the last watch run of the whole list finished, on any replica or console (Unix time)',
    registers: [registry],
    async collect() {
      this.reset();
      const last = await readStore(() => watch.lastRun());
      if (last) this.set(Date.parse(last.at) / 1000);
    },
  });
  // Enumerating the schedule's next runs in the API's time zone is left to the first scrape: start-up
  // need not wait for it. The schedule does not change while the process runs, so it is worked out once.
  let interval: { seconds: number | undefined } | undefined;
  new Gauge({
    name: 'hostops_watch_schedule_interval_seconds',
    help: 'The longest wait between two scheduled watch runs (WATCH_SCHEDULE)',
    registers: [registry],
    collect() {
      interval ??= { seconds: sources.scheduleInterval() };
      if (interval.seconds !== undefined) this.set(interval.seconds);
    },
  });
}
