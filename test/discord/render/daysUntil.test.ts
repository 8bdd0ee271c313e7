import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { daysUntil, describeDaysLeft } from '../../../src/discord/render/daysUntil.js';
import { translator } from '../../../src/i18n/Translator.js';

const en = translator('en');

const BERLIN = 'Europe/Berlin';
const day = (iso: string, zone = BERLIN) => DateTime.fromISO(iso, { zone }).startOf('day');

describe('daysUntil', () => {
  it('counts whole calendar days, negative in the past', () => {
    const today = day('2026-11-22');
    expect(daysUntil(day('2026-12-01'), today)).toBe(9);
    expect(daysUntil(day('2026-11-23'), today)).toBe(1);
    expect(daysUntil(day('2026-11-22'), today)).toBe(0);
    expect(daysUntil(day('2026-11-21'), today)).toBe(-1);
    expect(daysUntil(day('2026-10-13'), today)).toBe(-40);
    expect(Object.is(daysUntil(day('2026-11-22'), today), 0)).toBe(true);
  });

  it('ignores the time of day of today', () => {
    const expiry = day('2026-12-01');
    expect(daysUntil(expiry, DateTime.fromISO('2026-11-30T00:00:01', { zone: BERLIN }))).toBe(1);
    expect(daysUntil(expiry, DateTime.fromISO('2026-11-30T23:59:59', { zone: BERLIN }))).toBe(1);
    expect(daysUntil(expiry, DateTime.fromISO('2026-12-01T23:59:59', { zone: BERLIN }))).toBe(0);
  });

  it('is not thrown off by the spring DST change (a 23-hour day)', () => {
    // Berlin moves from CET to CEST on 2026-03-29.
    expect(daysUntil(day('2026-03-30'), day('2026-03-28'))).toBe(2);
    expect(daysUntil(day('2026-03-29'), day('2026-03-28'))).toBe(1);
    expect(daysUntil(day('2026-04-28'), day('2026-03-28'))).toBe(31);
    expect(daysUntil(day('2026-03-28'), day('2026-03-30'))).toBe(-2);
    // Late in the evening on the 29th, CEST: still the 29th.
    expect(daysUntil(day('2026-03-30'), DateTime.fromISO('2026-03-29T23:30', { zone: BERLIN }))).toBe(1);
  });

  it('is not thrown off by the autumn DST change (a 25-hour day)', () => {
    // Berlin moves from CEST to CET on 2026-10-25.
    expect(daysUntil(day('2026-10-26'), day('2026-10-24'))).toBe(2);
    expect(daysUntil(day('2026-10-26'), day('2026-10-25'))).toBe(1);
    expect(daysUntil(day('2026-10-24'), day('2026-10-26'))).toBe(-2);
    expect(daysUntil(day('2026-10-26'), DateTime.fromISO('2026-10-25T23:59', { zone: BERLIN }))).toBe(1);
  });

  it("takes today's calendar date in the expiry's zone, whatever zone today is given in", () => {
    const expiry = day('2026-03-30');
    // 23:30 UTC on the 28th is already 00:30 on the 29th in Berlin.
    expect(daysUntil(expiry, DateTime.fromISO('2026-03-28T23:30', { zone: 'UTC' }))).toBe(1);
    // 22:30 UTC on the 29th is 00:30 CEST on the 30th: expiry day.
    expect(daysUntil(expiry, DateTime.fromISO('2026-03-29T22:30', { zone: 'UTC' }))).toBe(0);
    // Early morning in Tokyo is still the previous evening in Berlin (06:00 JST = 23:00 CEST).
    expect(daysUntil(expiry, DateTime.fromISO('2026-03-30T06:00', { zone: 'Asia/Tokyo' }))).toBe(1);
    expect(daysUntil(expiry, DateTime.fromISO('2026-03-30T07:00', { zone: 'Asia/Tokyo' }))).toBe(0);
    // And a New York evening is already the next day in Berlin.
    expect(daysUntil(expiry, DateTime.fromISO('2026-03-29T20:00', { zone: 'America/New_York' }))).toBe(0);
  });
});

describe('describeDaysLeft', () => {
  it('words the days left', () => {
    expect(describeDaysLeft(12, en)).toBe('in 12 days');
    expect(describeDaysLeft(1, en)).toBe('in 1 day');
    expect(describeDaysLeft(0, en)).toBe('today');
    expect(describeDaysLeft(-1, en)).toBe('expired 1 day ago');
    expect(describeDaysLeft(-40, en)).toBe('expired 40 days ago');
  });

  it('words the days left in German, numbers grouped the German way', () => {
    const de = translator('de');
    expect(describeDaysLeft(12, de)).toBe('in 12 Tagen');
    expect(describeDaysLeft(1, de)).toBe('in 1 Tag');
    expect(describeDaysLeft(0, de)).toBe('heute');
    expect(describeDaysLeft(-1, de)).toBe('seit 1 Tag abgelaufen');
    expect(describeDaysLeft(-40, de)).toBe('seit 40 Tagen abgelaufen');
    expect(describeDaysLeft(1234, de)).toBe('in 1.234 Tagen');
    expect(describeDaysLeft(1234, en)).toBe('in 1,234 days');
  });
});
