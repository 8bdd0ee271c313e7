import type { CommandOutcome } from '../audit/outcomes.js';
import { HostingApiError } from '../hosting/HostingApiError.js';
import type { OperationName } from '../hosting/operations.js';
import { figure, type Translator } from '../i18n/Translator.js';
import { escapeUserText } from '../replies/escapeUserText.js';
import { InvalidOptionError, RefusalError, UserError } from '../replies/UserError.js';

export interface ErrorDescription {
  /** The full sentence for the person who ran the command. */
  message: string;
  /** A few words, for one line of a bulk answer. */
  short: string;
  outcome: CommandOutcome;
  /** Unexpected errors are logged at error level, with their stack. */
  unexpected: boolean;
}

const DOMAIN_OPERATIONS: ReadonlySet<OperationName> = new Set(['createDomain', 'submitDnsRecords']);

/**
 * The one place that turns any error into words for Discord, in the reader's language. Never
 * includes a secret or a URL.
 */
export function describeError(error: unknown, correlationId: string, t: Translator): ErrorDescription {
  const reference = t('errors.reference', { id: correlationId });
  if (error instanceof InvalidOptionError) {
    // The problem quotes what the user typed: it must not ping anyone or break the markdown.
    const text = t('errors.invalid_option', {
      option: error.option,
      problem: escapeUserText(t.render(error.problem), 400),
      expected: error.expected,
    });
    return { message: text, short: t('errors.short.invalid'), outcome: 'invalid', unexpected: false };
  }
  if (error instanceof RefusalError) {
    return {
      message: t.render(error.text),
      short: t('errors.short.refused'),
      outcome: 'refused',
      unexpected: false,
    };
  }
  if (error instanceof UserError) {
    const text = t.render(error.text);
    return { message: text, short: text, outcome: 'failed', unexpected: false };
  }
  if (error instanceof HostingApiError) {
    const failed = (message: string, short: string) => ({
      message,
      short,
      outcome: 'failed' as const,
      unexpected: false,
    });
    const status = String(error.status ?? '');
    // 1.5 s stays 1.5 s: a rounded figure would misstate short timeouts.
    switch (error.kind) {
      case 'unauthorized':
        return failed(t('errors.unauthorized', { status, reference }), t('errors.short.unauthorized'));
      case 'not_found': {
        const known = NOT_FOUND[error.operation];
        return failed(known ? t(known) : t('errors.not_found', { reference }), t('errors.short.not_found'));
      }
      case 'rate_limited': {
        const wait = Math.max(1, Math.ceil((error.retryAfterMs ?? 30_000) / 1000));
        return failed(
          t('errors.rate_limited', { seconds: figure(wait) }),
          t('errors.short.rate_limited', { seconds: figure(wait) }),
        );
      }
      case 'upstream':
        return failed(t('errors.upstream', { status, reference }), t('errors.short.upstream', { status }));
      case 'bad_response':
        return failed(t('errors.bad_response', { reference }), t('errors.short.bad_response'));
      case 'timeout':
        return failed(
          t('errors.timeout', { seconds: figure(seconds(error.timeoutMs ?? 0)), reference }),
          t('errors.short.timeout'),
        );
      case 'network':
        return failed(t('errors.network', { reference }), t('errors.short.network'));
      case 'request_too_large':
        return failed(
          t('errors.request_too_large', {
            status:
              error.status === undefined ? t('errors.request_too_large.not_sent') : `HTTP ${error.status}`,
            reference,
          }),
          t('errors.short.request_too_large'),
        );
      case 'no_connection':
        // Shut down while it waited: said as the restart it is.
        return error.timeoutMs === undefined
          ? failed(t('errors.restarting'), t('errors.short.no_connection'))
          : failed(
              t('errors.no_connection', { seconds: figure(seconds(error.timeoutMs)), reference }),
              t('errors.short.no_connection'),
            );
      case 'outcome_unknown': {
        const reason = outcomeUnknownReason(error, t);
        const check = DOMAIN_OPERATIONS.has(error.operation)
          ? t('errors.outcome_unknown.check_domain')
          : t('errors.outcome_unknown.check_provider');
        return failed(
          t('errors.outcome_unknown', { reason, check, reference }),
          t('errors.short.outcome_unknown'),
        );
      }
    }
  }
  return {
    message: t('errors.internal', { reference }),
    short: t('errors.short.internal'),
    outcome: 'failed',
    unexpected: true,
  };
}

const NOT_FOUND: Partial<
  Record<OperationName, 'errors.not_found.serverLog' | 'errors.not_found.domainInfo'>
> = {
  serverLog: 'errors.not_found.serverLog',
  domainInfo: 'errors.not_found.domainInfo',
};

/** 1.5 s stays 1.5 s: a rounded figure would misstate short timeouts. */
export function seconds(ms: number): number {
  return Number((ms / 1000).toFixed(ms < 10_000 ? 1 : 0));
}

/** Why a change's outcome is unknown: what the provider answered, or that it did not. */
export function outcomeUnknownReason(error: HostingApiError, t: Translator): string {
  if (error.status !== undefined) {
    const status = String(error.status);
    return error.status >= 200 && error.status < 300
      ? t('errors.outcome_unknown.unreadable', { status })
      : t('errors.outcome_unknown.gateway', { status });
  }
  return error.timeoutMs !== undefined
    ? t('errors.outcome_unknown.timeout', { seconds: figure(seconds(error.timeoutMs)) })
    : t('errors.outcome_unknown.connection');
}
