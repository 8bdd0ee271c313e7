import { Counter, Histogram, type Registry } from 'prom-client';
import type { RdapRequestEvent } from './RdapClient.js';

/**
 * The registry check's metrics: every request to an RDAP server by server and status, and their latency.
 * The registry's expiry and flags per watched domain are watch series (src/observability/watchSeries.ts).
 */
export class RdapMetrics {
  readonly #requests: Counter<'server' | 'status'>;
  readonly #seconds: Histogram;

  constructor(registry: Registry) {
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
}
