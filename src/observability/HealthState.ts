import type { InteractionMode } from '../config.js';
import type { AttemptEvent } from '../hosting/HostingClientOptions.js';

export type GatewayState = 'starting' | 'ready' | 'reconnecting' | 'stopping';
export type EndpointState = 'starting' | 'ready' | 'stopping';

/**
 * What /healthz reports: this replica, how interactions reach it (its gateway session, or its interactions
 * endpoint in http mode), its store, and how the provider has been answering.
 */
export class HealthState {
  gateway: GatewayState = 'starting';
  /** INTERACTIONS_MODE=http: the listener of POST /interactions. */
  endpoint: EndpointState = 'starting';
  /** The store as the last heartbeat found it: a replica that cannot reach it cannot keep its word. */
  store: 'ok' | 'unreachable' = 'ok';

  constructor(
    readonly replicaId = '',
    readonly mode: InteractionMode = 'gateway',
  ) {}

  readonly #startedAt = Date.now();
  #lastApiSuccess: Date | null = null;
  #lastApiFailure: { at: Date; operation: string; outcome: string } | null = null;

  apiAttempt(event: AttemptEvent): void {
    // A 4xx is a well-formed answer from a healthy provider; only 5xx and no answer count as failure.
    if (typeof event.outcome === 'number' && event.outcome < 500) this.#lastApiSuccess = new Date();
    else
      this.#lastApiFailure = { at: new Date(), operation: event.operation, outcome: String(event.outcome) };
  }

  get healthy(): boolean {
    return (this.mode === 'http' ? this.endpoint : this.gateway) === 'ready' && this.store === 'ok';
  }

  snapshot() {
    return {
      status: this.healthy ? 'ok' : 'unavailable',
      replica: this.replicaId,
      ...(this.mode === 'http' ? { endpoint: this.endpoint } : { gateway: this.gateway }),
      store: this.store,
      uptimeSeconds: Math.round((Date.now() - this.#startedAt) / 1000),
      lastApiSuccess: this.#lastApiSuccess?.toISOString() ?? null,
      lastApiFailure: this.#lastApiFailure
        ? { ...this.#lastApiFailure, at: this.#lastApiFailure.at.toISOString() }
        : null,
    };
  }
}
