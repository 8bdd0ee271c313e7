import { setImmediate as setImmediatePromise, setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { Pool } from 'undici';
import { newCorrelationId } from '../correlationId.js';
import { scrubSecrets } from '../logger.js';
import { cutText } from '../text/cutText.js';
import { AnswerTurns } from './AnswerTurns.js';
import { ConnectionQueue, type Turn } from './ConnectionQueue.js';
import { HostingApiError, type HostingErrorKind, type RedactedRequest } from './HostingApiError.js';
import type { AttemptEvent, CallOptions, HostingClientOptions, RetryPolicy } from './HostingClientOptions.js';
import { encodeQuery, parseRetryAfter, readCapped } from './httpWire.js';
import {
  type Attempt,
  classifyTransportError,
  judgeAnswer,
  mayHaveApplied,
  type Operation,
} from './judgeAnswer.js';
import { notSent } from './notSent.js';
import {
  type BindPanelLicenseInput,
  CHANGE_REQUESTS,
  type ChangeInput,
  type ChangeOperation,
  type CreateDomainInput,
  type CreateMusicBotUserInput,
  type DomainInfo,
  type MusicBotUser,
  type ServerLogEntry,
  type SetReverseDnsInput,
  type SubmitDnsRecordsInput,
} from './operations.js';
import {
  acknowledgementSchema,
  domainInfoSchema,
  musicBotUserSchema,
  serverLogSchema,
} from './responseSchemas.js';
import { SingleFlight } from './singleFlight.js';

const MAX_BODY_BYTES = 1024 * 1024;
const SNIPPET_LENGTH = 160;
const DEFAULT_MAX_URL_BYTES = 8192;
const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 250, maxDelayMs: 4000 };
const DEFAULT_QUEUE_TIMEOUT_MS = 300_000;
// Time left after the provider's own budget to deliver the answer before the interaction's token runs out.
const DELIVERY_MARGIN_MS = 5_000;

/**
 * The hosting management API, one method per operation. Knows nothing about Discord: it returns
 * typed data or throws HostingApiError.
 */
export class HostingClient {
  readonly #pool: Pool;
  readonly #prefix: string;
  readonly #authorization: string;
  readonly #token: string;
  readonly #timeoutMs: number;
  readonly #queueTimeoutMs: number;
  /** Who gets the next free connection: the pool itself never queues. */
  readonly #queue: ConnectionQueue;
  readonly #flights = new SingleFlight();
  readonly #turns = new AnswerTurns();
  readonly #timeZone: string;
  readonly #logger: Logger;
  readonly #retry: RetryPolicy;
  readonly #onAttempt: ((event: AttemptEvent) => void) | undefined;
  readonly #maxUrlBytes: number;
  readonly #schemas: {
    serverLog: ReturnType<typeof serverLogSchema>;
    domainInfo: ReturnType<typeof domainInfoSchema>;
  };

  constructor(options: HostingClientOptions) {
    const url = new URL(options.baseUrl);
    this.#prefix = url.pathname.replace(/\/+$/, '');
    this.#token = options.token;
    this.#authorization = `Bearer ${options.token}`;
    this.#timeoutMs = options.timeoutMs;
    this.#queueTimeoutMs = options.queueTimeoutMs ?? DEFAULT_QUEUE_TIMEOUT_MS;
    this.#timeZone = options.timeZone;
    this.#logger = options.logger;
    this.#retry = { ...DEFAULT_RETRY, ...options.retry };
    this.#onAttempt = options.onAttempt;
    this.#maxUrlBytes = options.maxUrlBytes ?? DEFAULT_MAX_URL_BYTES;
    this.#schemas = {
      serverLog: serverLogSchema(this.#timeZone),
      domainInfo: domainInfoSchema(this.#timeZone),
    };
    const connections = options.maxConnections ?? 10;
    this.#queue = new ConnectionQueue(connections);
    this.#pool = new Pool(url.origin, {
      connections,
      pipelining: 1,
      keepAliveTimeout: 10_000,
      connect: { timeout: options.connectTimeoutMs ?? Math.min(options.timeoutMs, 5_000) },
    });
  }

  async getServerLog(serverId: number, options?: CallOptions): Promise<ServerLogEntry> {
    const raw = await this.#call(
      {
        name: 'serverLog',
        method: 'GET',
        pathTemplate: '/server/logs/{serverid}',
        path: `/server/logs/${encodeURIComponent(String(serverId))}`,
        parse: (body) => this.#schemas.serverLog.safeParse(body),
      },
      options,
    );
    return { type: raw.type, status: raw.status, start: raw.starttime, end: raw.endtime };
  }

  setReverseDns(input: SetReverseDnsInput, options?: CallOptions): Promise<void> {
    return this.#change('setReverseDns', input, options);
  }

  async getDomainInfo(domain: string, options?: CallOptions): Promise<DomainInfo> {
    const raw = await this.#call(
      {
        name: 'domainInfo',
        method: 'GET',
        pathTemplate: '/domain/info/{domain}',
        path: `/domain/info/${encodeURIComponent(domain)}`,
        parse: (body) => this.#schemas.domainInfo.safeParse(body),
      },
      options,
    );
    return {
      expiryDate: raw.expirydate,
      active: raw.active,
      expired: raw.expired,
      transferredAway: raw.transferredAway,
    };
  }

  createMusicBotUser(input: CreateMusicBotUserInput, options?: CallOptions): Promise<MusicBotUser> {
    return this.#call(
      {
        ...this.#changeRequest('createMusicBotUser', input),
        parse: (body) => musicBotUserSchema.safeParse(body),
      },
      options,
    );
  }

  bindPanelLicense(input: BindPanelLicenseInput, options?: CallOptions): Promise<void> {
    return this.#change('bindPanelLicense', input, options);
  }

  createDomain(input: CreateDomainInput, options?: CallOptions): Promise<void> {
    return this.#change('createDomain', input, options);
  }

  submitDnsRecords(input: SubmitDnsRecordsInput, options?: CallOptions): Promise<void> {
    return this.#change('submitDnsRecords', input, options);
  }

  /**
   * Bytes of the request target (path and query) a change would send, to check it against
   * maxUrlBytes before anyone is asked to confirm it.
   */
  requestTargetBytes<K extends ChangeOperation>(operation: K, input: ChangeInput<K>): number {
    const { path, query } = this.#changeRequest(operation, input);
    return Buffer.byteLength(this.#prefix + path + encodeQuery(query));
  }

  /** Calls to the provider in flight now, those waiting for a connection included (the idle collection's gate). */
  get inFlight(): number {
    return this.#queue.holding + this.#queue.waiting;
  }

  get maxUrlBytes(): number {
    return this.#maxUrlBytes;
  }

  /** Waits for requests in flight, then closes the connections; `force` aborts them instead. */
  /**
   * Shutdown, out of time: every call still waiting for a connection is refused (`no_connection`, never
   * sent), so a change that was only queued ends `failed`, not "may have been applied".
   */
  refuseWaiting(): void {
    this.#queue.close();
  }

  close(force = false): Promise<void> {
    this.#queue.close();
    return force ? this.#pool.destroy() : this.#pool.close();
  }

  #changeRequest<K extends ChangeOperation>(operation: K, input: ChangeInput<K>) {
    const spec = CHANGE_REQUESTS[operation];
    return {
      name: operation,
      method: spec.method,
      pathTemplate: spec.path,
      path: spec.path,
      query: spec.query(input),
    };
  }

  /** A change that answers an (ignored) `{}`, or nothing at all. */
  async #change<K extends ChangeOperation>(
    operation: K,
    input: ChangeInput<K>,
    options: CallOptions | undefined,
  ): Promise<void> {
    const parse = (body: unknown) => acknowledgementSchema.safeParse(body);
    await this.#call({ ...this.#changeRequest(operation, input), parse, emptyBodyOk: true }, options);
  }

  /**
   * A read joins an identical one in flight (same method, path and query), if any, rather than asking
   * again; every call waits its turn for a connection (ConnectionQueue) and may stop waiting alone.
   */
  async #call<T>(op: Operation<T>, options: CallOptions | undefined): Promise<T> {
    const correlationId = options?.correlationId ?? newCorrelationId();
    const call = { ...options, correlationId };
    const key =
      op.method === 'GET' && !options?.fresh ? this.#prefix + op.path + encodeQuery(op.query) : undefined;
    const flight = this.#flights.join<T>(key, options?.caller ?? correlationId);
    if (!flight.started) flight.start(this.#admitted(op, call, flight));
    const reader = flight.join({
      waitUntil: this.#waitUntil(options?.answerBy),
      signal: options?.signal,
      watcher: options?.watcher,
    });
    try {
      const answer = await (reader.gaveUp ? Promise.race([flight.work, reader.gaveUp]) : flight.work);
      await this.#turns.next();
      return answer;
    } catch (error) {
      // A reader's reference leads to the log lines of the request it shared.
      if (error instanceof HostingApiError && error.correlationId !== correlationId) {
        this.#logger.info({ cid: correlationId, sharedWith: error.correlationId }, 'shared read failed');
      }
      throw notSent(op, correlationId, error);
    } finally {
      reader.leave();
    }
  }

  /** How long a call may wait for a connection: the queue limit, and while its answer can still be delivered. */
  #waitUntil(answerBy: number | undefined): number {
    const limit = performance.now() + this.#queueTimeoutMs;
    return answerBy === undefined ? limit : Math.min(limit, answerBy - this.#timeoutMs - DELIVERY_MARGIN_MS);
  }

  /** HOSTING_API_TIMEOUT_MS starts once the operation holds a connection; it keeps it through its retries. */
  async #admitted<T>(op: Operation<T>, options: CallOptions, turn: Turn): Promise<T> {
    const slot = this.#queue.admit(turn.caller) ?? (await this.#queue.wait(turn));
    try {
      return await this.#operation(op, options);
    } finally {
      slot.release();
    }
  }

  async #operation<T>(op: Operation<T>, options: CallOptions | undefined): Promise<T> {
    const correlationId = options?.correlationId ?? newCorrelationId();
    const deadline = performance.now() + this.#timeoutMs;
    // Only reads and the idempotent PUT may be repeated; a repeated POST could act twice.
    const maxAttempts = op.method === 'POST' ? 1 : this.#retry.maxAttempts;
    // The first attempt of a PUT that may have reached the provider: it may have been applied, whatever
    // the retries find.
    let reached: HostingApiError | undefined;
    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      const result = await this.#attempt(op, correlationId, attempt, deadline);
      const report = (willRetry: boolean) =>
        this.#onAttempt?.({
          operation: op.name,
          outcome: result.outcome,
          durationMs: performance.now() - started,
          attempt,
          willRetry,
        });
      if (result.ok) {
        report(false);
        return result.value;
      }
      const { error } = result;
      const delayMs = this.#retryDelay(attempt, error.retryAfterMs);
      const willRetry =
        result.retryable && attempt < maxAttempts && performance.now() + delayMs < deadline - 50;
      report(willRetry);
      this.#logger.warn(
        {
          op: op.name,
          path: op.pathTemplate,
          kind: error.kind,
          status: error.status,
          cid: correlationId,
          attempt,
          willRetry,
        },
        'hosting api call failed',
      );
      if (result.mayHaveArrived) reached ??= error;
      if (!willRetry) throw op.method === 'PUT' && reached ? mayHaveApplied(reached, error) : error;
      await sleep(delayMs);
    }
  }

  async #attempt<T>(
    op: Operation<T>,
    correlationId: string,
    attempt: number,
    deadline: number,
  ): Promise<Attempt<T>> {
    const request: RedactedRequest = { method: op.method, pathTemplate: op.pathTemplate };
    const fail = (
      kind: HostingErrorKind,
      message: string,
      extra: Partial<HostingApiError> & { cause?: unknown } = {},
    ) =>
      new HostingApiError(message, {
        kind,
        operation: op.name,
        request,
        correlationId,
        attempts: attempt,
        ...extra,
      });
    const target = this.#prefix + op.path + encodeQuery(op.query);
    const bytes = Buffer.byteLength(target);
    if (bytes > this.#maxUrlBytes) {
      const message = `request of ${bytes} bytes is larger than the ${this.#maxUrlBytes} bytes allowed; not sent`;
      return {
        ok: false,
        outcome: 'request_too_large',
        retryable: false,
        error: fail('request_too_large', message),
      };
    }
    const started = performance.now();
    const remaining = Math.max(1, Math.round(deadline - started));

    let status: number;
    let text: string;
    let retryAfterMs: number | undefined;
    try {
      const response = await this.#pool.request({
        method: op.method,
        path: target,
        headers: { authorization: this.#authorization, accept: 'application/json' },
        signal: AbortSignal.timeout(remaining),
        headersTimeout: remaining,
        bodyTimeout: remaining,
      });
      status = response.statusCode;
      retryAfterMs = parseRetryAfter(response.headers['retry-after']);
      text = await readCapped(response.body, MAX_BODY_BYTES);
      // undici marks the connection free in a microtask after the body ends; yielding once lets the
      // next sequential call reuse it instead of opening a second socket.
      await setImmediatePromise();
    } catch (cause) {
      const { kind, message, timeoutMs, notSent } = classifyTransportError(cause, op.method, this.#timeoutMs);
      const retryable = op.method !== 'POST' && kind !== 'bad_response' && kind !== 'outcome_unknown';
      const error = fail(kind, message, { cause, timeoutMs });
      return { ok: false, outcome: kind, retryable, error, mayHaveArrived: notSent !== true };
    }

    const durationMs = performance.now() - started;
    this.#logger.info(
      {
        op: op.name,
        method: op.method,
        path: op.pathTemplate,
        status,
        ms: Math.round(durationMs),
        cid: correlationId,
        attempt,
      },
      'hosting api call',
    );

    return {
      outcome: status,
      ...judgeAnswer(op, { status, text, retryAfterMs }, fail, () => this.#snippet(text, op.query)),
    };
  }

  #retryDelay(attempt: number, retryAfterMs: number | undefined): number {
    if (retryAfterMs !== undefined) return retryAfterMs;
    const ceiling = Math.min(this.#retry.maxDelayMs, this.#retry.baseDelayMs * 2 ** (attempt - 1));
    // Jitter keeps a burst of failed calls from coming back in lock-step.
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }

  #snippet(text: string, query: Record<string, string> | undefined): string {
    const out = text.replace(/\s+/g, ' ').trim();
    // Providers echo the request in error pages: the token, a music-bot password, a license key.
    const secrets = [this.#token, query?.password, query?.license].filter(
      (s): s is string => typeof s === 'string',
    );
    return cutText(scrubSecrets(out, secrets), SNIPPET_LENGTH);
  }
}
