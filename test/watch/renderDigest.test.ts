import { describe, expect, it } from 'vitest';
import { type Message, message, translator } from '../../src/i18n/Translator.js';
import { Colour } from '../../src/replies/colours.js';
import type { Alert } from '../../src/watch/alertRules.js';
import { alertLine, type DigestMessage, renderDigest } from '../../src/watch/renderDigest.js';

// Discord's own limits.
const DESCRIPTION_MAX = 4096;
const EMBED_TOTAL_MAX = 6000;
const EMBEDS_MAX = 10;
const CONTENT_MAX = 2000;

const en = translator('en');
const de = translator('de');
const enLine = (alert: Alert) => alertLine(alert, en);

const ROLE_A = '300000000000000011';
const ROLE_B = '300000000000000012';

const expiry = (domain: string, daysLeft: number, threshold = 30, unicode = domain): Alert => ({
  kind: 'expiry',
  domain,
  unicode,
  expiryDate: '2030-03-04',
  daysLeft,
  threshold,
});
const flag = (domain: string, name: 'active' | 'expired' | 'transferredAway', to: boolean): Alert => {
  const bad = name === 'active' ? !to : to;
  return { kind: 'flag', domain, unicode: domain, flag: name, from: !to, to, bad };
};
const renewed = (domain: string): Alert => ({
  kind: 'renewed',
  domain,
  unicode: domain,
  from: '2030-03-04',
  to: '2031-03-04',
});
const notFound = (domain: string): Alert => ({ kind: 'not_found', domain, unicode: domain });
const failing = (domain: string, reason: string | Message = 'timeout'): Alert => ({
  kind: 'failing',
  domain,
  unicode: domain,
  failures: 3,
  reason,
});
const knownAgain = (domain: string): Alert => ({ kind: 'known_again', domain, unicode: domain });

const descriptionLines = (messages: DigestMessage[]) =>
  messages.flatMap((m) => m.embeds.flatMap((e) => (e.description ?? '').split('\n')));

/** What Discord counts towards the 6,000 characters of a message's embeds. */
const embedChars = (message: DigestMessage) =>
  message.embeds.reduce(
    (sum, e) =>
      sum +
      (e.title?.length ?? 0) +
      (e.description?.length ?? 0) +
      (e.footer?.text.length ?? 0) +
      (e.author?.name.length ?? 0) +
      (e.fields ?? []).reduce((s, f) => s + f.name.length + f.value.length, 0),
    0,
  );

describe('alert lines', () => {
  it.each<[string, Alert, string]>([
    [
      'expiry, days ahead',
      expiry('example.com', 3, 3),
      '⏰ **example.com** expires in 3 days (2030-03-04; ≤ 3 days)',
    ],
    [
      'expiry, one day',
      expiry('example.com', 1, 1),
      '⏰ **example.com** expires in 1 day (2030-03-04; ≤ 1 day)',
    ],
    ['expiry, today', expiry('example.com', 0, 1), '⏰ **example.com** expires today (2030-03-04; ≤ 1 day)'],
    [
      'expiry, past',
      expiry('example.com', -4, 1),
      '⏰ **example.com** expired 4 days ago (2030-03-04; ≤ 1 day)',
    ],
    [
      'expiry, one day past',
      expiry('example.com', -1, 1),
      '⏰ **example.com** expired 1 day ago (2030-03-04; ≤ 1 day)',
    ],
    ['renewed', renewed('example.com'), '🔄 **example.com** renewed: 2030-03-04 → 2031-03-04'],
    [
      'active → false',
      flag('example.com', 'active', false),
      '🚩 **example.com** is now inactive (was active)',
    ],
    ['active → true', flag('example.com', 'active', true), 'ℹ️ **example.com** is now active (was inactive)'],
    [
      'expired → true',
      flag('example.com', 'expired', true),
      '🚩 **example.com** is now expired (was not expired)',
    ],
    [
      'expired → false',
      flag('example.com', 'expired', false),
      'ℹ️ **example.com** is now not expired (was expired)',
    ],
    [
      'transferredAway → true',
      flag('example.com', 'transferredAway', true),
      '🚩 **example.com** is now transferred away (was with us)',
    ],
    [
      'transferredAway → false',
      flag('example.com', 'transferredAway', false),
      'ℹ️ **example.com** is now with us (was transferred away)',
    ],
    ['not found', notFound('example.com'), '❓ **example.com** is no longer known to the provider (404)'],
    ['known again', knownAgain('example.com'), 'ℹ️ **example.com** is known to the provider again'],
    [
      'failing',
      failing('example.com', 'rate limited'),
      '⚠️ **example.com** could not be checked 3 runs in a row (rate limited)',
    ],
    [
      'a Unicode name shows both forms',
      expiry('xn--bcher-kva.de', 10, 14, 'bücher.de'),
      '⏰ **bücher.de (xn--bcher-kva.de)** expires in 10 days (2030-03-04; ≤ 14 days)',
    ],
  ])('%s', (_, alert, expected) => {
    expect(alertLine(alert, en)).toBe(expected);
  });

  it('escapes odd domain names: markdown, mentions, control and bidi characters', () => {
    const flagged = alertLine(
      {
        kind: 'flag',
        domain: '_dmarc*x.example.com',
        unicode: '@everyone\u202e||x||`a`<@&123>\u0007.example',
        flag: 'active',
        from: true,
        to: false,
        bad: true,
      },
      en,
    );
    expect(flagged).toBe(
      '🚩 **@\u200beveryone\\|\\|x\\|\\|\\`a\\`<\u200b@&123>.example (\\_dmarc\\*x.example.com)** is now inactive (was active)',
    );
    // The bold markers around the name are the only bare asterisks.
    expect(flagged.replace(/\\\*/g, '').match(/\*/g)).toHaveLength(4);
  });

  it('escapes the failure reason and keeps long names short', () => {
    const failed = alertLine(failing(`${'a'.repeat(300)}.example`, '**boom** @here'), en);
    expect(failed).toContain('(\\*\\*boom\\*\\* @\u200bhere)');
    expect(failed.length).toBeLessThan(320);
    expect(failed).toContain('…');
  });
});

describe('the digest', () => {
  it('nothing new → no message at all', () => {
    expect(renderDigest([], [ROLE_A], en)).toEqual([]);
  });

  it('one message, most urgent first: expiry by days left, bad news, then information', () => {
    const alerts = [
      knownAgain('k.example'),
      renewed('r.example'),
      failing('f.example'),
      notFound('n.example'),
      flag('fl.example', 'transferredAway', true),
      expiry('b.example', 7, 7),
      expiry('a.example', 7, 7),
      expiry('c.example', 2, 3),
      expiry('d.example', 29, 30),
    ];
    const messages = renderDigest(alerts, [ROLE_A], en);
    expect(messages).toHaveLength(1);
    const [message] = messages;
    expect(message?.embeds).toHaveLength(1);
    expect(message?.embeds[0]?.title).toBe('Domain watch: 9 alerts');
    expect(message?.embeds[0]?.color).toBe(Colour.danger);
    expect(descriptionLines(messages).map((line) => /\*\*(.+?)\*\*/.exec(line)?.[1])).toEqual([
      'c.example',
      'a.example',
      'b.example',
      'd.example',
      'fl.example',
      'n.example',
      'f.example',
      'r.example',
      'k.example',
    ]);
  });

  // A flag back to good is information, not bad news: it goes with the information lines.
  it('an information flag (back to good) comes after the 404 and failing lines', () => {
    const lines = descriptionLines(
      renderDigest(
        [flag('good.example', 'active', true), notFound('n.example'), failing('f.example')],
        [],
        en,
      ),
    );
    expect(lines.map((line) => /\*\*(.+?)\*\*/.exec(line)?.[1])).toEqual([
      'n.example',
      'f.example',
      'good.example',
    ]);
  });

  it('information only → the info colour; a single alert → "1 alert"', () => {
    const [message] = renderDigest([renewed('r.example')], [], en);
    expect(message?.embeds[0]).toMatchObject({ title: 'Domain watch: 1 alert', color: Colour.info });
    const [bad] = renderDigest([flag('x.example', 'expired', true)], [], en);
    expect(bad?.embeds[0]?.color).toBe(Colour.danger);
  });

  it('pings exactly the configured roles, nobody else', () => {
    const [message] = renderDigest([notFound('n.example')], [ROLE_A, ROLE_B], en);
    expect(message?.content).toBe(`<@&${ROLE_A}> <@&${ROLE_B}>`);
    expect(message?.allowed_mentions).toEqual({ parse: [], roles: [ROLE_A, ROLE_B] });
  });

  it('no roles configured → no content and no mentions allowed', () => {
    const [message] = renderDigest([notFound('n.example')], [], en);
    expect(message?.content).toBeUndefined();
    expect(message?.allowed_mentions).toEqual({ parse: [], roles: [] });
  });

  describe('2,000 alerts', () => {
    const kinds = [
      (d: string, n: number) => expiry(d, n % 31, 30),
      (d: string) => flag(d, 'active', false),
      (d: string) => notFound(d),
      (d: string) => failing(d, 'upstream'),
      (d: string) => renewed(d),
      (d: string) => knownAgain(d),
    ];
    const alerts: Alert[] = Array.from({ length: 2000 }, (_, n) => {
      // Names of every length up to 63-character labels, some with characters that need escaping.
      const domain = `d${String(n).padStart(4, '0')}-${'x'.repeat(n % 58)}${n % 7 === 0 ? '_*' : ''}.example.com`;
      return (kinds[n % kinds.length] as (d: string, n: number) => Alert)(domain, n);
    });
    const messages = renderDigest(alerts, [ROLE_A], en);

    it('stays within every Discord limit', () => {
      expect(messages.length).toBeGreaterThan(1);
      for (const message of messages) {
        expect(message.embeds.length).toBeGreaterThan(0);
        expect(message.embeds.length).toBeLessThanOrEqual(EMBEDS_MAX);
        expect(embedChars(message)).toBeLessThanOrEqual(EMBED_TOTAL_MAX);
        expect(message.content?.length ?? 0).toBeLessThanOrEqual(CONTENT_MAX);
        for (const embed of message.embeds) {
          expect(embed.description?.length ?? 0).toBeLessThanOrEqual(DESCRIPTION_MAX);
          expect(embed.title?.length ?? 0).toBeLessThanOrEqual(256);
        }
      }
    });

    it('every alert exactly once, in order, no line cut', () => {
      const sorted = renderDigest(alerts, [], en).flatMap((m) => m.embeds);
      const lines = descriptionLines(messages);
      expect(lines).toHaveLength(2000);
      expect(new Set(lines).size).toBe(2000);
      expect(lines).toEqual(sorted.flatMap((e) => (e.description ?? '').split('\n')));
      expect(lines.slice().sort()).toEqual(alerts.map(enLine).sort());
      // Most urgent first across messages too: the first lines are the expiry ones, soonest first.
      const expiryDays = lines
        .filter((line) => line.startsWith('⏰'))
        .map((line) => (/expires today/.test(line) ? 0 : Number(/expires in (\d+)/.exec(line)?.[1])));
      expect(expiryDays).toEqual([...expiryDays].sort((a, b) => a - b));
      expect(lines.findIndex((line) => !line.startsWith('⏰'))).toBe(expiryDays.length);
    });

    it('the first message pings the roles; the rest ping nobody', () => {
      const [first, ...rest] = messages;
      expect(first?.content).toBe(`<@&${ROLE_A}>`);
      expect(first?.allowed_mentions).toEqual({ parse: [], roles: [ROLE_A] });
      for (const message of rest) {
        expect(message.content).toBeUndefined();
        expect(message.allowed_mentions).toEqual({ parse: [], roles: [] });
      }
    });

    it('titles say how many alerts, and which embeds continue the digest', () => {
      const titles = messages.flatMap((m) => m.embeds.map((e) => e.title));
      expect(titles[0]).toBe('Domain watch: 2000 alerts');
      expect(titles.slice(1).every((t) => t === 'Domain watch: 2000 alerts (continued)')).toBe(true);
    });

    // "Split into several messages only when Discord's limits require it": every message is filled.
    it('uses no more messages than the limits require', () => {
      const chars = messages.reduce((sum, m) => sum + embedChars(m), 0);
      expect(messages.length).toBeLessThanOrEqual(Math.ceil(chars / 5800) + 1);
    });
  });

  // ~10,100 characters (each embed title adds ~40) fit two messages of ≤ 5,800.
  it('10,000 characters of lines fit two messages', () => {
    const alerts = Array.from({ length: 100 }, (_, n) =>
      notFound(`n${String(n).padStart(3, '0')}-${'y'.repeat(40)}.example`),
    );
    const chars = alerts.map(enLine).reduce((sum, line) => sum + line.length + 1, 0);
    expect(chars).toBe(10_100);
    const messages = renderDigest(alerts, [], en);
    expect(descriptionLines(messages)).toHaveLength(100);
    expect(messages).toHaveLength(2);
  });
});

describe('in German (BOT_LOCALE=de)', () => {
  it.each<[string, Alert, string]>([
    [
      'expiry, days ahead',
      expiry('example.com', 3, 3),
      '⏰ **example.com** läuft in 3 Tagen ab (04.03.2030; ≤ 3 Tage)',
    ],
    [
      'expiry, one day',
      expiry('example.com', 1, 1),
      '⏰ **example.com** läuft in 1 Tag ab (04.03.2030; ≤ 1 Tag)',
    ],
    ['expiry, today', expiry('example.com', 0, 1), '⏰ **example.com** läuft heute ab (04.03.2030; ≤ 1 Tag)'],
    [
      'expiry, past',
      expiry('example.com', -4, 1),
      '⏰ **example.com** ist seit 4 Tagen abgelaufen (04.03.2030; ≤ 1 Tag)',
    ],
    ['renewed', renewed('example.com'), '🔄 **example.com** verlängert: 04.03.2030 → 04.03.2031'],
    [
      'active → false',
      flag('example.com', 'active', false),
      '🚩 **example.com** ist jetzt inaktiv (vorher aktiv)',
    ],
    [
      'transferredAway → true',
      flag('example.com', 'transferredAway', true),
      '🚩 **example.com** ist jetzt wegtransferiert (vorher bei uns)',
    ],
    ['not found', notFound('example.com'), '❓ **example.com** ist dem Provider nicht mehr bekannt (404)'],
    ['known again', knownAgain('example.com'), 'ℹ️ **example.com** ist dem Provider wieder bekannt'],
    [
      'failing, with a reason of the catalogue',
      failing('example.com', message('watch.reason.rate_limited')),
      '⚠️ **example.com** konnte 3 Läufe in Folge nicht geprüft werden (gedrosselt)',
    ],
  ])('%s', (_, alert, expected) => {
    expect(alertLine(alert, de)).toBe(expected);
  });

  it('a reason of the catalogue reads as before in English', () => {
    expect(alertLine(failing('example.com', message('watch.reason.rate_limited')), en)).toBe(
      '⚠️ **example.com** could not be checked 3 runs in a row (rate limited)',
    );
  });

  it('titles count the alerts in German, and continued embeds say so', () => {
    const [one] = renderDigest([renewed('r.example')], [], de);
    expect(one?.embeds[0]?.title).toBe('Domain-Überwachung: 1 Warnung');
    const alerts = Array.from({ length: 2000 }, (_, n) => notFound(`n${n}-${'y'.repeat(40)}.example`));
    const titles = renderDigest(alerts, [], de).flatMap((m) => m.embeds.map((e) => e.title));
    expect(titles[0]).toBe('Domain-Überwachung: 2000 Warnungen');
    expect(titles.slice(1).every((t) => t === 'Domain-Überwachung: 2000 Warnungen (Fortsetzung)')).toBe(true);
  });
});
