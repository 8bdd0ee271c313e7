import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { discordDate, renderDomainInfo } from '../../../src/discord/render/renderDomainInfo.js';
import type { DomainInfo } from '../../../src/hosting/operations.js';
import { translator } from '../../../src/i18n/Translator.js';
import { Colour } from '../../../src/replies/colours.js';

const ZONE = 'Europe/Berlin';
const TODAY = DateTime.fromISO('2026-11-22T15:00', { zone: ZONE });
const ASCII = { ascii: 'example.com', unicode: 'example.com' };
const expiring = (iso: string) => DateTime.fromISO(iso, { zone: ZONE }).startOf('day');
const inDays = (days: number) => TODAY.startOf('day').plus({ days });
const noonUtc = (iso: string) => Math.floor(Date.parse(`${iso}T12:00:00Z`) / 1000);
const en = translator('en');
const de = translator('de');

function info(overrides: Partial<DomainInfo> = {}): DomainInfo {
  return {
    expiryDate: expiring('2027-06-01'),
    active: true,
    expired: false,
    transferredAway: false,
    ...overrides,
  };
}

function field(embed: ReturnType<typeof renderDomainInfo>, name: string): string | undefined {
  return embed.fields?.find((candidate) => candidate.name === name)?.value;
}

describe('discordDate', () => {
  it('uses noon UTC of the calendar date, so readers west of the API zone see the same date', () => {
    // Midnight in Berlin is the previous evening in UTC; the timestamp must not be that instant.
    expect(discordDate(expiring('2026-12-01'))).toBe(`<t:${noonUtc('2026-12-01')}:D>`);
    expect(discordDate(DateTime.fromISO('2026-03-29', { zone: 'Pacific/Auckland' }))).toBe(
      `<t:${noonUtc('2026-03-29')}:D>`,
    );
  });
});

describe('renderDomainInfo', () => {
  it('shows a healthy domain in green', () => {
    const embed = renderDomainInfo(ASCII, info(), TODAY, en);
    expect(embed.title).toBe('example.com');
    expect(embed.description).toBeUndefined();
    expect(embed.color).toBe(Colour.success);
    expect(field(embed, 'Expires')).toBe(`<t:${noonUtc('2027-06-01')}:D> (in 191 days)`);
    expect(field(embed, 'Active')).toBe('✅ yes');
    expect(field(embed, 'Expired')).toBe('✅ no');
    expect(field(embed, 'Transferred away')).toBe('✅ no');
  });

  it('titles an IDN with its unicode form and gives the punycode in the description', () => {
    const embed = renderDomainInfo({ ascii: 'xn--bcher-kva.de', unicode: 'bücher.de' }, info(), TODAY, en);
    expect(embed.title).toBe('bücher.de');
    expect(embed.description).toBe('Punycode: `xn--bcher-kva.de`');
  });

  it('escapes the title', () => {
    const embed = renderDomainInfo({ ascii: 'a_b_.example', unicode: 'a_b_.example' }, info(), TODAY, en);
    expect(embed.title).toBe('a\\_b\\_.example');
  });

  it('turns orange within 30 days, today included', () => {
    expect(renderDomainInfo(ASCII, info({ expiryDate: inDays(30) }), TODAY, en).color).toBe(Colour.orange);
    expect(renderDomainInfo(ASCII, info({ expiryDate: inDays(1) }), TODAY, en).color).toBe(Colour.orange);
    const today = renderDomainInfo(ASCII, info({ expiryDate: inDays(0) }), TODAY, en);
    expect(today.color).toBe(Colour.orange);
    expect(field(today, 'Expires')).toMatch(/ \(today\)$/);
    expect(renderDomainInfo(ASCII, info({ expiryDate: inDays(31) }), TODAY, en).color).toBe(Colour.success);
  });

  it('turns red for a past expiry date, even without the expired flag', () => {
    const embed = renderDomainInfo(ASCII, info({ expiryDate: inDays(-1) }), TODAY, en);
    expect(embed.color).toBe(Colour.danger);
    expect(field(embed, 'Expires')).toMatch(/ \(expired 1 day ago\)$/);
  });

  it('turns red when expired, transferred away or inactive', () => {
    expect(renderDomainInfo(ASCII, info({ expired: true }), TODAY, en).color).toBe(Colour.danger);
    expect(renderDomainInfo(ASCII, info({ transferredAway: true }), TODAY, en).color).toBe(Colour.danger);
    expect(renderDomainInfo(ASCII, info({ active: false }), TODAY, en).color).toBe(Colour.danger);
    const flagged = renderDomainInfo(
      ASCII,
      info({ expired: true, transferredAway: true, active: false }),
      TODAY,
      en,
    );
    expect(field(flagged, 'Active')).toBe('❌ no');
    expect(field(flagged, 'Expired')).toBe('❌ yes');
    expect(field(flagged, 'Transferred away')).toBe('❌ yes');
  });

  it('is neutral with no expiry date and no red flag, red with one', () => {
    const unknown = renderDomainInfo(ASCII, info({ expiryDate: null }), TODAY, en);
    expect(unknown.color).toBe(Colour.neutral);
    expect(field(unknown, 'Expires')).toBe('unknown');
    expect(renderDomainInfo(ASCII, info({ expiryDate: null, expired: true }), TODAY, en).color).toBe(
      Colour.danger,
    );
  });

  it("counts days on the API's calendar, whatever zone today comes in", () => {
    // 23:30 UTC on 30 Nov is already 1 Dec in Berlin: expiry day.
    const today = DateTime.fromISO('2026-11-30T23:30', { zone: 'UTC' });
    const embed = renderDomainInfo(ASCII, info({ expiryDate: expiring('2026-12-01') }), today, en);
    expect(field(embed, 'Expires')).toBe(`<t:${noonUtc('2026-12-01')}:D> (today)`);
  });
});

describe('renderDomainInfo in German', () => {
  it('names the fields and flags in German; the date stays a Discord timestamp', () => {
    const embed = renderDomainInfo(ASCII, info({ transferredAway: true }), TODAY, de);
    expect(embed.fields?.map((f) => f.name)).toEqual(['Läuft ab', 'Aktiv', 'Abgelaufen', 'Wegtransferiert']);
    expect(field(embed, 'Läuft ab')).toBe(`<t:${noonUtc('2027-06-01')}:D> (in 191 Tagen)`);
    expect(field(embed, 'Aktiv')).toBe('✅ ja');
    expect(field(embed, 'Abgelaufen')).toBe('✅ nein');
    expect(field(embed, 'Wegtransferiert')).toBe('❌ ja');
  });

  it('words past, today and unknown expiry in German', () => {
    expect(field(renderDomainInfo(ASCII, info({ expiryDate: inDays(-1) }), TODAY, de), 'Läuft ab')).toMatch(
      / \(seit 1 Tag abgelaufen\)$/,
    );
    expect(field(renderDomainInfo(ASCII, info({ expiryDate: inDays(0) }), TODAY, de), 'Läuft ab')).toMatch(
      / \(heute\)$/,
    );
    expect(field(renderDomainInfo(ASCII, info({ expiryDate: null }), TODAY, de), 'Läuft ab')).toBe(
      'unbekannt',
    );
    expect(
      renderDomainInfo({ ascii: 'xn--bcher-kva.de', unicode: 'bücher.de' }, info(), TODAY, de).description,
    ).toBe('Punycode: `xn--bcher-kva.de`');
  });
});
