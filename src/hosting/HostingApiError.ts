import type { OperationName } from './operations.js';

/**
 * Stable error kinds the chat layer maps to messages. `outcome_unknown` is only ever produced for changes
 * whose request may have reached the provider without an answer HostOps understood (a POST that timed out
 * or lost its connection, a PUT none of whose attempts succeeded after one may have reached the provider
 * (timed out, lost its connection once sent, got a gateway's 502/504), an ambiguous gateway status, any
 * change answered 2xx with an unreadable body):
 * repeating it could, for example, register a domain twice, so the outcome is read back or checked first.
 */
export type HostingErrorKind =
  | 'unauthorized'
  | 'not_found'
  | 'rate_limited'
  | 'upstream'
  | 'bad_response'
  | 'timeout'
  | 'network'
  | 'outcome_unknown'
  /** Longer than the provider (414/431) or HOSTING_API_MAX_URL_BYTES allows; never carried out. */
  | 'request_too_large'
  /**
   * Never sent: no connection of HostOps' own HOSTING_API_MAX_CONNECTIONS came free in time (`timeoutMs`
   * says how long it waited), or HostOps shut down while it waited (no `timeoutMs`).
   */
  | 'no_connection';

/** What is safe to show about the request: never the query string (it can carry a password). */
export interface RedactedRequest {
  method: string;
  pathTemplate: string;
}

export interface HostingApiErrorDetails {
  kind: HostingErrorKind;
  operation: OperationName;
  request: RedactedRequest;
  correlationId: string;
  status?: number | undefined;
  retryAfterMs?: number | undefined;
  /** Set when the provider did not answer in time: the limit that ran out. */
  timeoutMs?: number | undefined;
  /** Short, secret-free excerpt of an unusable body. */
  snippet?: string | undefined;
  attempts: number;
  cause?: unknown;
}

export class HostingApiError extends Error {
  override readonly name = 'HostingApiError';
  readonly kind: HostingErrorKind;
  readonly operation: OperationName;
  readonly request: RedactedRequest;
  readonly correlationId: string;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  readonly timeoutMs: number | undefined;
  readonly snippet: string | undefined;
  readonly attempts: number;

  constructor(message: string, details: HostingApiErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.kind = details.kind;
    this.operation = details.operation;
    this.request = details.request;
    this.correlationId = details.correlationId;
    this.status = details.status;
    this.retryAfterMs = details.retryAfterMs;
    this.timeoutMs = details.timeoutMs;
    this.snippet = details.snippet;
    this.attempts = details.attempts;
  }

  /** Log-friendly shape: no cause chain (undici causes can embed the full URL). */
  toJSON() {
    return {
      name: this.name,
      kind: this.kind,
      message: this.message,
      operation: this.operation,
      request: this.request,
      status: this.status,
      correlationId: this.correlationId,
      retryAfterMs: this.retryAfterMs,
      timeoutMs: this.timeoutMs,
      snippet: this.snippet,
      attempts: this.attempts,
    };
  }
}
