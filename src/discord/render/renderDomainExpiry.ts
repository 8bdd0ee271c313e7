import type { APIEmbed } from 'discord.js';
import type { DateTime } from 'luxon';
import type { DomainInfo } from '../../hosting/operations.js';
import type { Translator } from '../../i18n/Translator.js';
import { Colour } from '../../replies/colours.js';
import { escapeUserText } from '../../replies/escapeUserText.js';
import { cutText } from '../../text/cutText.js';
import type { ParsedDomain } from '../../validation/parseDomain.js';
import { daysUntil, describeDaysLeft } from './daysUntil.js';
import { expiryLevel } from './renderDomainInfo.js';

export interface ExpiryResult {
  domain: ParsedDomain;
  info?: DomainInfo;
  /** Already a short user-facing reason; wins over `info` when both are set. */
  error?: string;
  /** Already in the reader's language, after the line (the registry's word: commands/domain/registryBeside.ts). */
  note?: string;
}

export interface InvalidDomainInput {
  input: string;
  /** Already in the reader's language. */
  reason: string;
}

/** Discord's limits, see https://discord.com/developers/docs/resources/message#embed-object-embed-limits */
export const EmbedLimits = {
  title: 256,
  description: 4096,
  embedsPerMessage: 10,
  charactersPerMessage: 6000,
} as const;

export const ExpiryMark = {
  red: '🔴',
  orange: '🟠',
  green: '🟢',
  unknown: '⚪',
  failed: '⚠️',
  invalid: '❔',
} as const;

const MAX_DOMAIN = 300;
const MAX_REASON = 200;
const MAX_INPUT = 100;

interface Line {
  /** 0 known expiry, 1 unknown expiry, 2 failed, 3 invalid input. */
  group: number;
  days: number;
  name: string;
  text: string;
}

interface Tally {
  checked: number;
  within: number;
  expired: number;
  transferred: number;
  inactive: number;
  failed: number;
  invalid: number;
}

/** Code unit order: the same on every machine, whatever its locale data. */
function compareNames(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

function describeResult(
  result: ExpiryResult,
  withinDays: number,
  today: DateTime,
  tally: Tally,
  t: Translator,
): Line {
  const name = escapeUserText(result.domain.unicode, MAX_DOMAIN);
  tally.checked += 1;
  const info = result.error === undefined ? result.info : undefined;
  if (!info) {
    tally.failed += 1;
    const reason =
      escapeUserText((result.error ?? t('domain.expiry.no_answer')).trim(), MAX_REASON) ||
      t('domain.expiry.unknown_error');
    return {
      group: 2,
      days: 0,
      name: result.domain.unicode,
      text: `${ExpiryMark.failed} **${name}** — ${t('domain.expiry.check_failed', { reason })}`,
    };
  }

  const days = info.expiryDate ? daysUntil(info.expiryDate, today) : null;
  const expired = info.expired || (days !== null && days < 0);
  const within = !expired && days !== null && days <= withinDays;
  if (expired) tally.expired += 1;
  if (within) tally.within += 1;
  if (info.transferredAway) tally.transferred += 1;
  if (!info.active) tally.inactive += 1;

  const mark = ExpiryMark[expiryLevel(info, days, withinDays)];

  const flags: string[] = [];
  // A date in the past already says "expired …"; the flag is worth a word only when the date does not.
  if (info.expired && (days === null || days >= 0)) flags.push(t('domain.expiry.flag_expired'));
  if (info.transferredAway) flags.push(t('domain.expiry.flag_transferred'));
  if (!info.active) flags.push(t('domain.expiry.flag_inactive'));
  const flagText = flags.map((flag) => ` · ${flag}`).join('');

  const when =
    info.expiryDate && days !== null
      ? `${info.expiryDate.toFormat(t('common.date_format'))} (${describeDaysLeft(days, t)})`
      : t('domain.expiry.date_unknown');
  return {
    group: days === null ? 1 : 0,
    days: days ?? 0,
    name: result.domain.unicode,
    text: `${mark} **${name}** — ${when}${flagText}${result.note ?? ''}`,
  };
}

function describeInvalid(invalid: InvalidDomainInput, tally: Tally, t: Translator): Line {
  tally.invalid += 1;
  const input = escapeUserText(invalid.input.trim(), MAX_INPUT) || t('domain.expiry.empty_input');
  const reason = escapeUserText(invalid.reason.trim(), MAX_REASON) || t('domain.expiry.invalid_reason');
  return {
    group: 3,
    days: 0,
    name: '',
    text: `${ExpiryMark.invalid} **${input}** — ${t('domain.expiry.invalid', { reason })}`,
  };
}

function summarise(tally: Tally, withinDays: number, t: Translator): string {
  const parts = [
    t('domain.expiry.summary_checked', { count: tally.checked }),
    t('domain.expiry.summary_within', {
      count: tally.within,
      days: t('domain.expiry.days', { count: withinDays }),
    }),
    t('domain.expiry.summary_expired', { count: tally.expired }),
    t('domain.expiry.summary_transferred', { count: tally.transferred }),
  ];
  if (tally.inactive > 0) parts.push(t('domain.expiry.summary_inactive', { count: tally.inactive }));
  parts.push(t('domain.expiry.summary_failed', { count: tally.failed }));
  if (tally.invalid > 0) parts.push(t('domain.expiry.summary_invalid', { count: tally.invalid }));
  return parts.join(' · ');
}

/** Cuts a line that could not fit even alone (it cannot happen with the caps above, but never throw). */
function fitLine(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = cutText(text, max - 1, '');
  // Drop a trailing lone backslash so the ellipsis is not escaped into something else.
  return `${cut.replace(/\\+$/, (slashes) => (slashes.length % 2 === 0 ? slashes : slashes.slice(1)))}…`;
}

/** Packs lines into embeds and messages, first fit in order, never breaking a Discord limit. */
function pack(lines: string[], color: number, titles: { first: string; continued: string }): APIEmbed[][] {
  const messages: APIEmbed[][] = [];
  let message: APIEmbed[] = [];
  let messageLength = 0;
  let embed: APIEmbed | undefined;

  const startEmbed = (title?: string) => {
    embed = { color, description: '' };
    if (title) embed.title = title;
    message.push(embed);
    messageLength += title?.length ?? 0;
    return embed;
  };
  const startMessage = () => {
    message = [];
    messageLength = 0;
    messages.push(message);
    return startEmbed(messages.length === 1 ? titles.first : titles.continued);
  };

  for (const raw of lines) {
    const line = fitLine(raw, EmbedLimits.description);
    let target = embed ?? startMessage();
    const description = target.description ?? '';
    const added = description === '' ? line.length : line.length + 1;
    if (
      description.length + added > EmbedLimits.description ||
      messageLength + added > EmbedLimits.charactersPerMessage
    ) {
      // Another embed in this message if both its count and the message total allow, else a new message
      // (whose title plus one line of at most 4096 always fits in 6000).
      const roomForEmbed =
        message.length < EmbedLimits.embedsPerMessage &&
        messageLength + line.length <= EmbedLimits.charactersPerMessage;
      target = roomForEmbed ? startEmbed() : startMessage();
    }
    const current = target.description ?? '';
    target.description = current === '' ? line : `${current}\n${line}`;
    messageLength += current === '' ? line.length : line.length + 1;
  }
  return messages;
}

/**
 * The answer to a bulk expiry check, as one or more messages of at most 10 embeds and 6000 characters
 * each, every description within 4096. The first embed opens with a summary line:
 * `N checked · X expire within W days · Y expired · Z transferred away · F failed`, then
 * ` · K inactive` and ` · I invalid` when those are not zero. Counting:
 * - checked: every result (failed API calls included, invalid inputs not: they were never checked);
 * - within: known expiry 0..W days away and not expired; expired: flagged expired or date past;
 * - failed: results with an error; invalid inputs have their own count.
 *
 * One line per domain: known expiry by days left (expired first), then unknown expiry, then failures,
 * then invalid inputs; ties by name. Every embed shares one colour: red if anything is expired,
 * transferred away, inactive, failed or invalid; orange if anything expires within the window; green
 * otherwise. Words, numbers and dates in t's language (the summary above is the English form).
 */
export function renderDomainExpiry(
  results: ExpiryResult[],
  withinDays: number,
  today: DateTime,
  t: Translator,
  invalid: InvalidDomainInput[] = [],
): APIEmbed[][] {
  const tally: Tally = {
    checked: 0,
    within: 0,
    expired: 0,
    transferred: 0,
    inactive: 0,
    failed: 0,
    invalid: 0,
  };
  const described = results.map((result) => describeResult(result, withinDays, today, tally, t));
  described.sort((a, b) => a.group - b.group || a.days - b.days || compareNames(a.name, b.name));
  const invalidLines = invalid.map((entry) => describeInvalid(entry, tally, t));

  let color: number = Colour.success;
  if (tally.expired + tally.transferred + tally.inactive + tally.failed + tally.invalid > 0) {
    color = Colour.danger;
  } else if (tally.within > 0) {
    color = Colour.orange;
  }

  // The summary's trailing `\n` becomes a blank line once joined to the next line.
  const body = [...described, ...invalidLines].map((line) => line.text);
  return pack(
    [`${summarise(tally, withinDays, t)}\n`, ...(body.length > 0 ? body : [t('domain.expiry.none')])],
    color,
    { first: t('domain.expiry.title'), continued: t('domain.expiry.continued_title') },
  );
}
