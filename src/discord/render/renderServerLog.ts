import { type APIEmbed, TimestampStyles, time } from 'discord.js';
import type { ServerLogEntry } from '../../hosting/HostingClient.js';
import { Colour } from './colours.js';
import { escapeUserText } from './escapeUserText.js';

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

/** `12 s`, `5 min 30 s`, `5 min`, `2 h 3 min`, `2 h`, `3 d 4 h`: two units at most, rounded down. */
export function formatDuration(milliseconds: number): string {
  const total = Math.floor(Math.max(0, milliseconds) / 1000);
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const pair = (big: number, bigUnit: string, small: number, smallUnit: string) =>
    small > 0 ? `${big} ${bigUnit} ${small} ${smallUnit}` : `${big} ${bigUnit}`;
  if (total < 60) return `${seconds} s`;
  if (total < 3600) return pair(minutes, 'min', seconds, 's');
  if (total < 86_400) return pair(hours, 'h', minutes, 'min');
  return pair(days, 'd', hours, 'h');
}

/** Escaped, or "—" when blank: Discord rejects an empty field value. */
function textOrDash(text: string): string {
  const escaped = escapeUserText(text.trim(), MAX_TEXT);
  return escaped === '' ? NONE : escaped;
}

function isValidDate(date: Date | null): date is Date {
  return date !== null && !Number.isNaN(date.getTime());
}

function describeInstant(date: Date): string {
  return `${time(date, TimestampStyles.LongDateShortTime)} (${time(date, TimestampStyles.RelativeTime)})`;
}

/**
 * One server log entry as an embed. Times are Discord timestamps, so each reader sees them in their
 * own zone. A missing end reads "still running" only when the status says so, "—" otherwise; the
 * duration is "—" unless both ends are known and in order.
 */
export function renderServerLog(serverId: number, entry: ServerLogEntry): APIEmbed {
  const statusClass = classifyLogStatus(entry.status);
  const start = isValidDate(entry.start) ? entry.start : null;
  const end = isValidDate(entry.end) ? entry.end : null;

  let ended = NONE;
  if (end) ended = describeInstant(end);
  else if (statusClass === 'running') ended = 'still running';

  let duration = NONE;
  if (start && end && end.getTime() >= start.getTime()) {
    duration = formatDuration(end.getTime() - start.getTime());
  }

  return {
    title: `Server ${serverId} — log entry`,
    color: STATUS_COLOUR[statusClass],
    fields: [
      { name: 'Type', value: textOrDash(entry.type), inline: true },
      { name: 'Status', value: textOrDash(entry.status), inline: true },
      { name: 'Started', value: start ? describeInstant(start) : NONE, inline: false },
      { name: 'Ended', value: ended, inline: false },
      { name: 'Duration', value: duration, inline: false },
    ],
  };
}
