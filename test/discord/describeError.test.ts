import { describe, expect, it } from 'vitest';
import { describeError } from '../../src/discord/describeError.js';
import { InvalidOptionError, RefusalError } from '../../src/discord/UserError.js';
import { HostingApiError, type HostingErrorKind } from '../../src/hosting/HostingApiError.js';

const apiError = (
  kind: HostingErrorKind,
  extra: { status?: number; retryAfterMs?: number; operation?: string } = {},
) =>
  new HostingApiError('provider said no', {
    kind,
    operation: extra.operation ?? 'domainInfo',
    request: { method: 'GET', pathTemplate: '/domain/info/{domain}' },
    correlationId: 'abc123def0',
    attempts: 1,
    status: extra.status,
    retryAfterMs: extra.retryAfterMs,
  });

describe('describeError', () => {
  it.each([
    [apiError('unauthorized', { status: 401 }), /rejected HostOps' token.*Tell an admin/],
    [apiError('not_found', { status: 404 }), /does not know this domain/],
    [apiError('rate_limited', { status: 429, retryAfterMs: 4_200 }), /retry in 5 s/],
    [apiError('upstream', { status: 503 }), /provider returned an error \(503\)/],
    [apiError('bad_response', { status: 200 }), /cannot read/],
    [apiError('network'), /Cannot reach the provider/],
    [
      apiError('outcome_unknown', { operation: 'createDomain' }),
      /Outcome unknown.*check with \/domain info before trying again/i,
    ],
    [
      apiError('outcome_unknown', { operation: 'bindPanelLicense' }),
      /Outcome unknown.*check with the provider before trying again/i,
    ],
  ])('%s', (error, expected) => {
    const description = describeError(error, 'abc123def0');
    expect(description.message).toMatch(expected);
    expect(description.outcome).toBe('failed');
    expect(description.unexpected).toBe(false);
  });

  it('maps refusals and invalid options to their outcomes', () => {
    expect(describeError(new RefusalError('no', 'tier'), 'x').outcome).toBe('refused');
    const invalid = describeError(
      new InvalidOptionError('ip', '"1.2.3" is not an IPv4 address', 'an IPv4 address'),
      'x',
    );
    expect(invalid.outcome).toBe('invalid');
    expect(invalid.message).toBe('`ip`: "1.2.3" is not an IPv4 address. Expected an IPv4 address.');
  });

  it('gives unexpected errors a reference and no internals', () => {
    const description = describeError(
      new TypeError('cannot read properties of undefined (secret-ish)'),
      'ffee001122',
    );
    expect(description.unexpected).toBe(true);
    expect(description.message).toContain('`ffee001122`');
    expect(description.message).not.toContain('secret-ish');
  });
});
