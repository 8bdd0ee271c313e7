import { DateTime } from 'luxon';
import type { Translator } from '../i18n/Translator.js';

/**
 * A calendar day as the provider gives it (`2030-03-04`), in the reader's language's date format (the
 * one /domain expiry uses too). Anything else is shown as it is.
 */
export function calendarDate(iso: string, t: Translator): string {
  const date = DateTime.fromISO(iso, { zone: 'utc' });
  return /^\d{4}-\d{2}-\d{2}$/.test(iso) && date.isValid ? date.toFormat(t('common.date_format')) : iso;
}

/**
 * Parameters of a plural message whose number shows without grouping (`2000 alerts`, as HostOps has
 * always shown day and alert counts): `count` picks the form, `{n}` shows it.
 */
export function counted(t: Pick<Translator, 'number'>, count: number): { count: number; n: string } {
  return { count, n: t.number(count, { useGrouping: false }) };
}
