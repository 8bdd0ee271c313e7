import { describe, expect, it } from 'vitest';
import { describeError } from '../../src/discord/describeError.js';
import { HostingApiError, type HostingErrorKind } from '../../src/hosting/HostingApiError.js';
import type { OperationName } from '../../src/hosting/operations.js';
import { message, translator } from '../../src/i18n/Translator.js';
import { InvalidOptionError, RefusalError, UserError } from '../../src/replies/UserError.js';

const en = translator('en');
const de = translator('de');

const apiError = (
  kind: HostingErrorKind,
  extra: { status?: number; retryAfterMs?: number; timeoutMs?: number; operation?: OperationName } = {},
) =>
  new HostingApiError('provider said no', {
    kind,
    operation: extra.operation ?? 'domainInfo',
    request: { method: 'GET', pathTemplate: '/domain/info/{domain}' },
    correlationId: 'abc123def0',
    attempts: 1,
    status: extra.status,
    retryAfterMs: extra.retryAfterMs,
    timeoutMs: extra.timeoutMs,
  });

const sameNs = () =>
  new InvalidOptionError(
    'ns2',
    message('domain.register.same_ns', { ns1: 'ns1.example.net' }),
    message('domain.register.second_ns'),
  );

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
    const description = describeError(error, 'abc123def0', en);
    expect(description.message).toMatch(expected);
    expect(description.outcome).toBe('failed');
    expect(description.unexpected).toBe(false);
  });

  it('maps refusals and invalid options to their outcomes', () => {
    expect(describeError(new RefusalError(message('errors.restarting'), 'tier'), 'x', en).outcome).toBe(
      'refused',
    );
    const invalid = describeError(sameNs(), 'x', en);
    expect(invalid.outcome).toBe('invalid');
    expect(invalid.message).toBe(
      '`ns2`: is the same as ns1 (ns1.example.net). Expected a second, different name server.',
    );
    expect(invalid.short).toBe('invalid');
  });

  it('puts a user error in its own words, as message and as short reason', () => {
    const description = describeError(new UserError(message('errors.form_closed')), 'x', en);
    expect(description).toEqual({
      message:
        'This form is no longer open (it expired, was sent already, or is not yours). Nothing was sent. Run the command again.',
      short:
        'This form is no longer open (it expired, was sent already, or is not yours). Nothing was sent. Run the command again.',
      outcome: 'failed',
      unexpected: false,
    });
  });

  it('escapes the problem, which may quote what the user typed', () => {
    const error = new InvalidOptionError(
      'ns2',
      message('domain.register.same_ns', { ns1: '**x** @everyone' }),
      message('domain.register.second_ns'),
    );
    const text = describeError(error, 'x', en).message;
    expect(text).toContain('\\*\\*x\\*\\* @\u200beveryone');
  });

  it('gives unexpected errors a reference and no internals', () => {
    const description = describeError(
      new TypeError('cannot read properties of undefined (secret-ish)'),
      'ffee001122',
      en,
    );
    expect(description.unexpected).toBe(true);
    expect(description.message).toContain('`ffee001122`');
    expect(description.message).not.toContain('secret-ish');
  });

  describe('in German', () => {
    it.each([
      [apiError('unauthorized', { status: 401 }), /Token von HostOps abgelehnt \(401\)/, 'Token abgelehnt'],
      [apiError('not_found', { status: 404 }), /kennt diese Domain nicht/, 'nicht gefunden'],
      [
        apiError('rate_limited', { status: 429, retryAfterMs: 4_200 }),
        /versuch es in 5 s noch einmal/,
        'gedrosselt, erneut in 5 s',
      ],
      [apiError('upstream', { status: 503 }), /Fehler gemeldet \(503\)/, 'Providerfehler 503'],
      [apiError('network'), /nicht erreichbar/, 'Provider nicht erreichbar'],
      [apiError('timeout', { timeoutMs: 1_500 }), /innerhalb von 1,5 s/, 'keine Antwort rechtzeitig'],
      [
        apiError('outcome_unknown', { operation: 'createDomain', status: 502 }),
        /\*\*Ergebnis unbekannt\*\* — das Gateway des Providers hat 502 geantwortet.*mit \/domain info/,
        'Ergebnis unbekannt',
      ],
    ])('%s', (error, expected, short) => {
      const description = describeError(error, 'abc123def0', de);
      expect(description.message).toMatch(expected);
      expect(description.short).toBe(short);
      expect(description.outcome).toBe('failed');
    });

    it('words invalid options, refusals and references in German', () => {
      expect(describeError(sameNs(), 'x', de)).toMatchObject({
        message: '`ns2`: ist derselbe wie ns1 (ns1.example.net). Erwartet: ein zweiter, anderer Nameserver.',
        short: 'ungültig',
        outcome: 'invalid',
      });
      expect(describeError(new RefusalError(message('errors.restarting'), 'tier'), 'x', de)).toMatchObject({
        message: 'HostOps startet gerade neu; versuch es in einer Minute noch einmal.',
        short: 'abgelehnt',
        outcome: 'refused',
      });
      const internal = describeError(new TypeError('boom'), 'ffee001122', de);
      expect(internal.message).toContain('Referenz: `ffee001122`.');
      expect(internal.short).toBe('interner Fehler');
    });

    it('keeps the English text as the Error message, for logs', () => {
      expect(sameNs().message).toBe(
        '`ns2`: is the same as ns1 (ns1.example.net). Expected a second, different name server.',
      );
    });
  });
});
