import type { Translator } from '../i18n/Translator.js';
import type { WatchedDomain } from '../store/index.js';
import { watchFlags } from './renderWatchLines.js';

// The expiry calendar (RFC 5545): one all-day event per watched domain on its expiry date, with an alarm
// at each lead day. `/watch calendar` attaches it, the console writes it (`--out`), and CALENDAR_TOKEN
// serves it at GET /calendar/<token>.ics for calendar apps that subscribe by URL.

export const CALENDAR_FILE = 'hostops-expiry.ics';

/** One event, as the console's `--json` gives it. */
export type CalendarEventData = {
  /** Stable across renders and renewals, so a calendar that imports the file again updates the event. */
  uid: string;
  /** ASCII (punycode); `unicode` when it differs. */
  domain: string;
  unicode?: string;
  /** `YYYY-MM-DD`: the all-day event's date, a calendar day in HOSTING_API_TIMEZONE. */
  date: string;
  /** What the last run saw that needs attention, in words (the event's description lists them). */
  flags: string[];
  /** Days before the date an alarm goes off: WATCH_LEAD_DAYS. */
  alarmDaysBefore: number[];
};

export type CalendarData = {
  events: CalendarEventData[];
  /** Watched domains not in the calendar: their expiry date is not known (yet). */
  withoutDate: number;
};

const DAY_MS = 86_400_000;

/** The stored rows as calendar events, soonest first; domains without a known date are only counted. */
export function calendarData(
  rows: readonly WatchedDomain[],
  leadDays: readonly number[],
  t: Translator,
): CalendarData {
  const events: CalendarEventData[] = [];
  const alarmDaysBefore = [...new Set(leadDays)].sort((a, b) => b - a);
  for (const row of rows) {
    if (row.expiryDate === null) continue;
    events.push({
      uid: `expiry-${row.domain}@hostops`,
      domain: row.domain,
      ...(row.unicode === row.domain ? {} : { unicode: row.unicode }),
      date: row.expiryDate,
      flags: watchFlags(row, t),
      alarmDaysBefore,
    });
  }
  events.sort((a, b) => a.date.localeCompare(b.date) || a.domain.localeCompare(b.domain));
  return { events, withoutDate: rows.length - events.length };
}

/**
 * The .ics text. ical-generator is loaded on first use (a chunk of its own in the build): most processes
 * never render a calendar.
 */
export async function renderCalendar(data: CalendarData, t: Translator): Promise<string> {
  const { default: ical, ICalAlarmType } = await import('ical-generator');
  const calendar = ical({
    name: t('watch.calendar.name'),
    prodId: { company: 'HostOps', product: 'HostOps', language: t.locale.toUpperCase() },
  });
  for (const event of data.events) {
    const name = event.unicode ?? event.domain;
    const lines = [
      t('watch.calendar.description', { domain: name }),
      ...(event.unicode ? [event.domain] : []),
      ...(event.flags.length > 0 ? [`⚠️ ${event.flags.join(', ')}`] : []),
    ];
    const created = calendar.createEvent({
      id: event.uid,
      // An all-day event is a date, not an instant: the same day whatever zone the reader's calendar is in.
      start: new Date(`${event.date}T00:00:00Z`),
      allDay: true,
      // A renewal moves the date later, so the date's day number only grows: clients that compare
      // SEQUENCE take the re-imported event as the newer version.
      sequence: Math.floor(Date.parse(`${event.date}T00:00:00Z`) / DAY_MS),
      summary: t('watch.calendar.summary', { domain: name }),
      description: lines.join('\n'),
    });
    for (const days of event.alarmDaysBefore) {
      created.createAlarm({
        type: ICalAlarmType.display,
        trigger: days * 86_400,
        description:
          days === 0
            ? t('watch.calendar.alarm_today', { domain: name })
            : t('watch.calendar.alarm', { domain: name, count: days }),
      });
    }
  }
  return calendar.toString();
}
