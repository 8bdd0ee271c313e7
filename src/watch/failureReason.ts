import type { HostingApiError } from '../hosting/HostingApiError.js';
import type { MessageKey } from '../i18n/Translator.js';

/** Why a lookup failed, by the client's error kind, in words of the catalogue. */
export const failureReason: Record<HostingApiError['kind'], Extract<MessageKey, `watch.reason.${string}`>> = {
  unauthorized: 'watch.reason.unauthorized',
  not_found: 'watch.reason.not_found',
  rate_limited: 'watch.reason.rate_limited',
  upstream: 'watch.reason.upstream',
  bad_response: 'watch.reason.bad_response',
  timeout: 'watch.reason.timeout',
  network: 'watch.reason.network',
  outcome_unknown: 'watch.reason.outcome_unknown',
  request_too_large: 'watch.reason.request_too_large',
  no_connection: 'watch.reason.no_connection',
};
