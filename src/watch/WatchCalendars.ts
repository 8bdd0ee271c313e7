import type { Locale } from '../i18n/locales.js';
import type { Translator } from '../i18n/Translator.js';
import { TurnBudget } from '../TurnBudget.js';
import {
  CalendarCollector,
  type CalendarData,
  calendarBytesAtLeast,
  type RenderedCalendar,
  renderCalendarInTurns,
} from './expiryCalendar.js';
import { OncePerChange } from './OncePerChange.js';
import { type WatchData, watchPages } from './watchPages.js';

/** The calendar of the current watch data: its events, a size it is at least, and its text when asked. */
export interface WatchCalendar {
  /** The store's change stamp it was computed for (the URL's ETag). */
  stamp: string;
  data: CalendarData;
  /** Known before rendering: what cannot fit a limit is said at once. */
  bytesAtLeast: number;
  /** Rendered in turns on first use, then kept until the watch data changes. */
  render(): Promise<RenderedCalendar>;
}

/** The calendar in each language asked for, computed once per change of the watch data. */
export class WatchCalendars {
  readonly #byLocale = new Map<Locale, OncePerChange<Omit<WatchCalendar, 'stamp'>>>();

  constructor(
    private readonly watch: Pick<WatchData, 'changeStamp' | 'page'>,
    private readonly leadDays: readonly number[],
  ) {}

  async get(t: Translator): Promise<WatchCalendar> {
    let cached = this.#byLocale.get(t.locale);
    if (!cached) {
      cached = new OncePerChange(
        () => this.watch.changeStamp(),
        () => this.#compute(t),
      );
      this.#byLocale.set(t.locale, cached);
    }
    const { stamp, value } = await cached.get();
    return { stamp, ...value };
  }

  /** The calendar of the domains `covers` takes alone (a reader's read scope), computed for this call. */
  async only(t: Translator, covers: (domain: string) => boolean): Promise<WatchCalendar> {
    const stamp = await this.watch.changeStamp();
    return { stamp, ...(await this.#compute(t, covers)) };
  }

  async #compute(t: Translator, covers?: (domain: string) => boolean): Promise<Omit<WatchCalendar, 'stamp'>> {
    const budget = new TurnBudget();
    const collector = new CalendarCollector(this.leadDays, t);
    for await (const page of watchPages(this.watch, budget))
      await collector.add(covers ? page.filter((row) => covers(row.domain)) : page, budget);
    const data = await collector.data(budget);
    let rendered: Promise<RenderedCalendar> | undefined;
    return {
      data,
      bytesAtLeast: await calendarBytesAtLeast(data, t),
      render: () => {
        rendered ??= renderCalendarInTurns(data, t, new TurnBudget()).catch((error: unknown) => {
          rendered = undefined;
          throw error;
        });
        return rendered;
      },
    };
  }
}
