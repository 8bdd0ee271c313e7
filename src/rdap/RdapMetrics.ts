import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Store } from '../store/index.js';
import type { RdapRequestEvent } from './RdapClient.js';

/** Watched domains read per store query when the registry's expiry gauge is scraped. */
const PAGE = 500;

/**
 * The registry check's metrics: every request to an RDAP server by server and status, their latency,
 * and the registry's expiry of each watched domain (read from the store at the scrape, so every replica
 * exports the same).
 */
export class RdapMetrics {
  readonly #requests: Counter<'server' | 'status'>;
  readonly #seconds: Histogram;

  constructor(private readonly registry: Registry) {
    this.#requests = new Counter({
      name: 'hostops_rdap_requests_total',
      help: 'Requests to registries (RDAP) by server and HTTP status (or timeout, network, too_large)',
      labelNames: ['server', 'status'] as const,
      registers: [registry],
    });
    this.#seconds = new Histogram({
      name: 'hostops_rdap_request_duration_seconds',
      help: 'Latency of requests to registries (RDAP), waiting for a turn at the server excluded',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
  }

  request(event: RdapRequestEvent): void {
    this.#requests.inc({ server: event.server, status: event.status });
    this.#seconds.observe(event.seconds);
  }

  /** The registry's expiry per watched domain; nothing rather than stale values when the store fails. */
  observeExpiries(store: Store, readStore: <T>(read: () => Promise<T>) => Promise<T | undefined>): void {
    new Gauge({
      name: 'hostops_watch_domain_registry_expiry_timestamp_seconds',
      help: 'When a watched domain expires according to its registry (RDAP expiration event, Unix time), as last read',
      labelNames: ['domain'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        // A page at a time, the event loop given back between pages.
        let after: string | undefined;
        for (;;) {
          const page = await readStore(() => store.registry.expiries(after, PAGE));
          if (page === undefined) return this.reset();
          for (const { domain, expiresAt } of page) {
            const instant = Date.parse(expiresAt);
            if (!Number.isNaN(instant)) this.set({ domain }, instant / 1000);
          }
          after = page.at(-1)?.domain;
          if (page.length < PAGE || after === undefined) return;
          await new Promise((resolve) => setImmediate(resolve));
        }
      },
    });
  }
}
