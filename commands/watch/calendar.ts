import { readScopeOf } from '../../src/access/readScopeOf.js';
import type { CommandContext, ReadAnswer } from '../../src/discord/CommandModule.js';
import { message } from '../../src/i18n/Translator.js';
import { Colour } from '../../src/replies/colours.js';
import { UserError } from '../../src/replies/UserError.js';
import { CALENDAR_FILE, calendarJson, calendarText } from '../../src/watch/expiryCalendar.js';
import { count } from '../../src/watch/renderWatchLines.js';
import { watchOf } from './listPage.js';

// /watch calendar: the expiry calendar as an attached .ics file.

/** What Discord takes as one file from a bot in a server without boosts. */
const DISCORD_FILE_LIMIT_BYTES = 10 * 1024 * 1024;

/**
 * Answered in the channel: `context.t` is BOT_LOCALE's. A reader whose grants cover less than everything
 * gets the calendar of the watched domains inside alone, its counts among them.
 */
export async function calendar(context: CommandContext): Promise<ReadAnswer> {
  const { t } = context;
  const watch = watchOf(context);
  const scope = await readScopeOf(context);
  const calendar = await watch.calendar(
    t,
    scope.everything ? undefined : (domain) => scope.covers({ kind: 'domain', ascii: domain }),
  );
  const { data } = calendar;
  if (data.events.length === 0) throw new UserError(message('watch.calendar.empty'));
  const tooLarge = (size: number) => {
    const mb = (bytes: number) => t.number(bytes / 1024 / 1024, { maximumFractionDigits: 1 });
    return new UserError(
      message('watch.calendar.too_large', {
        domains: t('watch.count.domains', { count: data.events.length }),
        size: mb(size),
        limit: mb(DISCORD_FILE_LIMIT_BYTES),
      }),
    );
  };
  // Said at once, before any rendering, when even its smallest possible size is too much.
  if (calendar.bytesAtLeast > DISCORD_FILE_LIMIT_BYTES) throw tooLarge(calendar.bytesAtLeast);
  const rendered = await calendar.render();
  if (rendered.bytes > DISCORD_FILE_LIMIT_BYTES) throw tooLarge(rendered.bytes);
  const ics = await calendarText(rendered);
  const lines = [
    t('watch.calendar.summary_line', {
      events: count(t, data.events.length, 'watch.count.events'),
      file: CALENDAR_FILE,
      leadDays: t.list(watch.settings.leadDays.map(String)),
    }),
  ];
  if (data.withoutDate > 0) {
    lines.push(
      t('watch.calendar.without_date', {
        count: data.withoutDate,
        domains: count(t, data.withoutDate, 'watch.count.domains'),
      }),
    );
  }
  return {
    embeds: [{ title: t('watch.calendar.title'), color: Colour.info, description: lines.join('\n') }],
    files: [{ name: CALENDAR_FILE, content: ics }],
    data: calendarJson(data),
  };
}
