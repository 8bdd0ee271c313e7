import { translationOf } from '../defineMessages.js';

/** Words several areas use. */
export const en = {
  'common.sandbox_notice':
    '🧪 **{label}** — made-up data from the built-in sandbox, kept in a throwaway store of its own (`DATABASE_URL` is not used); nothing real is read or changed.',
  'common.yes': 'yes',
  'common.no': 'no',
  'common.field_cut_one': '… ({count} character, not all shown)',
  'common.field_cut_other': '… ({count} characters, not all shown)',
  // A read's deferred answer while its request waits for one of HostOps' own connections to the provider.
  'common.waiting_next': '⏳ Waiting for a connection to the provider — next in line.',
  'common.waiting_one': '⏳ Waiting for a connection to the provider — {count} request ahead.',
  'common.waiting_other': '⏳ Waiting for a connection to the provider — {count} requests ahead.',
  // A calendar day, as luxon formats it: ISO 8601 in English, as HostOps always showed it.
  'common.date_format': 'yyyy-MM-dd',
} as const;

export const de = translationOf(en)({
  'common.sandbox_notice':
    '🧪 **{label}** — erfundene Daten aus der eingebauten Sandbox, in einem eigenen Wegwerf-Speicher (`DATABASE_URL` wird nicht verwendet); nichts wird wirklich gelesen oder geändert.',
  'common.yes': 'ja',
  'common.no': 'nein',
  'common.field_cut_one': '… ({count} Zeichen, nicht alles angezeigt)',
  'common.field_cut_other': '… ({count} Zeichen, nicht alles angezeigt)',
  'common.waiting_next': '⏳ Warte auf eine Verbindung zum Provider — als Nächstes an der Reihe.',
  'common.waiting_one': '⏳ Warte auf eine Verbindung zum Provider — {count} Anfrage davor.',
  'common.waiting_other': '⏳ Warte auf eine Verbindung zum Provider — {count} Anfragen davor.',
  'common.date_format': 'dd.MM.yyyy',
});
