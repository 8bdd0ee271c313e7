import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { translator } from '../../src/i18n/Translator.js';
import type { WatchedDomain } from '../../src/store/index.js';
import { calendarData, renderCalendar } from '../../src/watch/expiryCalendar.js';

// The expiry calendar as a calendar app reads it: parsed with ical.js (Mozilla's RFC 5545 parser).

const en = translator('en');
const de = translator('de');

function row(domain: string, expiryDate: string | null, more: Partial<WatchedDomain> = {}): WatchedDomain {
  return {
    domain,
    unicode: domain,
    addedById: '100000000000000001',
    addedAt: new Date('2026-01-01T00:00:00Z'),
    checkedAt: new Date('2026-11-20T08:00:00Z'),
    status: 'ok',
    failures: 0,
    expiryDate,
    active: true,
    expired: false,
    transferredAway: false,
    ...more,
  };
}

interface ParsedEvent {
  uid: string;
  date: string;
  isDate: boolean;
  summary: string;
  description: string;
  sequence: number;
  alarms: { trigger: string; action: string; description: string }[];
}

function parse(ics: string): { name: string; events: ParsedEvent[] } {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  expect(calendar.name).toBe('vcalendar');
  expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
  return {
    name: String(calendar.getFirstPropertyValue('x-wr-calname')),
    events: calendar.getAllSubcomponents('vevent').map((vevent) => {
      const event = new ICAL.Event(vevent);
      return {
        uid: event.uid,
        date: event.startDate.toString(),
        isDate: event.startDate.isDate,
        summary: event.summary,
        description: event.description,
        sequence: event.sequence,
        alarms: vevent.getAllSubcomponents('valarm').map((alarm) => ({
          trigger: String(alarm.getFirstPropertyValue('trigger')),
          action: String(alarm.getFirstPropertyValue('action')),
          description: String(alarm.getFirstPropertyValue('description')),
        })),
      };
    }),
  };
}

describe('the expiry calendar', () => {
  const rows = [
    row('later.example', '2031-05-17'),
    row('xn--bcher-kva.example', '2027-01-09', { unicode: 'bücher.example' }),
    row('gone.example', '2026-12-01', { transferredAway: true, active: false, failures: 2 }),
    row('unknown.example', null, { status: 'new' }),
  ];

  it('has one all-day event per domain with a known date, on that date, soonest first', async () => {
    const data = await calendarData(rows, [30, 7, 1], en);
    expect(data.withoutDate).toBe(1);
    const { name, events } = parse(await renderCalendar(data, en));
    expect(name).toBe('HostOps: domain expiry');
    expect(events.map((e) => [e.date, e.isDate])).toEqual([
      ['2026-12-01', true],
      ['2027-01-09', true],
      ['2031-05-17', true],
    ]);
    expect(data.events.map((e) => e.date)).toEqual(events.map((e) => e.date));
  });

  it('shows IDNs in Unicode, with the ASCII form and the flags in the description', async () => {
    const { events } = parse(await renderCalendar(await calendarData(rows, [30], en), en));
    const idn = events.find((e) => e.uid.includes('xn--bcher-kva'));
    expect(idn?.summary).toBe('bücher.example expires');
    expect(idn?.description).toContain('xn--bcher-kva.example');
    const gone = events.find((e) => e.uid.includes('gone.example'));
    expect(gone?.description).toContain('inactive');
    expect(gone?.description).toContain('transferred away');
    expect(gone?.description).toContain('2 runs');
    expect(events.find((e) => e.uid.includes('later'))?.description).not.toContain('⚠️');
  });

  it('has a display alarm at each lead day (0 is the day itself)', async () => {
    const { events } = parse(await renderCalendar(await calendarData(rows, [7, 30, 0, 1], en), en));
    const later = events.find((e) => e.uid.includes('later'));
    expect(later?.alarms.map((a) => a.trigger)).toEqual(['-P30D', '-P7D', '-P1D', 'PT0S']);
    expect(later?.alarms.every((a) => a.action === 'DISPLAY')).toBe(true);
    expect(later?.alarms.map((a) => a.description)).toEqual([
      'later.example expires in 30 days',
      'later.example expires in 7 days',
      'later.example expires in 1 day',
      'later.example expires today',
    ]);
  });

  it('keeps each domain’s UID across renders and renewals, with a higher SEQUENCE once renewed', async () => {
    const before = parse(await renderCalendar(await calendarData(rows, [30], en), en)).events;
    const renewed = rows.map((r) => (r.domain === 'later.example' ? { ...r, expiryDate: '2032-05-17' } : r));
    const after = parse(await renderCalendar(await calendarData(renewed, [30], en), en)).events;
    expect(new Set(after.map((e) => e.uid))).toEqual(new Set(before.map((e) => e.uid)));
    expect(new Set(before.map((e) => e.uid)).size).toBe(before.length);
    const old = before.find((e) => e.uid.includes('later'));
    const now = after.find((e) => e.uid.includes('later'));
    expect(now?.date).toBe('2032-05-17');
    expect(now?.sequence).toBeGreaterThan(old?.sequence ?? Number.POSITIVE_INFINITY);
  });

  it('is written in the given language', async () => {
    const { name, events } = parse(await renderCalendar(await calendarData(rows, [3], de), de));
    expect(name).toBe('HostOps: Ablauf von Domains');
    expect(events[0]?.summary).toBe('gone.example läuft ab');
    expect(events[0]?.alarms[0]?.description).toBe('gone.example läuft in 3 Tagen ab');
  });

  it('is the same date whatever the process’s time zone (a date, not an instant)', async () => {
    const text = await renderCalendar(await calendarData([row('a.example', '2031-01-01')], [1], en), en);
    expect(text).toContain('DTSTART;VALUE=DATE:20310101');
    expect(text.split('\r\n').length).toBeGreaterThan(5);
  });
});
