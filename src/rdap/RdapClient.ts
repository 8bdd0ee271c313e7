import type { lookup as dnsLookup } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, type Dispatcher, errors, request } from 'undici';
import type { z } from 'zod';
import { parseRetryAfter, readCapped } from '../hosting/httpWire.js';
import { isPublicAddress, NOT_PUBLIC, publicLookup } from './publicAddress.js';
import { MAX_TIMER_MS, ServerGate, ServerPaused } from './ServerGate.js';

/** A request to a registry as the metrics count it. */
export interface RdapRequestEvent {
  /** The bootstrap's server (`https://rdap.example`) the request was sent to, or redirected from. */
  server: string;
  /** The HTTP status, or what happened instead: timeout, network, too_large, refused. */
  status: string;
  seconds: number;
}

/** The longest pause a registry's Retry-After sets by default (RDAP_MAX_RETRY_AFTER_S): an hour. */
export const DEFAULT_MAX_PAUSE_MS = 3_600_000;
/** The longest Retry-After a request waits for itself before it gives up (the server stays paused). */
export const RETRY_WITHIN_MS = 60_000;
/** Redirects followed per request (RFC 7480 §5.2). */
export const MAX_REDIRECTS = 3;
/** One request's bound (each hop of a redirect), waiting for its turn excluded. */
export const REQUEST_TIMEOUT_MS = 10_000;
/** The largest answer read; past it the answer is unreadable. */
export const MAX_ANSWER_BYTES = 256 * 1024;

export interface RdapClientOptions {
  /** The limits of each server (RDAP_MAX_PER_SERVER, RDAP_MIN_INTERVAL_MS). */
  maxPerServer: number;
  minIntervalMs: number;
  /** Whether plain http is allowed: only when the bootstrap URL itself is http (a sandbox, a test). */
  allowHttp: boolean;
  timeoutMs?: number;
  /** The largest answer read; past it the answer is unreadable. */
  maxBytes?: number;
  maxRedirects?: number;
  /** 429s retried per request after their Retry-After. */
  maxRetries?: number;
  /** The longest Retry-After a request waits for itself (RETRY_WITHIN_MS). */
  retryWithinMs?: number;
  /** The longest pause a Retry-After sets (RDAP_MAX_RETRY_AFTER_S); never more than a timer holds. */
  maxPauseMs?: number;
  /** How names outside the bootstrap are resolved (before only public addresses are kept). */
  lookup?: typeof dnsLookup;
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
  /** The server asked us to wait (429 Retry-After) past the caller's deadline: not asked, `until` says when. */
  | 'paused'
  /** The bootstrap file could not be fetched and the copy held does not name the TLD. */
  | 'no_bootstrap';

export type RdapFetch<T> =
  | { kind: 'ok'; server: string; value: T }
  | { kind: 'not_found'; server: string }
  /** The answer came and was not what RDAP promises: too large, not JSON, or not the schema. */
  | { kind: 'unreadable'; server: string; why: string }
  /** `until`: when the server's pause ends (paused, rate_limited). */
  | { kind: 'failed'; server: string; why: RdapFailure; status?: number; until?: Date };

/** What bounds a look-up: the caller's signal (shutdown, a command ending) and its deadline. */
export interface RdapBound {
  signal?: AbortSignal;
  /** Date.now() past which the caller no longer waits: a server paused beyond it is not waited for. */
  deadline?: number;
}

/**
 * A signal that ends at `deadline` (Date.now()): any instant, a fraction or one past what a timer holds
 * included (AbortSignal.timeout itself throws on a non-integer delay and fires at once past 2^31 − 1 ms).
 */
export function deadlineSignal(deadline: number): AbortSignal {
  return AbortSignal.timeout(Math.max(0, Math.min(Math.ceil(deadline - Date.now()), MAX_TIMER_MS)));
}

/** One request's end (a redirect's hops followed), before it is judged. */
type Once =
  | { kind: 'body'; text: string; tooLarge: boolean }
  | { kind: 'status'; status: number; headers: Record<string, string | string[] | undefined> }
  | { kind: 'timeout' | 'network' | 'refused' }
  | { kind: 'bad_redirect' };

const ACCEPT = 'application/rdap+json, application/json;q=0.9';
const REDIRECTS = [301, 302, 303, 307, 308];

/** A Date.now() instant as performance.now(), the gates' clock. */
const toPerf = (epochMs: number) => performance.now() + (epochMs - Date.now());
const toDate = (perfMs: number) => new Date(Date.now() + (perfMs - performance.now()));

/**
 * HTTP to registries, on agents of its own (never the provider's connection pool). TLS is verified against
 * Node's own trust store (NODE_EXTRA_CA_CERTS included). The servers the bootstrap names are reached where
 * they are (a loopback test registry included); anything else — a redirect elsewhere — only at a public
 * unicast address, checked on the address connected to. Gates and metrics are keyed by the bootstrap's
 * server a request was sent to, whatever it is redirected to, so registries cannot grow them.
 */
export class RdapClient {
  /** For the origins the bootstrap names. */
  readonly #agent: Agent;
  /** For any other origin: connects only to public addresses. */
  readonly #publicAgent: Agent;
  readonly #gates = new Map<string, ServerGate>();
  #named = new Set<string>();
  readonly #timeoutMs: number;
  readonly #maxBytes: number;
  readonly #maxRedirects: number;
  readonly #maxRetries: number;
  readonly #retryWithinMs: number;
  readonly #maxPauseMs: number;
  /** Aborted by stop(): every wait for a turn and every request in flight ends at once. */
  readonly #stopping = new AbortController();

  constructor(private readonly options: RdapClientOptions) {
    this.#timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
    this.#maxBytes = options.maxBytes ?? MAX_ANSWER_BYTES;
    this.#maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
    this.#maxRetries = options.maxRetries ?? 2;
    this.#retryWithinMs = options.retryWithinMs ?? RETRY_WITHIN_MS;
    this.#maxPauseMs = Math.min(options.maxPauseMs ?? DEFAULT_MAX_PAUSE_MS, MAX_TIMER_MS);
    const agentOptions = {
      connections: Math.max(1, options.maxPerServer),
      headersTimeout: this.#timeoutMs,
      bodyTimeout: this.#timeoutMs,
      keepAliveTimeout: 10_000,
    };
    this.#agent = new Agent(agentOptions);
    this.#publicAgent = new Agent({
      ...agentOptions,
      connect: { lookup: publicLookup(options.lookup) },
    });
  }

  /** The origins the bootstrap names (and the bootstrap file's own): reached where they resolve. */
  nameOrigins(origins: Iterable<string>): void {
    this.#named = new Set(origins);
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

  /** The servers paused now (a 429's Retry-After), and until when: e.g. for "which registries were waiting". */
  pauses(): { server: string; until: Date }[] {
    const paused: { server: string; until: Date }[] = [];
    for (const [server, gate] of this.#gates) {
      const until = gate.pausedUntil();
      if (until !== undefined) paused.push({ server, until: toDate(until) });
    }
    return paused;
  }

  /** How long from now before `origin` may be asked again (0 for a server not asked yet). */
  pausedForMs(origin: string): number {
    return this.#gates.get(origin)?.pausedForMs ?? 0;
  }

  /**
   * GETs `url` (a bootstrap server's) and validates the JSON answer with `schema`. The bound covers all
   * of it: a server paused past the deadline is `paused` at once (with `until`); ended while waiting for
   * a turn it is `busy` (our own limits); ended during a request `timeout` (the registry was slow).
   * `urgent` goes ahead of the watch's requests.
   */
  async getJson<S extends z.ZodType>(
    url: URL,
    schema: S,
    options: RdapBound & { urgent?: boolean; maxBytes?: number } = {},
  ): Promise<RdapFetch<z.output<S>>> {
    const signals = [this.#stopping.signal, options.signal];
    if (options.deadline !== undefined) signals.push(deadlineSignal(options.deadline));
    const signal = AbortSignal.any(signals.filter((s): s is AbortSignal => s !== undefined));
    const deadline = options.deadline === undefined ? Number.POSITIVE_INFINITY : toPerf(options.deadline);
    const server = url.origin;
    const gate = this.gate(server);
    const paused = (until: number, status?: number) =>
      ({
        kind: 'failed',
        server,
        why: 'paused',
        until: toDate(until),
        ...(status ? { status } : {}),
      }) as const;
    if (options.deadline !== undefined && options.deadline <= Date.now()) {
      const until = gate.pausedUntil();
      return until === undefined ? { kind: 'failed', server, why: 'busy' } : paused(until);
    }
    let retries = 0;
    for (;;) {
      let answer: Once;
      try {
        answer = await gate.run(
          async () => {
            const once = await this.#follow(url, server, options.maxBytes ?? this.#maxBytes, signal);
            // Paused before the turn is given up: the next waiter must not go out past a 429.
            if (once.kind === 'status' && once.status === 429) gate.pause(this.#pauseOf(once.headers));
            return once;
          },
          { ...(options.urgent ? { urgent: true } : {}), signal, deadline },
        );
      } catch (error) {
        if (error instanceof ServerPaused) return paused(error.until);
        if (!signal.aborted) throw error;
        const until = gate.pausedUntil();
        return until === undefined ? { kind: 'failed', server, why: 'busy' } : paused(until);
      }
      if (answer.kind === 'status') {
        const { status, headers } = answer;
        if (status === 429) {
          const wait = this.#pauseOf(headers);
          const until = gate.pausedUntil() ?? performance.now();
          if (until > deadline || wait > this.#retryWithinMs) return paused(until, status);
          if (retries >= this.#maxRetries)
            return { kind: 'failed', server, why: 'rate_limited', status, until: toDate(until) };
          retries++;
          continue;
        }
        if (status === 404) return { kind: 'not_found', server };
        return { kind: 'failed', server, why: 'status', status };
      }
      if (answer.kind === 'bad_redirect')
        return { kind: 'unreadable', server, why: 'redirect to an invalid URL' };
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

  /** A 429's pause: its Retry-After (or two intervals and a second without one), at most maxPauseMs. */
  #pauseOf(headers: Record<string, string | string[] | undefined>): number {
    const asked = parseRetryAfter(headers['retry-after']) ?? this.options.minIntervalMs * 2 + 1000;
    return Math.min(asked, this.#maxPauseMs);
  }

  /**
   * One request in its turn at `server`, its redirects followed (RFC 7480 §5.2): at most maxRedirects,
   * never to a URL already asked (a loop ends at its first repeat), only to allowed schemes, and — off the
   * bootstrap's origins — only to public addresses.
   */
  async #follow(url: URL, server: string, maxBytes: number, signal: AbortSignal): Promise<Once> {
    const asked = new Set<string>();
    let current = url;
    for (;;) {
      asked.add(current.href);
      const answer = await this.#once(current, server, maxBytes, signal);
      if (answer.kind !== 'status' || !REDIRECTS.includes(answer.status)) return answer;
      const location = answer.headers.location;
      if (typeof location !== 'string' || asked.size > this.#maxRedirects) return answer;
      let next: URL;
      try {
        next = new URL(location, current);
      } catch {
        return { kind: 'bad_redirect' };
      }
      if (asked.has(next.href)) return answer;
      current = next;
    }
  }

  /** One HTTP exchange, ended by its own timeout or by `signal` (the caller's bound, or stop()). */
  async #once(url: URL, server: string, maxBytes: number, signal: AbortSignal): Promise<Once> {
    const started = performance.now();
    const report = (status: string) =>
      this.options.onRequest?.({ server, status, seconds: (performance.now() - started) / 1000 });
    const dispatcher = this.#dispatcher(url);
    if (!dispatcher) {
      report('refused');
      return { kind: 'refused' };
    }
    try {
      const response = await request(url, {
        dispatcher,
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
      if (codeOf(error) === NOT_PUBLIC) {
        report('refused');
        return { kind: 'refused' };
      }
      const timedOut =
        error instanceof errors.HeadersTimeoutError ||
        error instanceof errors.BodyTimeoutError ||
        (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'));
      report(timedOut ? 'timeout' : 'network');
      return { kind: timedOut ? 'timeout' : 'network' };
    }
  }

  /**
   * Where a URL may be connected to: the bootstrap's origins as they resolve; anything else only over the
   * agent that keeps public addresses, and an address literal only when it is public itself (no name to
   * resolve, so the agent's lookup never sees it). Undefined: refused, nothing is opened.
   */
  #dispatcher(url: URL): Dispatcher | undefined {
    if (!this.allowed(url)) return undefined;
    if (this.#named.has(url.origin)) return this.#agent;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && !isPublicAddress(host)) return undefined;
    return this.#publicAgent;
  }

  /** Ends every wait and request at once (shutdown): they end as failed, nothing is stored of them. */
  stop(): void {
    this.#stopping.abort(new Error('the RDAP client is stopping'));
  }

  async close(): Promise<void> {
    this.stop();
    await Promise.all([this.#agent.close(), this.#publicAgent.close()]);
  }
}

/** The error code of a failed connection, wherever undici put it. */
function codeOf(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === NOT_PUBLIC) return code;
  }
  return undefined;
}
