import { Agent, errors, request } from 'undici';
import type { z } from 'zod';
import { parseRetryAfter, readCapped } from '../hosting/httpWire.js';
import { ServerGate } from './ServerGate.js';

/** A request to a registry as the metrics count it. */
export interface RdapRequestEvent {
  /** The server's origin (`https://rdap.example`). */
  server: string;
  /** The HTTP status, or what happened instead: timeout, network, too_large, refused. */
  status: string;
  seconds: number;
}

export interface RdapClientOptions {
  /** The limits of each server (RDAP_MAX_PER_SERVER, RDAP_MIN_INTERVAL_MS). */
  maxPerServer: number;
  minIntervalMs: number;
  /** Whether plain http is allowed: only when the bootstrap URL itself is http (a sandbox, a test). */
  allowHttp: boolean;
  /** One request's bound, waiting for its turn excluded. */
  timeoutMs?: number;
  /** The largest answer read; past it the answer is unreadable. */
  maxBytes?: number;
  /** Redirects followed per request (RFC 7480 §5.2). */
  maxRedirects?: number;
  /** 429s retried per request after their Retry-After. */
  maxRetries?: number;
  /** The longest Retry-After obeyed before the request gives up (a longer one still pauses the server). */
  maxRetryAfterMs?: number;
  onRequest?: (event: RdapRequestEvent) => void;
}

/** Why a request brought no usable answer. */
export type RdapFailure =
  | 'timeout'
  | 'network'
  | 'status'
  | 'rate_limited'
  | 'refused'
  | 'busy'
  /** The bootstrap file could not be fetched and the shipped copy does not name the TLD. */
  | 'no_bootstrap';

export type RdapFetch<T> =
  | { kind: 'ok'; server: string; value: T }
  | { kind: 'not_found'; server: string }
  /** The answer came and was not what RDAP promises: too large, not JSON, or not the schema. */
  | { kind: 'unreadable'; server: string; why: string }
  | { kind: 'failed'; server: string; why: RdapFailure; status?: number };

/** One request's end, before it is judged. */
type Once =
  | { kind: 'body'; text: string; tooLarge: boolean }
  | { kind: 'status'; status: number; headers: Record<string, string | string[] | undefined> }
  | { kind: 'timeout' | 'network' };

const ACCEPT = 'application/rdap+json, application/json;q=0.9';

/**
 * HTTP to registries, on its own undici Agent (never the provider's connection pool). TLS is verified
 * against Node's own trust store (NODE_EXTRA_CA_CERTS included); each server gets its own gate
 * (concurrency, spacing, Retry-After); redirects are followed a bounded number of times and only to
 * allowed schemes; answers are read up to a size and validated before anything else sees them.
 */
export class RdapClient {
  readonly #agent: Agent;
  readonly #gates = new Map<string, ServerGate>();
  readonly #timeoutMs: number;
  readonly #maxBytes: number;
  readonly #maxRedirects: number;
  readonly #maxRetries: number;
  readonly #maxRetryAfterMs: number;
  /** Aborted by stop(): every wait for a turn and every request in flight ends at once. */
  readonly #stopping = new AbortController();

  constructor(private readonly options: RdapClientOptions) {
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#maxBytes = options.maxBytes ?? 256 * 1024;
    this.#maxRedirects = options.maxRedirects ?? 3;
    this.#maxRetries = options.maxRetries ?? 2;
    this.#maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
    this.#agent = new Agent({
      connections: Math.max(1, options.maxPerServer),
      headersTimeout: this.#timeoutMs,
      bodyTimeout: this.#timeoutMs,
      keepAliveTimeout: 10_000,
    });
  }

  /** Whether a URL may be asked at all. */
  allowed(url: URL): boolean {
    return url.protocol === 'https:' || (this.options.allowHttp && url.protocol === 'http:');
  }

  /** The gate of a server, by origin. */
  gate(origin: string): ServerGate {
    let gate = this.#gates.get(origin);
    if (!gate) {
      gate = new ServerGate(this.options.maxPerServer, this.options.minIntervalMs);
      this.#gates.set(origin, gate);
    }
    return gate;
  }

  /** How long from now before `origin` may be asked again (0 for a server not asked yet). */
  pausedForMs(origin: string): number {
    return this.#gates.get(origin)?.pausedForMs ?? 0;
  }

  /**
   * GETs `url` and validates the JSON answer with `schema`. `signal` bounds the whole of it: ended while
   * waiting for a turn it is `busy` (our own limits), ended during a request `timeout` (the registry was
   * slow). `urgent` goes ahead of the watch's requests.
   */
  async getJson<S extends z.ZodType>(
    url: URL,
    schema: S,
    options: { signal?: AbortSignal; urgent?: boolean; maxBytes?: number } = {},
  ): Promise<RdapFetch<z.output<S>>> {
    const signal = options.signal
      ? AbortSignal.any([options.signal, this.#stopping.signal])
      : this.#stopping.signal;
    let current = url;
    let redirects = 0;
    let retries = 0;
    for (;;) {
      const server = current.origin;
      if (!this.allowed(current)) return { kind: 'failed', server, why: 'refused' };
      const gate = this.gate(server);
      let answer: Once;
      try {
        answer = await gate.run(() => this.#once(current, options.maxBytes ?? this.#maxBytes, signal), {
          ...(options.urgent ? { urgent: true } : {}),
          signal,
        });
      } catch (error) {
        if (signal.aborted) return { kind: 'failed', server, why: 'busy' };
        throw error;
      }
      if (answer.kind === 'status') {
        const { status, headers } = answer;
        if (status === 429) {
          const wait = parseRetryAfter(headers['retry-after']) ?? this.options.minIntervalMs * 2 + 1000;
          gate.pause(wait);
          if (retries >= this.#maxRetries || wait > this.#maxRetryAfterMs) {
            return { kind: 'failed', server, why: 'rate_limited', status };
          }
          retries++;
          continue;
        }
        if (status === 404) return { kind: 'not_found', server };
        if ([301, 302, 303, 307, 308].includes(status)) {
          const location = typeof headers.location === 'string' ? headers.location : undefined;
          if (location === undefined || redirects >= this.#maxRedirects) {
            return { kind: 'failed', server, why: 'status', status };
          }
          let next: URL;
          try {
            next = new URL(location, current);
          } catch {
            return { kind: 'unreadable', server, why: 'redirect to an invalid URL' };
          }
          if (!this.allowed(next)) return { kind: 'failed', server, why: 'refused', status };
          redirects++;
          current = next;
          continue;
        }
        return { kind: 'failed', server, why: 'status', status };
      }
      if (answer.kind !== 'body') return { kind: 'failed', server, why: answer.kind };
      if (answer.tooLarge) return { kind: 'unreadable', server, why: 'answer too large' };
      let json: unknown;
      try {
        json = JSON.parse(answer.text);
      } catch {
        return { kind: 'unreadable', server, why: 'not JSON' };
      }
      const parsed = schema.safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return {
          kind: 'unreadable',
          server,
          why: `not RDAP: ${issue ? `${issue.path.join('.') || 'answer'}: ${issue.code}` : 'schema'}`,
        };
      }
      return { kind: 'ok', server, value: parsed.data };
    }
  }

  /** One request, ended by its own timeout or by `signal` (the caller's bound, or stop()). */
  async #once(url: URL, maxBytes: number, signal: AbortSignal): Promise<Once> {
    const started = performance.now();
    const report = (status: string) =>
      this.options.onRequest?.({
        server: url.origin,
        status,
        seconds: (performance.now() - started) / 1000,
      });
    try {
      const response = await request(url, {
        dispatcher: this.#agent,
        method: 'GET',
        headers: { accept: ACCEPT },
        signal: AbortSignal.any([AbortSignal.timeout(this.#timeoutMs), signal]),
      });
      const status = response.statusCode;
      if (status !== 200) {
        await response.body.dump({ limit: 64 * 1024 }).catch(() => {});
        report(String(status));
        return { kind: 'status', status, headers: response.headers };
      }
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        // Destroyed unread: the error it emits is expected, not news.
        response.body.on('error', () => {});
        response.body.destroy();
        report('too_large');
        return { kind: 'body', text: '', tooLarge: true };
      }
      try {
        const text = await readCapped(response.body, maxBytes);
        report('200');
        return { kind: 'body', text, tooLarge: false };
      } catch (error) {
        if ((error as { code?: string }).code === 'BODY_TOO_LARGE') {
          report('too_large');
          return { kind: 'body', text: '', tooLarge: true };
        }
        throw error;
      }
    } catch (error) {
      const timedOut =
        error instanceof errors.HeadersTimeoutError ||
        error instanceof errors.BodyTimeoutError ||
        (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'));
      report(timedOut ? 'timeout' : 'network');
      return { kind: timedOut ? 'timeout' : 'network' };
    }
  }

  /** Ends every wait and request at once (shutdown): they end as failed, nothing is stored of them. */
  stop(): void {
    this.#stopping.abort(new Error('the RDAP client is stopping'));
  }

  async close(): Promise<void> {
    this.stop();
    await this.#agent.close();
  }
}
