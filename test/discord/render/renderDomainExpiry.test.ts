import type { APIEmbed } from 'discord.js';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { type ExpiryResult, renderDomainExpiry } from '../../../src/discord/render/renderDomainExpiry.js';
import type { DomainInfo } from '../../../src/hosting/operations.js';
import { translator } from '../../../src/i18n/Translator.js';
import { Colour } from '../../../src/replies/colours.js';

const ZONE = 'Europe/Berlin';
const TODAY = DateTime.fromISO('2026-11-22T09:00', { zone: ZONE });
const inDays = (days: number) => TODAY.startOf('day').plus({ days });
const en = translator('en');
const de = translator('de');
const EXPIRY_TITLE = 'Domain expiry';
const EXPIRY_CONTINUED_TITLE = 'Domain expiry (continued)';

function ok(name: string, days: number | null, overrides: Partial<DomainInfo> = {}): ExpiryResult {
  return {
    domain: { ascii: name, unicode: name },
    info: {
      expiryDate: days === null ? null : inDays(days),
      active: true,
      expired: false,
      transferredAway: false,
      ...overrides,
    },
  };
}

function failed(name: string, error: string): ExpiryResult {
  return { domain: { ascii: name, unicode: name }, error };
}

/** Counted independently of the code under test: what Discord counts towards the limits. */
function embedChars(embed: APIEmbed): number {
  let total = (embed.title ?? '').length + (embed.description ?? '').length;
  total += (embed.footer?.text ?? '').length + (embed.author?.name ?? '').length;
  for (const f of embed.fields ?? []) total += f.name.length + f.value.length;
  return total;
}

function expectWithinLimits(messages: APIEmbed[][]): void {
  expect(messages.length).toBeGreaterThan(0);
  for (const message of messages) {
    expect(message.length).toBeGreaterThan(0);
    expect(message.length).toBeLessThanOrEqual(10);
    let total = 0;
    for (const embed of message) {
      expect((embed.title ?? '').length).toBeLessThanOrEqual(256);
      expect((embed.description ?? '').length).toBeLessThanOrEqual(4096);
      expect((embed.description ?? '').trim()).not.toBe('');
      expect(embed.fields?.length ?? 0).toBeLessThanOrEqual(25);
      total += embedChars(embed);
    }
    expect(total).toBeLessThanOrEqual(6000);
  }
}

function allLines(messages: APIEmbed[][]): string[] {
  return messages.flatMap((message) => message.flatMap((embed) => (embed.description ?? '').split('\n')));
}

function single(messages: APIEmbed[][]): APIEmbed {
  expect(messages).toHaveLength(1);
  expect(messages[0]).toHaveLength(1);
  const embed = messages[0]?.[0];
  if (!embed) throw new Error('no embed');
  return embed;
}

describe('renderDomainExpiry', () => {
  it('renders one line per domain under a summary', () => {
    const embed = single(renderDomainExpiry([ok('example.com', 9)], 30, TODAY, en));
    expect(embed.title).toBe(EXPIRY_TITLE);
    expect(embed.description).toBe(
      [
        '1 checked · 1 expires within 30 days · 0 expired · 0 transferred away · 0 failed',
        '',
        '🟠 **example.com** — 2026-12-01 (in 9 days)',
      ].join('\n'),
    );
    expect(embed.color).toBe(Colour.orange);
  });

  it('marks and sorts: by days left with expired first, unknown after known, failures and invalid last', () => {
    const results = [
      failed('broken.example', 'provider error 503'),
      ok('unknown.example', null),
      ok('later.example', 200),
      ok('soon.example', 5),
      ok('gone.example', -3, { expired: true }),
      ok('today.example', 0),
      ok('moved.example', 100, { transferredAway: true }),
      ok('sleepy.example', 50, { active: false }),
      ok('flagged.example', 12, { expired: true }),
      ok('unknown-moved.example', null, { transferredAway: true }),
    ];
    const messages = renderDomainExpiry(results, 30, TODAY, en, [
      { input: 'not a domain', reason: 'spaces' },
    ]);
    const lines = allLines(messages);
    expect(lines).toEqual([
      '10 checked · 2 expire within 30 days · 2 expired · 2 transferred away · 1 inactive · 1 failed · 1 invalid',
      '',
      '🔴 **gone.example** — 2026-11-19 (expired 3 days ago)',
      '🟠 **today.example** — 2026-11-22 (today)',
      '🟠 **soon.example** — 2026-11-27 (in 5 days)',
      '🔴 **flagged.example** — 2026-12-04 (in 12 days) · expired',
      '🔴 **sleepy.example** — 2027-01-11 (in 50 days) · inactive',
      '🔴 **moved.example** — 2027-03-02 (in 100 days) · transferred away',
      '🟢 **later.example** — 2027-06-10 (in 200 days)',
      '🔴 **unknown-moved.example** — expiry date unknown · transferred away',
      '⚪ **unknown.example** — expiry date unknown',
      '⚠️ **broken.example** — check failed: provider error 503',
      '❔ **not a domain** — invalid: spaces',
    ]);
    expect(messages[0]?.[0]?.color).toBe(Colour.danger);
  });

  it('counts the window inclusively and says "day" for a one-day window', () => {
    const lines = allLines(renderDomainExpiry([ok('a.example', 1), ok('b.example', 2)], 1, TODAY, en));
    expect(lines[0]).toBe('2 checked · 1 expires within 1 day · 0 expired · 0 transferred away · 0 failed');
    expect(lines).toContain('🟠 **a.example** — 2026-11-23 (in 1 day)');
    expect(lines).toContain('🟢 **b.example** — 2026-11-24 (in 2 days)');
  });

  describe('colour of the first embed', () => {
    it('is green when nothing needs attention', () => {
      expect(single(renderDomainExpiry([ok('a.example', 90)], 30, TODAY, en)).color).toBe(Colour.success);
      expect(single(renderDomainExpiry([ok('a.example', null)], 30, TODAY, en)).color).toBe(Colour.success);
    });

    it('is orange when something expires within the window', () => {
      const results = [ok('a.example', 90), ok('b.example', 30)];
      expect(single(renderDomainExpiry(results, 30, TODAY, en)).color).toBe(Colour.orange);
    });

    it.each([
      ['an expired flag', ok('b.example', 300, { expired: true })],
      ['a past date', ok('b.example', -1)],
      ['a transfer', ok('b.example', 300, { transferredAway: true })],
      ['an inactive domain', ok('b.example', 300, { active: false })],
      ['a failure', failed('b.example', 'timed out')],
    ])('is red for %s', (_, result) => {
      const embed = single(renderDomainExpiry([ok('a.example', 5), result], 30, TODAY, en));
      expect(embed.color).toBe(Colour.danger);
    });

    it('is red for invalid input', () => {
      const embed = single(
        renderDomainExpiry([ok('a.example', 90)], 30, TODAY, en, [{ input: 'x', reason: 'y' }]),
      );
      expect(embed.color).toBe(Colour.danger);
    });
  });

  it('titles IDNs with their unicode form', () => {
    const result: ExpiryResult = {
      domain: { ascii: 'xn--bcher-kva.de', unicode: 'bücher.de' },
      info: { expiryDate: inDays(90), active: true, expired: false, transferredAway: false },
    };
    expect(allLines(renderDomainExpiry([result], 30, TODAY, en))).toContain(
      '🟢 **bücher.de** — 2027-02-20 (in 90 days)',
    );
  });

  it('escapes invalid input and reasons', () => {
    const lines = allLines(
      renderDomainExpiry([failed('a.example', '**boom** @everyone')], 30, TODAY, en, [
        { input: '<@&123> `x`', reason: 'has _markdown_' },
        { input: '', reason: 'empty' },
      ]),
    );
    expect(lines).toContain('⚠️ **a.example** — check failed: \\*\\*boom\\*\\* @\u200beveryone');
    expect(lines).toContain('❔ **<\u200b@&123> \\`x\\`** — invalid: has \\_markdown\\_');
    expect(lines).toContain('❔ **(empty)** — invalid: empty');
  });

  it('prefers the error when a result has both an error and info', () => {
    const both: ExpiryResult = { ...ok('a.example', 5), error: 'stale' };
    expect(allLines(renderDomainExpiry([both], 30, TODAY, en))).toContain(
      '⚠️ **a.example** — check failed: stale',
    );
  });

  it('says so when there is nothing to show', () => {
    const embed = single(renderDomainExpiry([], 30, TODAY, en));
    expect(embed.description).toBe(
      '0 checked · 0 expire within 30 days · 0 expired · 0 transferred away · 0 failed\n\nNo domains to check.',
    );
    expect(embed.color).toBe(Colour.success);
  });

  it('computes days on the API calendar across a DST change', () => {
    const today = DateTime.fromISO('2026-10-24T23:30', { zone: ZONE });
    const result = ok('a.example', null, {
      expiryDate: DateTime.fromISO('2026-10-26', { zone: ZONE }).startOf('day'),
    });
    expect(allLines(renderDomainExpiry([result], 30, today, en))).toContain(
      '🟠 **a.example** — 2026-10-26 (in 2 days)',
    );
  });

  describe('splitting', () => {
    const longLabel = (index: number) => {
      // 253 characters: four labels of 59 + dots, then a tail with the index for uniqueness.
      const base = `${'a'.repeat(59)}.${'b'.repeat(59)}.${'c'.repeat(59)}.${'d'.repeat(59)}.`;
      const tail = `${index}`.padStart(8, '0');
      return `${base}${'e'.repeat(253 - base.length - tail.length - 4)}${tail}.com`;
    };

    it('keeps 50 domains of 253 characters with long error reasons within every limit', () => {
      const results: ExpiryResult[] = [];
      for (let index = 0; index < 50; index++) {
        const name = longLabel(index);
        expect(name).toHaveLength(253);
        results.push(index % 2 === 0 ? ok(name, index - 10) : failed(name, `reason ${'x'.repeat(3000)}`));
      }
      const invalid = Array.from({ length: 20 }, (_, index) => ({
        input: `${'*'.repeat(2000)}${index}`,
        reason: `\`${'y'.repeat(2000)}\``,
      }));
      const messages = renderDomainExpiry(results, 30, TODAY, en, invalid);
      expectWithinLimits(messages);
      // Nothing lost: summary, blank line, then one line per domain and per invalid input.
      const lines = allLines(messages).filter((line) => line !== '');
      expect(lines).toHaveLength(1 + 50 + 20);
      expect(messages.length).toBeGreaterThan(1);
      expect(messages[0]?.[0]?.title).toBe(EXPIRY_TITLE);
      for (const message of messages.slice(1)) expect(message[0]?.title).toBe(EXPIRY_CONTINUED_TITLE);
      // Every embed carries the same colour as the first.
      const colours = new Set(messages.flat().map((embed) => embed.color));
      expect([...colours]).toEqual([Colour.danger]);
    });

    it('fills embeds up to the description limit and messages up to 10 embeds or 6000 characters', () => {
      const results = Array.from({ length: 300 }, (_, index) => ok(longLabel(index), 400 + index));
      const messages = renderDomainExpiry(results, 30, TODAY, en);
      expectWithinLimits(messages);
      expect(allLines(messages).filter((line) => line.startsWith('🟢'))).toHaveLength(300);
      // Tightly packed: every message but the last is close to the 6000-character limit.
      for (const message of messages.slice(0, -1)) {
        const total = message.reduce((sum, embed) => sum + embedChars(embed), 0);
        expect(total).toBeGreaterThan(6000 - 300);
      }
    });

    it('never exceeds 10 embeds in a message with many short lines', () => {
      const results = Array.from({ length: 2000 }, (_, index) => ok(`d${index}.io`, 100));
      const messages = renderDomainExpiry(results, 30, TODAY, en);
      expectWithinLimits(messages);
      expect(allLines(messages).filter((line) => line.startsWith('🟢'))).toHaveLength(2000);
    });

    it('keeps a single huge domain name within the limits', () => {
      const messages = renderDomainExpiry([ok('x'.repeat(50_000), 5)], 30, TODAY, en, [
        { input: 'z'.repeat(50_000), reason: 'r'.repeat(50_000) },
      ]);
      expectWithinLimits(messages);
    });
  });
});

describe('renderDomainExpiry in German', () => {
  it('words the summary, lines, dates and titles in German', () => {
    const results = [
      ok('gone.example', -3, { expired: true }),
      ok('soon.example', 1),
      ok('sleepy.example', 50, { active: false }),
      ok('moved.example', null, { transferredAway: true }),
      failed('broken.example', 'Providerfehler 503'),
    ];
    const messages = renderDomainExpiry(results, 1, TODAY, de, [{ input: '', reason: '' }]);
    expect(messages[0]?.[0]?.title).toBe('Domain-Ablauf');
    expect(allLines(messages)).toEqual([
      '5 geprüft · 1 läuft innerhalb von 1 Tag ab · 1 abgelaufen · 1 wegtransferiert · 1 inaktiv · 1 fehlgeschlagen · 1 ungültig',
      '',
      '🔴 **gone.example** — 19.11.2026 (seit 3 Tagen abgelaufen)',
      '🟠 **soon.example** — 23.11.2026 (in 1 Tag)',
      '🔴 **sleepy.example** — 11.01.2027 (in 50 Tagen) · inaktiv',
      '🔴 **moved.example** — Ablaufdatum unbekannt · wegtransferiert',
      '⚠️ **broken.example** — Prüfung fehlgeschlagen: Providerfehler 503',
      '❔ **(leer)** — ungültig: ungültig',
    ]);
  });

  it('uses the plural for several domains and days, and German digit grouping', () => {
    const lines = allLines(renderDomainExpiry([ok('a.example', 1), ok('b.example', 2)], 1200, TODAY, de));
    expect(lines[0]).toBe(
      '2 geprüft · 2 laufen innerhalb von 1.200 Tagen ab · 0 abgelaufen · 0 wegtransferiert · 0 fehlgeschlagen',
    );
  });

  it('says so in German when there is nothing to check, and titles continuations', () => {
    expect(single(renderDomainExpiry([], 30, TODAY, de)).description).toBe(
      '0 geprüft · 0 laufen innerhalb von 30 Tagen ab · 0 abgelaufen · 0 wegtransferiert · 0 fehlgeschlagen\n\nKeine Domains zu prüfen.',
    );
    const many = Array.from({ length: 2000 }, (_, index) => ok(`d${index}.io`, 100));
    const messages = renderDomainExpiry(many, 30, TODAY, de);
    expect(messages.length).toBeGreaterThan(1);
    for (const message of messages.slice(1)) expect(message[0]?.title).toBe('Domain-Ablauf (Fortsetzung)');
  });
});
