import { HostingApiError } from '../hosting/HostingApiError.js';
import { InvalidOptionError, RefusalError, UserError } from './UserError.js';

export type CommandOutcome = 'ok' | 'refused' | 'invalid' | 'failed' | 'cancelled' | 'expired';

export interface ErrorDescription {
  /** The full sentence for the person who ran the command. */
  message: string;
  /** A few words, for one line of a bulk answer. */
  short: string;
  outcome: CommandOutcome;
  /** Unexpected errors are logged at error level, with their stack. */
  unexpected: boolean;
}

const DOMAIN_OPERATIONS = new Set(['createDomain', 'submitDnsRecords']);

const NOT_FOUND: Record<string, string> = {
  serverLog: 'The provider has no log entry for that server id.',
  domainInfo: 'The provider does not know this domain (or it is not in this account).',
};

/** The one place that turns any error into words for Discord. Never includes a secret or a URL. */
export function describeError(error: unknown, correlationId: string): ErrorDescription {
  const ref = `Reference: \`${correlationId}\`.`;
  if (error instanceof InvalidOptionError) {
    return { message: error.message, short: 'invalid', outcome: 'invalid', unexpected: false };
  }
  if (error instanceof RefusalError) {
    return { message: error.message, short: 'refused', outcome: 'refused', unexpected: false };
  }
  if (error instanceof UserError) {
    return { message: error.message, short: error.message, outcome: 'failed', unexpected: false };
  }
  if (error instanceof HostingApiError) {
    const failed = (message: string, short: string) => ({
      message,
      short,
      outcome: 'failed' as const,
      unexpected: false,
    });
    switch (error.kind) {
      case 'unauthorized':
        return failed(
          `The hosting API rejected HostOps' token (${error.status}). Tell an admin. ${ref}`,
          'token rejected',
        );
      case 'not_found':
        return failed(NOT_FOUND[error.operation] ?? `The provider answered "not found". ${ref}`, 'not found');
      case 'rate_limited': {
        const seconds = Math.max(1, Math.ceil((error.retryAfterMs ?? 30_000) / 1000));
        return failed(
          `The provider is rate limiting us: retry in ${seconds} s.`,
          `rate limited, retry in ${seconds} s`,
        );
      }
      case 'upstream':
        return failed(
          `The provider returned an error (${error.status}). Try again later. ${ref}`,
          `provider error ${error.status}`,
        );
      case 'bad_response':
        return failed(`The provider sent an answer HostOps cannot read. ${ref}`, 'unreadable answer');
      case 'timeout':
        return failed(`${capitalise(error.message)}. Try again later. ${ref}`, 'no answer in time');
      case 'network':
        return failed(`Cannot reach the provider right now. Try again later. ${ref}`, 'provider unreachable');
      case 'request_too_large':
        return failed(
          `The request is too large for the provider (${error.status === undefined ? 'not sent' : `HTTP ${error.status}`}); nothing was changed. Send less at once. ${ref}`,
          'request too large',
        );
      case 'outcome_unknown': {
        const check = DOMAIN_OPERATIONS.has(error.operation) ? 'with /domain info' : 'with the provider';
        return failed(
          `**Outcome unknown** — ${error.message}. Check ${check} before trying again. ${ref}`,
          'outcome unknown',
        );
      }
    }
  }
  return {
    message: `Something went wrong on our side; nothing more was sent. ${ref}`,
    short: 'internal error',
    outcome: 'failed',
    unexpected: true,
  };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
