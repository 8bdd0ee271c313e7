import type { z } from 'zod';
import { cutText } from '../text/cutText.js';
import { HostingApiError, type HostingErrorKind } from './HostingApiError.js';
import type { OperationName } from './operations.js';

// What an attempt's answer, or its failure, means for the caller: a value, an error, a retry.

export type Method = 'GET' | 'PUT' | 'POST';

export interface Operation<T> {
  name: OperationName;
  method: Method;
  pathTemplate: string;
  path: string;
  query?: Record<string, string>;
  parse: (body: unknown) => z.ZodSafeParseResult<T>;
  /** Changing operations answer `{}` in the spec; an empty 2xx body is accepted there, not for reads. */
  emptyBodyOk?: boolean;
}

export type Verdict<T> =
  | { ok: true; value: T }
  | {
      ok: false;
      error: HostingApiError;
      retryable: boolean;
      /**
       * The request may have reached the provider: a transport failure after it may have left (not a
       * refused or unresolvable connection, nor one that never connected), or a gateway's 502/504.
       */
      mayHaveArrived?: boolean;
    };
/** One try: its verdict, and what it looked like on the wire (HTTP status, or the error kind). */
export type Attempt<T> = Verdict<T> & { outcome: number | HostingErrorKind };

const MAY_OR_MAY_NOT = 'the change may or may not have been applied';
/** Why a change's outcome is unknown, as its error says it. */
const unknownBecause = {
  connection: `connection lost before the provider answered; ${MAY_OR_MAY_NOT}`,
  timeout: (seconds: number) => `no answer within ${seconds} s; ${MAY_OR_MAY_NOT}`,
  gateway: (status: number) => `provider gateway answered ${status}; ${MAY_OR_MAY_NOT}`,
};

/**
 * The end of a PUT none of whose attempts succeeded, when one of them (`reached`, the first) may have
 * reached the provider: its outcome is unknown, whatever the retries then got — a 503, a 429, another
 * broken connection, even one that could not connect. Only a refusal of the request itself (a 4xx but
 * 429) says the identical earlier attempt was not applied either.
 */
export function mayHaveApplied(reached: HostingApiError, last: HostingApiError): HostingApiError {
  if (last.kind === 'outcome_unknown' || refusesTheRequest(last)) return last;
  const message =
    reached.status !== undefined
      ? unknownBecause.gateway(reached.status)
      : reached.timeoutMs !== undefined
        ? unknownBecause.timeout(secondsOf(reached.timeoutMs))
        : unknownBecause.connection;
  return new HostingApiError(message, {
    kind: 'outcome_unknown',
    operation: last.operation,
    request: last.request,
    correlationId: last.correlationId,
    status: reached.status,
    timeoutMs: reached.timeoutMs,
    attempts: last.attempts,
    cause: reached.cause,
  });
}

function refusesTheRequest({ kind, status }: HostingApiError): boolean {
  if (kind === 'request_too_large') return true;
  return status !== undefined && status >= 400 && status < 500 && status !== 429;
}

/** 1.5 s stays 1.5 s: a rounded figure would misstate short timeouts. */
function secondsOf(timeoutMs: number): number {
  return Number((timeoutMs / 1000).toFixed(timeoutMs < 10_000 ? 1 : 0));
}

/** Builds the attempt's HostingApiError (operation, request and correlation id filled in). */
export type Fail = (
  kind: HostingErrorKind,
  message: string,
  extra?: Partial<HostingApiError> & { cause?: unknown },
) => HostingApiError;

const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);
// A change answered by a gateway with these may still have been carried out behind it.
const GATEWAY_STATUS = new Set([502, 504]);
// Errors raised before a single byte of the request left: the provider never saw it.
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);
// 414 URI Too Long, 431 Request Header Fields Too Large: refused before anything was done.
const TOO_LARGE_STATUS = new Set([414, 431]);

/**
 * What an answer means, once it has arrived: the value, or the error and whether another attempt may
 * help. A change answered 2xx whose body cannot be read is `outcome_unknown`, never "failed".
 */
export function judgeAnswer<T>(
  op: Pick<Operation<T>, 'method' | 'parse' | 'emptyBodyOk'>,
  { status, text, retryAfterMs }: { status: number; text: string; retryAfterMs: number | undefined },
  fail: Fail,
  snippet: () => string,
): Verdict<T> {
  if (status < 200 || status >= 300) {
    const base = { status, retryAfterMs, snippet: snippet() };
    if (status === 401 || status === 403) {
      return {
        ok: false,
        retryable: false,
        error: fail('unauthorized', `provider rejected the API token (${status})`, base),
      };
    }
    if (status === 404)
      return {
        ok: false,
        retryable: false,
        error: fail('not_found', 'provider answered 404 not found', base),
      };
    if (TOO_LARGE_STATUS.has(status)) {
      return {
        ok: false,
        retryable: false,
        error: fail('request_too_large', `provider refused the request as too large (${status})`, base),
      };
    }
    if (status === 429) {
      return {
        ok: false,
        retryable: true,
        error: fail('rate_limited', 'provider rate limit reached (429)', base),
      };
    }
    if (op.method === 'POST' && GATEWAY_STATUS.has(status)) {
      return {
        ok: false,
        retryable: false,
        error: fail('outcome_unknown', unknownBecause.gateway(status), base),
      };
    }
    return {
      ok: false,
      retryable: RETRYABLE_STATUS.has(status),
      error: fail('upstream', `provider error (${status})`, base),
      // A PUT, idempotent, is sent again; if none of its attempts succeeds, this one may have been applied.
      ...(op.method === 'PUT' && GATEWAY_STATUS.has(status) && { mayHaveArrived: true }),
    };
  }

  // A change the provider answered 2xx may have been carried out whatever its body says: an answer
  // that cannot be read leaves its outcome unknown (read back, never "try again").
  const unreadable = (message: string, snippetText: string): Verdict<T> => ({
    ok: false,
    retryable: false,
    error:
      op.method === 'GET'
        ? fail('bad_response', message, { status, snippet: snippetText })
        : fail('outcome_unknown', `${message}; ${MAY_OR_MAY_NOT}`, {
            status,
            snippet: snippetText,
          }),
  });
  let body: unknown;
  if (text.trim() === '') {
    if (!op.emptyBodyOk) return unreadable(`empty ${status} body`, '');
    body = {};
  } else {
    try {
      body = JSON.parse(text);
    } catch {
      return unreadable(`provider answered ${status} with something that is not JSON`, snippet());
    }
  }
  const parsed = op.parse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`)
      .join('; ');
    return unreadable(cutText(`unexpected response shape: ${issues}`, 300), snippet());
  }
  return { ok: true, value: parsed.data };
}

/** What a request that got no usable answer means: never sent, timed out, or a change of unknown outcome. */
export function classifyTransportError(
  cause: unknown,
  method: Method,
  timeoutMs: number,
): { kind: HostingErrorKind; message: string; timeoutMs?: number; notSent?: true } {
  const code = (cause as { code?: unknown })?.code;
  const name = (cause as { name?: unknown })?.name;
  if (code === 'BODY_TOO_LARGE') {
    return method === 'GET'
      ? { kind: 'bad_response', message: 'provider answer too large' }
      : {
          kind: 'outcome_unknown',
          message: `provider answer too large to read; ${MAY_OR_MAY_NOT}`,
        };
  }
  if (typeof code === 'string' && NOT_SENT_CODES.has(code)) {
    return { kind: 'network', message: `cannot reach the provider (${code})`, notSent: true };
  }
  const timedOut =
    name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
  const seconds = secondsOf(timeoutMs);
  if (method === 'POST') {
    return timedOut
      ? { kind: 'outcome_unknown', message: unknownBecause.timeout(seconds), timeoutMs }
      : { kind: 'outcome_unknown', message: unknownBecause.connection };
  }
  if (timedOut)
    return { kind: 'timeout', message: `no answer from the provider within ${seconds} s`, timeoutMs };
  return {
    kind: 'network',
    message: `connection to the provider failed${typeof code === 'string' ? ` (${code})` : ''}`,
  };
}
