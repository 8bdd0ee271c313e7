import type { AttemptEvent } from '../hosting/HostingClient.js';

export type GatewayState = 'starting' | 'ready' | 'reconnecting' | 'stopping';

/** What /healthz reports: the gateway session and how the provider has been answering lately. */
export class HealthState {
  gateway: GatewayState = 'starting';
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
    return this.gateway === 'ready';
  }

  snapshot() {
    return {
      status: this.healthy ? 'ok' : 'unavailable',
      gateway: this.gateway,
      uptimeSeconds: Math.round((Date.now() - this.#startedAt) / 1000),
      lastApiSuccess: this.#lastApiSuccess?.toISOString() ?? null,
      lastApiFailure: this.#lastApiFailure
        ? { ...this.#lastApiFailure, at: this.#lastApiFailure.at.toISOString() }
        : null,
    };
  }
}
