import { type APIEmbed, TimestampStyles, time } from 'discord.js';
import { DateTime } from 'luxon';
import type { DomainInfo } from '../../hosting/operations.js';
import type { Translator } from '../../i18n/Translator.js';
import { Colour } from '../../replies/colours.js';
import { escapeUserText } from '../../replies/escapeUserText.js';
import { cutText } from '../../text/cutText.js';
import type { ParsedDomain } from '../../validation/parseDomain.js';
import { daysUntil, describeDaysLeft } from './daysUntil.js';

/** Expiring within this many days (0 included) turns the domain embed orange. */
export const EXPIRY_WARNING_DAYS = 30;

/**
 * `<t:…:D>` for a calendar date. Discord shows a timestamp in the reader's zone, so midnight in the
 * API's zone would read as the day before for everyone west of it; noon UTC of that date reads as
 * the same date from UTC−12 to UTC+11.
 */
export function discordDate(date: DateTime): string {
  const noonUtc = DateTime.utc(date.year, date.month, date.day, 12);
  return time(noonUtc.toJSDate(), TimestampStyles.LongDate);
}

/** Something is wrong with the domain itself, whatever its date says. */
export type ExpiryLevel = 'red' | 'orange' | 'green' | 'unknown';

/**
 * The one rule for how bad a domain's state is, for /domain info's colour and /domain expiry's marks.
 * Red: expired (flagged, or the date is past), transferred away, or inactive; orange: expires within
 * `withinDays` (today included); green: later; unknown: no expiry date and nothing red.
 */
export function expiryLevel(
  info: Pick<DomainInfo, 'expired' | 'transferredAway' | 'active'>,
  days: number | null,
  withinDays: number,
): ExpiryLevel {
  if (info.expired || info.transferredAway || !info.active || (days !== null && days < 0)) return 'red';
  if (days === null) return 'unknown';
  return days <= withinDays ? 'orange' : 'green';
}

const LEVEL_COLOUR: Record<ExpiryLevel, number> = {
  red: Colour.danger,
  orange: Colour.orange,
  green: Colour.success,
  unknown: Colour.neutral,
};

/** The mark says whether the value is good news, so "Expired: yes" is never shown with a check mark. */
function flag(value: boolean, good: boolean, t: Translator): string {
  return `${value === good ? '✅' : '❌'} ${value ? t('common.yes') : t('common.no')}`;
}

/**
 * One domain's registration state. Red: expired, transferred away, inactive, or expiry date in the
 * past; orange: expires within 30 days (today included); green: later; neutral: no expiry date and
 * no red flag. In t's language; the date is a Discord timestamp, shown in each reader's own format.
 */
export function renderDomainInfo(
  domain: ParsedDomain,
  info: DomainInfo,
  today: DateTime,
  t: Translator,
): APIEmbed {
  const days = info.expiryDate ? daysUntil(info.expiryDate, today) : null;

  const embed: APIEmbed = {
    title: escapeUserText(domain.unicode, 256),
    color: LEVEL_COLOUR[expiryLevel(info, days, EXPIRY_WARNING_DAYS)],
    fields: [
      {
        name: t('domain.info.expires'),
        value:
          info.expiryDate && days !== null
            ? `${discordDate(info.expiryDate)} (${describeDaysLeft(days, t)})`
            : t('domain.info.unknown'),
        inline: false,
      },
      { name: t('domain.info.active'), value: flag(info.active, true, t), inline: true },
      { name: t('domain.info.expired'), value: flag(info.expired, false, t), inline: true },
      {
        name: t('domain.info.transferred_away'),
        value: flag(info.transferredAway, false, t),
        inline: true,
      },
    ],
  };
  if (domain.ascii !== domain.unicode) {
    embed.description = t('domain.info.punycode', {
      ascii: cutText(domain.ascii.replaceAll('`', ''), 300),
    });
  }
  return embed;
}
