import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { appendPart, coalesced, type DeflatedPart, gzipParts } from '../gzipParts.js';
import type { Translator } from '../i18n/Translator.js';
import type { WatchedDomain } from '../store/index.js';
import { TurnBudget } from '../TurnBudget.js';

const gunzipped = promisify(gunzip);

import { watchFlags } from './renderWatchLines.js';

// The expiry calendar (RFC 5545): one all-day event per watched domain on its expiry date, with an alarm
// at each lead day. `/watch calendar` attaches it, the console writes it (`--out`), and CALENDAR_TOKEN
// serves it at GET /calendar/<token>.ics on a listener of its own for calendar apps that subscribe by URL.

export const CALENDAR_FILE = 'hostops-expiry.ics';

/** One event of the calendar (the console's `--json` adds its UID: `calendarJson`). */
export type CalendarEventData = {
  /** ASCII (punycode); `unicode` when it differs. The event's UID is made from it (`eventUid`). */
  domain: string;
  unicode?: string;
  /** `YYYY-MM-DD`: the all-day event's date, a calendar day in HOSTING_API_TIMEZONE. */
  date: string;
  /** What the last run saw that needs attention, in words (the event's description lists them). */
  flags: readonly string[];
  /** Days before the date an alarm goes off: WATCH_LEAD_DAYS. */
  alarmDaysBefore: number[];
};

export type CalendarData = {
  events: CalendarEventData[];
  /** Watched domains not in the calendar: their expiry date is not known (yet). */
  withoutDate: number;
};

/**
 * The .ics file, kept gzipped (one gzip member: 100,000 domains make ≈ 90 MB of text, ≈ a tenth of that
 * compressed), with the size of its text.
 */
export interface RenderedCalendar {
  gzip: Buffer[];
  gzipBytes: number;
  /** The text's size in bytes. */
  bytes: number;
}

const DAY_MS = 86_400_000;
/**
 * Stable across renders and renewals, so a calendar that imports the file again updates the event. Made
 * when rendered, not kept: 100,000 kept UIDs were 200,000 more strings for every full GC to mark.
 */
const eventUid = (domain: string) => `expiry-${domain}@hostops`;

/** The calendar as the console's `--json` gives it: each event with the UID its file carries. */
export function calendarJson(data: CalendarData) {
  return {
    events: data.events.map((event) => ({ uid: eventUid(event.domain), ...event })),
    withoutDate: data.withoutDate,
  };
}

/** Events per piece of the rendered text. */
const EVENTS_PER_CHUNK = 200;

/**
 * Collects the calendar's events from the watch list read by name (`add` a page at a time), soonest first
 * and by name within a day: events go into one bucket per date, already in name order, so nothing is
 * sorted but the distinct dates (a few thousand at most) — no sort of the whole list in one turn.
 */
export class CalendarCollector {
  readonly #byDate = new Map<string, CalendarEventData[]>();
  readonly #alarmDaysBefore: number[];
  /**
   * One flags array per distinct finding, shared by the events that have it: in a provider outage all
   * 100,000 domains have the same one, and the calendar is kept until the watch data changes.
   */
  readonly #flags = new Map<string, readonly string[]>();
  #rows = 0;
  #events = 0;

  constructor(
    leadDays: readonly number[],
    private readonly t: Translator,
  ) {
    this.#alarmDaysBefore = [...new Set(leadDays)].sort((a, b) => b - a);
  }

  /** Rows in name order, following those added before. */
  async add(rows: readonly WatchedDomain[], budget = new TurnBudget()): Promise<void> {
    for (const row of rows) {
      this.#rows++;
      if (budget.spent()) await budget.giveBack();
      if (row.expiryDate === null) continue;
      const bucket = this.#byDate.get(row.expiryDate);
      const event: CalendarEventData = {
        domain: row.domain,
        ...(row.unicode === row.domain ? {} : { unicode: row.unicode }),
        // The bucket's string: one per distinct date rather than one per row read.
        date: bucket?.[0]?.date ?? row.expiryDate,
        flags: this.#flagsOf(row),
        alarmDaysBefore: this.#alarmDaysBefore,
      };
      if (bucket) bucket.push(event);
      else this.#byDate.set(row.expiryDate, [event]);
      this.#events++;
    }
  }

  #flagsOf(row: WatchedDomain): readonly string[] {
    const key = `${row.status}|${row.active}|${row.expired}|${row.transferredAway}|${row.failures}`;
    let flags = this.#flags.get(key);
    if (!flags) {
      flags = watchFlags(row, this.t);
      this.#flags.set(key, flags);
    }
    return flags;
  }

  async data(budget = new TurnBudget()): Promise<CalendarData> {
    const events: CalendarEventData[] = [];
    for (const date of [...this.#byDate.keys()].sort()) {
      for (const event of this.#byDate.get(date) ?? []) {
        events.push(event);
        if (budget.spent()) await budget.giveBack();
      }
    }
    return { events, withoutDate: this.#rows - this.#events };
  }
}

/** The stored rows as calendar events, soonest first; domains without a known date are only counted. */
export async function calendarData(
  rows: readonly WatchedDomain[],
  leadDays: readonly number[],
  t: Translator,
): Promise<CalendarData> {
  const collector = new CalendarCollector(leadDays, t);
  await collector.add([...rows].sort((a, b) => (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0)));
  return collector.data();
}

/**
 * Renders the calendar with ical-generator, an event at a time (the library's own `toString` renders the
 * whole calendar in one synchronous pass: seconds at 100,000 domains). ical-generator is loaded on first
 * use (a chunk of its own in the build): most processes never render a calendar.
 */
async function calendarWriter(t: Translator) {
  const { default: ical, ICalAlarmType, foldLines } = await import('ical-generator');
  const calendar = ical({
    name: t('watch.calendar.name'),
    prodId: { company: 'HostOps', product: 'HostOps', language: t.locale.toUpperCase() },
  });
  // The calendar without events is its head and its end; events go between (as the library places them).
  const empty = calendar.toString();
  const end = empty.lastIndexOf('END:VCALENDAR');
  const event = (data: CalendarEventData): string => {
    const name = data.unicode ?? data.domain;
    const lines = [
      t('watch.calendar.description', { domain: name }),
      ...(data.unicode ? [data.domain] : []),
      ...(data.flags.length > 0 ? [`⚠️ ${data.flags.join(', ')}`] : []),
    ];
    const created = calendar.createEvent({
      id: eventUid(data.domain),
      // An all-day event is a date, not an instant: the same day whatever zone the reader's calendar is in.
      start: new Date(`${data.date}T00:00:00Z`),
      allDay: true,
      // A renewal moves the date later, so the date's day number only grows: clients that compare
      // SEQUENCE take the re-imported event as the newer version.
      sequence: Math.floor(Date.parse(`${data.date}T00:00:00Z`) / DAY_MS),
      summary: t('watch.calendar.summary', { domain: name }),
      description: lines.join('\n'),
    });
    for (const days of data.alarmDaysBefore) {
      created.createAlarm({
        type: ICalAlarmType.display,
        trigger: days * 86_400,
        description:
          days === 0
            ? t('watch.calendar.alarm_today', { domain: name })
            : t('watch.calendar.alarm', { domain: name, count: days }),
      });
    }
    const text = foldLines(created.toString());
    calendar.clear();
    return text.endsWith('\r\n') ? text : `${text}\r\n`;
  };
  return { head: empty.slice(0, end), end: empty.slice(end), event };
}

/**
 * A size the rendered calendar cannot be below, known without rendering it: every event is at least as
 * long as one with the shortest name and no flags, and everything else it holds only adds lines.
 */
export async function calendarBytesAtLeast(data: CalendarData, t: Translator): Promise<number> {
  const first = data.events[0];
  if (!first) return 0;
  const { head, end, event } = await calendarWriter(t);
  const smallest = event({
    domain: 'a',
    date: first.date,
    flags: [],
    alarmDaysBefore: first.alarmDaysBefore,
  });
  return Buffer.byteLength(head) + Buffer.byteLength(end) + data.events.length * Buffer.byteLength(smallest);
}

/**
 * The .ics file rendered an event at a time, giving the event loop back as `budget` says, each piece
 * compressed (in zlib's thread pool) as soon as it is rendered: the whole text is never held.
 */
export async function renderCalendarInTurns(
  data: CalendarData,
  t: Translator,
  budget = new TurnBudget(),
): Promise<RenderedCalendar> {
  const { head, end, event } = await calendarWriter(t);
  const kept: DeflatedPart = { deflated: [], crc: 0, bytes: 0 };
  const add = async (text: string) => appendPart(kept, Buffer.from(text));
  await add(head);
  let piece = '';
  for (let index = 0; index < data.events.length; index++) {
    piece += event(data.events[index] as CalendarEventData);
    if ((index + 1) % EVENTS_PER_CHUNK === 0) {
      await add(piece);
      piece = '';
    }
    if (budget.spent()) await budget.giveBack();
  }
  const last = Buffer.from(piece + end);
  const gzip = await gzipParts(await coalesced(kept), last);
  return {
    gzip,
    gzipBytes: gzip.reduce((sum, chunk) => sum + chunk.length, 0),
    bytes: kept.bytes + last.length,
  };
}

/** The .ics text of a rendered calendar (what Discord gets as a file: 10 MiB at most). */
export async function calendarText(rendered: RenderedCalendar): Promise<string> {
  return (await gunzipped(Buffer.concat(rendered.gzip))).toString('utf8');
}

/** The .ics text in one string (tests, small calendars). */
export async function renderCalendar(data: CalendarData, t: Translator): Promise<string> {
  return calendarText(await renderCalendarInTurns(data, t));
}
