import type { Logger } from 'pino';
import type { HostingErrorKind } from './HostingApiError.js';
import type { WaitWatcher } from './singleFlight.js';

// What a HostingClient is made with and what each call may say: the client's contract with its callers.
export interface HostingClientOptions {
  /** `{base_url}` of the spec; may carry a path prefix. */
  baseUrl: string;
  token: string;
  /** Upper bound for one operation, retries included, counted from the moment it has a connection. */
  timeoutMs: number;
  /** Longest an operation waits for a connection before it is given up, unsent. */
  queueTimeoutMs?: number;
  /** Zone of the API's `DD.MM.YYYY HH:MM:SS` timestamps. */
  timeZone: string;
  logger: Logger;
  /** Cap on connections (and so requests) in flight to the provider. */
  maxConnections?: number;
  /**
   * Longest request target (path and query string, in bytes) HostOps sends; servers commonly refuse
   * longer ones with 414 or 431, and every parameter travels in the query string.
   */
  maxUrlBytes?: number;
  connectTimeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Told about every attempt; the metrics module listens here. */
  onAttempt?: (event: AttemptEvent) => void;
}

export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export interface AttemptEvent {
  operation: string;
  /** HTTP status, or the error kind when no response arrived. */
  outcome: number | HostingErrorKind;
  durationMs: number;
  attempt: number;
  willRetry: boolean;
}

export interface CallOptions {
  /** Ties the API log lines to the chat command that caused them. */
  correlationId?: string;
  /** Whose share of the connections the call takes (an invocation, `watch`); by default its correlation id. */
  caller?: string;
  /**
   * performance.now() after which an answer can no longer be delivered (an interaction's token has run
   * out): the call waits for a connection only as long as the provider's time still fits before it.
   */
  answerBy?: number;
  /** Stops this call's wait for a connection (never a request already sent); an identical read goes on. */
  signal?: AbortSignal;
  /** Told while the call waits for a connection (the "waiting for the provider" notice). */
  watcher?: WaitWatcher;
  /**
   * A read that must start after this moment (a read-back checking whether a change took effect): it
   * never joins an identical read already in flight, whose answer may predate the change.
   */
  fresh?: boolean;
}
