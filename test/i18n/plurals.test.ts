import { describe, expect, it } from 'vitest';
import { english } from '../../src/i18n/catalogue.js';
import { LOCALES, type Locale } from '../../src/i18n/locales.js';
import {
  figure,
  type ParamsOf,
  type PluralKey,
  type Translator,
  translator,
} from '../../src/i18n/Translator.js';
import { counted } from '../../src/watch/formatDate.js';

/**
 * Every counted message (each `…_one` / `…_other` pair of the catalogue), as the reader sees it for 0,
 * 1, 2 and 5 in each language: `#` stands for the count. A `Record` over the pairs, so a new pair
 * without its row here fails the typecheck; a count given to a plain message fails it at the caller
 * (see src/i18n/catalogue.ts).
 */
type Forms = readonly [one: string, other: string];
type Row<K extends PluralKey> = {
  /** The message's other placeholders, for the count shown (a nested count agrees with it). */
  params?: (count: number, t: Translator) => Omit<ParamsOf<K>, 'count'>;
} & Record<Locale, Forms>;

const rows: { [K in PluralKey]: Row<K> } = {
  'common.field_cut': {
    en: ['… (# character, not all shown)', '… (# characters, not all shown)'],
    de: ['… (# Zeichen, nicht alles angezeigt)', '… (# Zeichen, nicht alles angezeigt)'],
  },
  'common.waiting': {
    en: [
      '⏳ Waiting for a connection to the provider — # request ahead.',
      '⏳ Waiting for a connection to the provider — # requests ahead.',
    ],
    de: [
      '⏳ Warte auf eine Verbindung zum Provider — # Anfrage davor.',
      '⏳ Warte auf eine Verbindung zum Provider — # Anfragen davor.',
    ],
  },
  'changes.read_back.still_unknown': {
    params: () => ({ reference: '<reference>' }),
    en: [
      '**Outcome still unknown** after # check. Check before trying again; `/audit outcome:unknown` lists it. <reference>',
      '**Outcome still unknown** after # checks. Check before trying again; `/audit outcome:unknown` lists it. <reference>',
    ],
    de: [
      '**Ergebnis weiterhin unbekannt** nach # Prüfung. Prüf es, bevor du es noch einmal versuchst; `/audit ergebnis:unbekannt` listet die Änderung. <reference>',
      '**Ergebnis weiterhin unbekannt** nach # Prüfungen. Prüf es, bevor du es noch einmal versuchst; `/audit ergebnis:unbekannt` listet die Änderung. <reference>',
    ],
  },
  'validation.option.length': {
    en: ['is # character long', 'is # characters long'],
    de: ['ist # Zeichen lang', 'ist # Zeichen lang'],
  },
  'domain.days.in': {
    en: ['in # day', 'in # days'],
    de: ['in # Tag', 'in # Tagen'],
  },
  'domain.days.ago': {
    en: ['expired # day ago', 'expired # days ago'],
    de: ['seit # Tag abgelaufen', 'seit # Tagen abgelaufen'],
  },
  'domain.expiry.summary_checked': {
    en: ['# checked', '# checked'],
    de: ['# geprüft', '# geprüft'],
  },
  'domain.expiry.summary_within': {
    params: (_n, t) => ({ days: t('domain.expiry.days', { count: 30 }) }),
    en: ['# expires within 30 days', '# expire within 30 days'],
    de: ['# läuft innerhalb von 30 Tagen ab', '# laufen innerhalb von 30 Tagen ab'],
  },
  'domain.expiry.days': {
    en: ['# day', '# days'],
    de: ['# Tag', '# Tagen'],
  },
  'domain.expiry.summary_expired': {
    en: ['# expired', '# expired'],
    de: ['# abgelaufen', '# abgelaufen'],
  },
  'domain.expiry.summary_transferred': {
    en: ['# transferred away', '# transferred away'],
    de: ['# wegtransferiert', '# wegtransferiert'],
  },
  'domain.expiry.summary_inactive': {
    en: ['# inactive', '# inactive'],
    de: ['# inaktiv', '# inaktiv'],
  },
  'domain.expiry.summary_failed': {
    en: ['# failed', '# failed'],
    de: ['# fehlgeschlagen', '# fehlgeschlagen'],
  },
  'domain.expiry.summary_invalid': {
    en: ['# invalid', '# invalid'],
    de: ['# ungültig', '# ungültig'],
  },
  'domain.dns.records_field': {
    en: ['Records (#)', 'Records (#)'],
    de: ['Einträge (#)', 'Einträge (#)'],
  },
  'domain.dns.not_shown': {
    params: () => ({ characters: '<characters>', total: '<total>', file: '<file>' }),
    en: [
      '… # more record (<characters> characters) not shown here: all <total> are in the attached <file>, exactly as they will be sent.',
      '… # more records (<characters> characters) not shown here: all <total> are in the attached <file>, exactly as they will be sent.',
    ],
    de: [
      '… # weiterer Eintrag (<characters> Zeichen) hier nicht angezeigt: alle <total> stehen in der angehängten Datei <file>, genau so, wie sie gesendet werden.',
      '… # weitere Einträge (<characters> Zeichen) hier nicht angezeigt: alle <total> stehen in der angehängten Datei <file>, genau so, wie sie gesendet werden.',
    ],
  },
  'domain.dns.too_large': {
    params: () => ({ total: '<total>', max: '<max>' }),
    en: [
      'this record makes a request of <total> bytes; the provider takes at most <max> (HOSTING_API_MAX_URL_BYTES)',
      'these # records make a request of <total> bytes; the provider takes at most <max> (HOSTING_API_MAX_URL_BYTES)',
    ],
    de: [
      'dieser Eintrag ergibt eine Anfrage von <total> Byte; der Provider nimmt höchstens <max> (HOSTING_API_MAX_URL_BYTES)',
      'diese # Einträge ergeben eine Anfrage von <total> Byte; der Provider nimmt höchstens <max> (HOSTING_API_MAX_URL_BYTES)',
    ],
  },
  'domain.dns.fit': {
    en: ['at most the first record in one request', 'at most # of these records in one request'],
    de: ['höchstens den ersten Eintrag in einer Anfrage', 'höchstens # dieser Einträge in einer Anfrage'],
  },
  'domain.dns.count': {
    en: ['# record', '# records'],
    de: ['# Eintrag', '# Einträge'],
  },
  'domain.dns.outdated.removes': {
    params: () => ({ records: '<records>' }),
    en: ['# record: <records>', '# records: <records>'],
    de: ['# Eintrag (<records>)', '# Einträge (<records>)'],
  },
  'musicbot.size': {
    params: () => ({ size: '<size>' }),
    en: ['# byte (<size>)', '# bytes (<size>)'],
    de: ['# Byte (<size>)', '# Byte (<size>)'],
  },
  'audit.export.all': {
    params: () => ({ file: '<file>' }),
    en: ['📎 `<file>` holds all # match.', '📎 `<file>` holds all # matches.'],
    de: ['📎 `<file>` enthält # Treffer.', '📎 `<file>` enthält alle # Treffer.'],
  },
  'watch.count.domains': {
    en: ['# domain', '# domains'],
    de: ['# Domain', '# Domains'],
  },
  'watch.count.runs': {
    en: ['# run', '# runs'],
    de: ['# Lauf', '# Läufe'],
  },
  'watch.count.alerts': {
    en: ['# alert', '# alerts'],
    de: ['# Warnung', '# Warnungen'],
  },
  'watch.count.messages': {
    en: ['# message', '# messages'],
    de: ['# Nachricht', '# Nachrichten'],
  },
  'watch.add.full': {
    params: () => ({ limit: figure(1000), watched: figure(998) }),
    en: [
      'Nothing was added: the watch list holds at most 1,000 domains (`WATCH_MAX_DOMAINS`), it has 998, and the # new one would take it past that. Remove domains with `/watch remove` first, or have the limit raised.',
      'Nothing was added: the watch list holds at most 1,000 domains (`WATCH_MAX_DOMAINS`), it has 998, and the # new ones would take it past that. Remove domains with `/watch remove` first, or have the limit raised.',
    ],
    de: [
      'Nichts hinzugefügt: Die Überwachungsliste fasst höchstens 1.000 Domains (`WATCH_MAX_DOMAINS`), sie hat 998, und die # neue würde darüber hinausgehen. Entferne zuerst Domains mit `/watch remove` oder lass das Limit anheben.',
      'Nichts hinzugefügt: Die Überwachungsliste fasst höchstens 1.000 Domains (`WATCH_MAX_DOMAINS`), sie hat 998, und die # neuen würden darüber hinausgehen. Entferne zuerst Domains mit `/watch remove` oder lass das Limit anheben.',
    ],
  },
  'watch.add.looking_up': {
    params: (n, t) => ({ domains: t('watch.count.domains', { count: n }), concurrency: figure(4) }),
    en: [
      'Looking up the # domain just added now: this message shows its expiry when done.',
      'Looking up the # domains just added now (4 at a time): this message lists the soonest expiries when done.',
    ],
    de: [
      'Die # Domain, die eben hinzugekommen ist, wird jetzt abgefragt: Diese Nachricht zeigt danach ihren Ablauf.',
      'Die # Domains, die eben hinzugekommen sind, werden jetzt abgefragt (4 gleichzeitig): Diese Nachricht zeigt danach die nächsten Abläufe.',
    ],
  },
  'watch.add.looked_up': {
    params: (n, t) => ({
      domains: t('watch.count.domains', { count: n }),
      seconds: '1.5',
      failed: figure(0),
    }),
    en: [
      'Looked up the # domain just added in 1.5 s: 0 failed.',
      'Looked up the # domains just added in 1.5 s: 0 failed.',
    ],
    de: [
      'Die # Domain, die eben hinzugekommen ist, wurde in 1.5 s abgefragt: 0 fehlgeschlagen.',
      'Die # Domains, die eben hinzugekommen sind, wurden in 1.5 s abgefragt: 0 fehlgeschlagen.',
    ],
  },
  'watch.digest.title': {
    params: (n, t) => ({ n: counted(t, n).n }),
    en: ['Domain watch: # alert', 'Domain watch: # alerts'],
    de: ['Domain-Überwachung: # Warnung', 'Domain-Überwachung: # Warnungen'],
  },
  'watch.alert.expires_in': {
    params: (n, t) => ({ n: counted(t, n).n }),
    en: ['expires in # day', 'expires in # days'],
    de: ['läuft in # Tag ab', 'läuft in # Tagen ab'],
  },
  'watch.alert.expired_ago': {
    params: (n, t) => ({ n: counted(t, n).n }),
    en: ['expired # day ago', 'expired # days ago'],
    de: ['ist seit # Tag abgelaufen', 'ist seit # Tagen abgelaufen'],
  },
  'watch.alert.expiry': {
    params: (n, t) => ({ name: '<name>', when: '<when>', date: '<date>', n: counted(t, n).n }),
    en: ['⏰ <name> <when> (<date>; ≤ # day)', '⏰ <name> <when> (<date>; ≤ # days)'],
    de: ['⏰ <name> <when> (<date>; ≤ # Tag)', '⏰ <name> <when> (<date>; ≤ # Tage)'],
  },
  'watch.alert.failing': {
    params: (n, t) => ({ name: '<name>', reason: '<reason>', n: counted(t, n).n }),
    en: [
      '⚠️ <name> could not be checked # run in a row (<reason>)',
      '⚠️ <name> could not be checked # runs in a row (<reason>)',
    ],
    de: [
      '⚠️ <name> konnte # Lauf in Folge nicht geprüft werden (<reason>)',
      '⚠️ <name> konnte # Läufe in Folge nicht geprüft werden (<reason>)',
    ],
  },
  'watch.calendar.alarm': {
    params: () => ({ domain: '<domain>' }),
    en: ['<domain> expires in # day', '<domain> expires in # days'],
    de: ['<domain> läuft in # Tag ab', '<domain> läuft in # Tagen ab'],
  },
  'watch.calendar.without_date': {
    params: (n, t) => ({ domains: t('watch.count.domains', { count: n }) }),
    en: [
      '# domain without a known expiry date is not in it.',
      '# domains without a known expiry date are not in it.',
    ],
    de: [
      '# Domain ohne bekanntes Ablaufdatum ist nicht enthalten.',
      '# Domains ohne bekanntes Ablaufdatum sind nicht enthalten.',
    ],
  },
  'rdap.expiry.asking': {
    en: [
      'Asking the registry about # domain: its word follows in a message of its own.',
      'Asking the registry about # domains: its word follows in a message of its own.',
    ],
    de: [
      'Die Registry wird zu # Domain gefragt: ihre Antwort folgt in einer eigenen Nachricht.',
      'Die Registry wird zu # Domains gefragt: ihre Antwort folgt in einer eigenen Nachricht.',
    ],
  },
  'rdap.expiry.title': {
    en: ["The registry's word on # domain", "The registry's word on # domains"],
    de: ['Was die Registry zu # Domain sagt', 'Was die Registry zu # Domains sagt'],
  },
  'rdap.watch.paused': {
    params: () => ({ tlds: '.org', until: '14:20' }),
    en: [
      'the registry for .org asks us to wait until 14:20: # domain not checked there (asked on the next run)',
      'the registry for .org asks us to wait until 14:20: # domains not checked there (asked on the next run)',
    ],
    de: [
      'die Registry für .org bittet uns, bis 14:20 zu warten: # Domain dort nicht geprüft (im nächsten Lauf gefragt)',
      'die Registry für .org bittet uns, bis 14:20 zu warten: # Domains dort nicht geprüft (im nächsten Lauf gefragt)',
    ],
  },
  'rdap.watch.deadline': {
    params: () => ({ tlds: '.org' }),
    en: [
      "the registry for .org could not be asked about # domain before the run's deadline (asked on the next run)",
      "the registry for .org could not be asked about # domains before the run's deadline (asked on the next run)",
    ],
    de: [
      'die Registry für .org konnte vor dem Ende des Laufs nicht zu # Domain gefragt werden (im nächsten Lauf gefragt)',
      'die Registry für .org konnte vor dem Ende des Laufs nicht zu # Domains gefragt werden (im nächsten Lauf gefragt)',
    ],
  },
  'watch.count.events': {
    en: ['# event', '# events'],
    de: ['# Termin', '# Termine'],
  },
};

// The plural category of each count in English and German: 1 is "one", 0, 2 and 5 are "other".
const COUNTS = [
  [0, 'other'],
  [1, 'one'],
  [2, 'other'],
  [5, 'other'],
] as const;

describe('counted messages', () => {
  const keys = Object.keys(rows) as PluralKey[];

  it('every …_one / …_other pair of the catalogue has its row', () => {
    const pairs = Object.keys(english)
      .filter((key) => key.endsWith('_one'))
      .map((key) => key.slice(0, -'_one'.length));
    expect([...keys].sort()).toEqual(pairs.sort());
  });

  describe.each(LOCALES)('%s', (locale) => {
    const t = translator(locale);
    it.each(COUNTS)('%i: the %s form of every counted message', (count, form) => {
      for (const key of keys) {
        const row = rows[key] as Row<PluralKey>;
        const params = { ...row.params?.(count, t), count };
        const expected = row[locale][form === 'one' ? 0 : 1].replaceAll('#', t.number(count));
        // Each row's params are typed by its key above; here the keys are walked as one union, which is
        // too wide for the compiler to compare (TS2859), so the call is made untyped.
        const untyped = t as unknown as (key: PluralKey, params: object) => string;
        expect(untyped(key, params), `${locale} ${key} ${count}`).toBe(expected);
      }
    });
  });

  it('a figure is formatted for the language and picks no form', () => {
    expect(translator('en')('errors.rate_limited', { seconds: figure(1234) })).toContain('1,234 s');
    expect(translator('de')('errors.rate_limited', { seconds: figure(1234) })).toContain('1.234 s');
  });
});
