import type { Translator } from '../i18n/Translator.js';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A calendar day as the provider gives it (`2030-03-04`), shown for the reader's language: English
 * keeps ISO 8601, as HostOps always showed it; other languages get their own format (`04.03.2030`).
 * Anything else is shown as it is.
 */
export function calendarDate(iso: string, t: Pick<Translator, 'locale'>): string {
  if (t.locale === 'en' || !ISO_DATE.test(iso)) return iso;
  const date = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(t.locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
}

/**
 * Parameters of a plural message whose number shows without grouping (`2000 alerts`, as HostOps has
 * always shown day and alert counts): `count` picks the form, `{n}` shows it.
 */
export function counted(t: Pick<Translator, 'number'>, count: number): { count: number; n: string } {
  return { count, n: t.number(count, { useGrouping: false }) };
}
