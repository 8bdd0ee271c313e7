import { TimestampStyles, time } from 'discord.js';
import { figure, type Message, type Translator } from '../i18n/Translator.js';
import { escapeUserText } from '../replies/escapeUserText.js';
import type { WatchedDomain } from '../store/index.js';
import { calendarDate } from './formatDate.js';

// The lines /watch answers are made of: a watched domain with its days left and flags, name lists.

/** Invalid or not-watched names listed in an answer; the rest are counted. */
const LISTED_NAMES = 15;
export type Counted =
  | 'watch.count.domains'
  | 'watch.count.runs'
  | 'watch.count.alerts'
  | 'watch.count.messages'
  | 'watch.count.events';
export const count = (t: Translator, n: number, what: Counted) => t(what, { count: n });

export function shown(domain: string, unicode = domain): string {
  return escapeUserText(unicode === domain ? domain : `${unicode} (${domain})`, 100);
}

/** A few names (already shown) in one line, the rest counted. */
export function nameList(names: readonly string[], t: Translator): string {
  const listed = names.slice(0, LISTED_NAMES).join(', ');
  const more = names.length - LISTED_NAMES;
  return more > 0 ? t('watch.more_names', { names: listed, more: figure(more) }) : listed;
}

export interface InvalidEntry {
  input: string;
  reason: Message;
}

export function invalidLines(invalid: readonly InvalidEntry[], t: Translator): string[] {
  const lines = invalid
    .slice(0, LISTED_NAMES)
    .map((entry) => `• ${escapeUserText(entry.input, 80)}: ${escapeUserText(t.render(entry.reason), 120)}`);
  if (invalid.length > LISTED_NAMES) {
    lines.push(t('watch.more_lines', { more: figure(invalid.length - LISTED_NAMES) }));
  }
  return lines;
}

/** What the last run saw that needs attention, in words. */
export function watchFlags(row: WatchedDomain, t: Translator): string[] {
  const flags: string[] = [];
  if (row.status === 'not_found') flags.push(t('watch.flag.not_found'));
  if (row.active === false) flags.push(t('watch.flag.inactive'));
  if (row.expired === true) flags.push(t('watch.flag.expired'));
  if (row.transferredAway === true) flags.push(t('watch.flag.transferred_away'));
  if (row.failures > 0) {
    flags.push(t('watch.list.failing', { runs: count(t, row.failures, 'watch.count.runs') }));
  }
  return flags;
}

function daysText(days: number | null, row: WatchedDomain, t: Translator): string {
  if (days === null) {
    if (row.status === 'new') return t('watch.list.not_checked_yet');
    return row.status === 'ok' ? t('watch.list.no_expiry_date') : t('watch.list.unknown');
  }
  // As always shown: no grouping (`3650 d`).
  return t('watch.list.days', { days: t.number(days, { useGrouping: false }) });
}

/** What a line needs of the watch (DomainWatch has it): the days left of a stored expiry date. */
export interface DaysLeft {
  daysLeft(expiryDate: string | null): number | null;
}

export function renderWatchLine(watch: DaysLeft, row: WatchedDomain, t: Translator): string {
  const flags = watchFlags(row, t);
  const parts = [
    daysText(watch.daysLeft(row.expiryDate), row, t),
    shown(row.domain, row.unicode),
    ...(row.expiryDate ? [calendarDate(row.expiryDate, t)] : []),
    ...(flags.length > 0 ? [`⚠️ ${flags.join(', ')}`] : []),
    row.checkedAt
      ? t('watch.list.checked', { when: time(row.checkedAt, TimestampStyles.RelativeTime) })
      : t('watch.list.never_checked'),
  ];
  return parts.join(' · ');
}
