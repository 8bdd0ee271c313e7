import type { DateTime } from 'luxon';
import type { Translator } from '../../i18n/Translator.js';

/**
 * Whole calendar days from `today` to `expiry`, negative when the expiry is past. Both are taken as
 * calendar dates in expiry's zone (the API's zone), so a DST change or the reader's own zone cannot
 * shift the answer by a day.
 */
export function daysUntil(expiry: DateTime, today: DateTime): number {
  const expiryDay = expiry.startOf('day');
  const todayDay = today.setZone(expiry.zone).startOf('day');
  // `+ 0` turns a -0 into 0.
  return Math.round(expiryDay.diff(todayDay, 'days').days) + 0;
}

/** `in 12 days`, `in 1 day`, `today`, `expired 1 day ago`, `expired 40 days ago` (in t's language). */
export function describeDaysLeft(days: number, t: Translator): string {
  if (days === 0) return t('domain.days.today');
  const count = Math.abs(days);
  return days > 0 ? t('domain.days.in', { count }) : t('domain.days.ago', { count });
}
