import { type APIEmbed, TimestampStyles, time } from 'discord.js';
import type { ServerLogEntry } from '../../hosting/operations.js';
import { figure, type Translator } from '../../i18n/Translator.js';
import { Colour } from '../../replies/colours.js';
import { escapeUserText } from '../../replies/escapeUserText.js';

export type LogStatusClass = 'success' | 'failure' | 'running' | 'unknown';

const STATUS_CLASSES: Record<Exclude<LogStatusClass, 'unknown'>, ReadonlySet<string>> = {
  success: new Set(['success', 'successful', 'succeeded', 'ok', 'done', 'completed', 'complete', 'finished']),
  failure: new Set([
    'fail',
    'failed',
    'failure',
    'error',
    'errored',
    'aborted',
    'cancelled',
    'canceled',
    'timeout',
  ]),
  running: new Set(['running', 'pending', 'queued', 'in progress', 'started', 'processing', 'waiting']),
};

const STATUS_COLOUR: Record<LogStatusClass, number> = {
  success: Colour.success,
  failure: Colour.danger,
  running: Colour.warning,
  unknown: Colour.neutral,
};

const NONE = '—';
const MAX_TEXT = 200;

/**
 * Sorts the API's free-text status into four classes. Case-insensitive, surrounding blanks ignored,
 * and `_`, `-` and runs of spaces count as one space (so `in_progress`, `In-Progress` and
 * `in progress` are one status). The whole value must match; anything else is `unknown`.
 */
export function classifyLogStatus(status: string): LogStatusClass {
  const normalised = status
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');
  for (const [name, values] of Object.entries(STATUS_CLASSES)) {
    if (values.has(normalised)) return name as LogStatusClass;
  }
  return 'unknown';
}

/**
 * `12 s`, `5 min 30 s`, `5 min`, `2 h 3 min`, `2 h`, `3 d 4 h`: two units at most, rounded down; units
 * and numbers in t's language.
 */
export function formatDuration(milliseconds: number, t: Translator): string {
  const total = Math.floor(Math.max(0, milliseconds) / 1000);
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  type Unit = 'server.duration.seconds' | 'server.duration.minutes' | 'server.duration.hours';
  const pair = (big: number, bigUnit: Unit | 'server.duration.days', small: number, smallUnit: Unit) =>
    small > 0
      ? `${t(bigUnit, { value: figure(big) })} ${t(smallUnit, { value: figure(small) })}`
      : t(bigUnit, { value: figure(big) });
  if (total < 60) return t('server.duration.seconds', { value: figure(seconds) });
  if (total < 3600) return pair(minutes, 'server.duration.minutes', seconds, 'server.duration.seconds');
  if (total < 86_400) return pair(hours, 'server.duration.hours', minutes, 'server.duration.minutes');
  return pair(days, 'server.duration.days', hours, 'server.duration.hours');
}

/** Escaped, or "—" when blank: Discord rejects an empty field value. */
function textOrDash(text: string): string {
  const escaped = escapeUserText(text.trim(), MAX_TEXT);
  return escaped === '' ? NONE : escaped;
}

function isValidDate(date: Date | null): date is Date {
  return date !== null && !Number.isNaN(date.getTime());
}

/** Discord timestamps: every reader sees their own zone and format. */
function describeInstant(date: Date): string {
  return `${time(date, TimestampStyles.LongDateShortTime)} (${time(date, TimestampStyles.RelativeTime)})`;
}

/**
 * One server log entry as an embed. Times are Discord timestamps, so each reader sees them in their
 * own zone. A missing end reads "still running" only when the status says so, "—" otherwise; the
 * duration is "—" unless both ends are known and in order. Words in t's language.
 */
export function renderServerLog(serverId: number, entry: ServerLogEntry, t: Translator): APIEmbed {
  const statusClass = classifyLogStatus(entry.status);
  const start = isValidDate(entry.start) ? entry.start : null;
  const end = isValidDate(entry.end) ? entry.end : null;

  let ended = NONE;
  if (end) ended = describeInstant(end);
  else if (statusClass === 'running') ended = t('server.log.still_running');

  let duration = NONE;
  if (start && end && end.getTime() >= start.getTime()) {
    duration = formatDuration(end.getTime() - start.getTime(), t);
  }

  return {
    title: t('server.log.title', { id: String(serverId) }),
    color: STATUS_COLOUR[statusClass],
    fields: [
      { name: t('server.log.type'), value: textOrDash(entry.type), inline: true },
      { name: t('server.log.status'), value: textOrDash(entry.status), inline: true },
      { name: t('server.log.started'), value: start ? describeInstant(start) : NONE, inline: false },
      { name: t('server.log.ended'), value: ended, inline: false },
      { name: t('server.log.duration'), value: duration, inline: false },
    ],
  };
}
