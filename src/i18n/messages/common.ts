import { translationOf } from '../defineMessages.js';

/** Words several areas use. */
export const en = {
  'common.sandbox_notice':
    '🧪 **{label}** — made-up data from the built-in sandbox, kept in a throwaway store of its own (`DATABASE_URL` is not used); nothing real is read or changed.',
  'common.yes': 'yes',
  'common.no': 'no',
  'common.field_cut': '… ({count} characters, not all shown)',
  // A calendar day, as luxon formats it: ISO 8601 in English, as HostOps always showed it.
  'common.date_format': 'yyyy-MM-dd',
} as const;

export const de = translationOf(en)({
  'common.sandbox_notice':
    '🧪 **{label}** — erfundene Daten aus der eingebauten Sandbox, in einem eigenen Wegwerf-Speicher (`DATABASE_URL` wird nicht verwendet); nichts wird wirklich gelesen oder geändert.',
  'common.yes': 'ja',
  'common.no': 'nein',
  'common.field_cut': '… ({count} Zeichen, nicht alles angezeigt)',
  'common.date_format': 'dd.MM.yyyy',
});
