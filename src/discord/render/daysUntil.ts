import type { DateTime } from 'luxon';

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

/** `in 12 days`, `in 1 day`, `today`, `expired 1 day ago`, `expired 40 days ago`. */
export function describeDaysLeft(days: number): string {
  if (days === 0) return 'today';
  const count = Math.abs(days);
  const unit = count === 1 ? 'day' : 'days';
  return days > 0 ? `in ${count} ${unit}` : `expired ${count} ${unit} ago`;
}
