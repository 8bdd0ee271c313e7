import { Gauge, type Registry } from 'prom-client';
import type { Store } from '../store/index.js';
import { LEASE_MS } from '../store/Presence.js';
import type { DomainWatch } from '../watch/DomainWatch.js';
import type { WatchScheduler } from '../watch/WatchScheduler.js';
import type { HealthState } from './HealthState.js';

// The gauges the shipped alert rules and dashboard (deploy/) need beyond the counters: each read at the
// scrape, from the store where every replica must say the same (no stale value from a replica that
// happened to do the work), and nothing rather than an old value when the store cannot be read.

export interface OperatorSources {
  health: HealthState;
  store: Store;
  approvalTimeoutMs: number;
  watch: DomainWatch | undefined;
  scheduler: WatchScheduler | undefined;
  now: () => Date;
  /** Once per outage, not once per gauge and scrape. */
  readStore<T>(read: () => Promise<T>): Promise<T | undefined>;
}

export function registerOperatorGauges(registry: Registry, sources: OperatorSources): void {
  const { health, store, watch, scheduler, readStore } = sources;
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
  // Two reads of one partial index range (a handful of rows) per scrape: each gauge collects on its own.
  const flagged = () => readStore(() => store.watch.flagged());
  new Gauge({
    name: 'hostops_watch_domain_flag',
    help: 'A watched domain that needs attention, by what the last check saw: 1 per domain and flag set',
    labelNames: ['domain', 'flag'] as const,
    registers: [registry],
    async collect() {
      // Nothing rather than stale values when the store cannot be read: an alert on old data is worse.
      this.reset();
      for (const row of (await flagged()) ?? []) {
        for (const [flag, set] of [
          ['not_found', row.notFound],
          ['inactive', row.inactive],
          ['expired', row.expired],
          ['transferred_away', row.transferredAway],
        ] as const) {
          if (set) this.set({ domain: row.domain, flag }, 1);
        }
      }
      // The registry's findings (src/rdap), beside the provider's flags.
      for (const row of (await readStore(() => store.registry.flagged())) ?? []) {
        for (const flag of row.flags) this.set({ domain: row.domain, flag: `registry_${flag}` }, 1);
      }
    },
  });
  new Gauge({
    name: 'hostops_watch_domain_failures',
    help: 'Failed checks in a row of a watched domain (only domains with at least one)',
    labelNames: ['domain'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of (await flagged()) ?? []) {
        if (row.failures > 0) this.set({ domain: row.domain }, row.failures);
      }
    },
  });
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
  const interval = scheduler?.longestIntervalSeconds();
  if (interval !== undefined) {
    new Gauge({
      name: 'hostops_watch_schedule_interval_seconds',
      help: 'The longest wait between two scheduled watch runs (WATCH_SCHEDULE)',
      registers: [registry],
    }).set(interval);
  }
}
