import { translationOf } from '../defineMessages.js';

/** The registry's word (RDAP) beside the provider's: digest lines and the /domain fields. */
export const en = {
  'rdap.alert.expiry_differs':
    '📅 {name}: the registry says it expires {registry}, the provider {provider} ({earlier} is earlier)',
  'rdap.alert.earlier_registry': "the registry's date",
  'rdap.alert.earlier_provider': "the provider's date",
  'rdap.alert.transfer_pending': '🚩 {name}: a transfer is pending at the registry ({statuses})',
  'rdap.alert.held': '🚩 {name}: held or being deleted at the registry ({statuses})',
  'rdap.alert.transfer_lock_off':
    '🚩 {name}: the transfer lock is off at the registry (no client transfer prohibited any more)',
  'rdap.alert.nameservers_changed': '🚩 {name}: nameservers changed at the registry: {from} → {to}',
  'rdap.alert.unreadable': '⚠️ {name}: registry answer unreadable ({why})',

  'rdap.info.registry_expires': 'Registry: expires',
  'rdap.info.registry_status': 'Registry: status',
  'rdap.info.read_at': 'read {when}',
  'rdap.info.provider_read': "Provider's date read {when}",
  'rdap.info.no_rdap': "the registry offers no RDAP: only the provider's date",
  'rdap.info.not_found': 'the registry does not know this domain',
  'rdap.info.unreadable': 'registry answer unreadable',
  'rdap.info.not_asked': 'the registry could not be asked just now ({why})',
  'rdap.info.asking': 'still asking the registry: this message is updated when it answers',
  'rdap.info.no_date': 'no expiry date given',
  'rdap.info.none': 'none',
  'rdap.info.differs': "⚠️ differs from the provider's date",
  'rdap.expiry.asking_one':
    'Asking the registry about {count} domain: its word follows in a message of its own.',
  'rdap.expiry.asking_other':
    'Asking the registry about {count} domains: its word follows in a message of its own.',
  'rdap.expiry.title_one': "The registry's word on {count} domain",
  'rdap.expiry.title_other': "The registry's word on {count} domains",
  'rdap.expiry.agrees': "Nothing differs from the provider's answer.",
  'rdap.watch.waiting_title': 'Registries not asked in full',
  'rdap.reask.button': 'Ask the registry now',
  'rdap.reask.off': 'The registry check is off (RDAP_CHECK=off): there is no registry to ask.',
  'rdap.reask.too_soon':
    'The registry was asked about {domain} {asked}; it can be asked again at {again} (once every {minutes} minutes per domain).',
  'rdap.watch.paused_one':
    'the registry for {tlds} asks us to wait until {until}: {count} domain not checked there (asked on the next run)',
  'rdap.watch.paused_other':
    'the registry for {tlds} asks us to wait until {until}: {count} domains not checked there (asked on the next run)',
  'rdap.watch.deadline_one':
    "the registry for {tlds} could not be asked about {count} domain before the run's deadline (asked on the next run)",
  'rdap.watch.deadline_other':
    "the registry for {tlds} could not be asked about {count} domains before the run's deadline (asked on the next run)",

  'rdap.why.timeout': 'timeout',
  'rdap.why.network': 'network',
  'rdap.why.status': 'error answer',
  'rdap.why.rate_limited': 'rate-limited',
  'rdap.why.refused': 'not over https',
  'rdap.why.busy': 'busy with other look-ups',
  'rdap.why.no_bootstrap': 'the list of registries could not be fetched',
} as const;

export const de = translationOf(en)({
  'rdap.alert.expiry_differs':
    '📅 {name}: laut Registry läuft sie am {registry} ab, laut Provider am {provider} ({earlier} ist früher)',
  'rdap.alert.earlier_registry': 'das Datum der Registry',
  'rdap.alert.earlier_provider': 'das Datum des Providers',
  'rdap.alert.transfer_pending': '🚩 {name}: bei der Registry ist ein Transfer im Gang ({statuses})',
  'rdap.alert.held': '🚩 {name}: bei der Registry gesperrt oder in Löschung ({statuses})',
  'rdap.alert.transfer_lock_off':
    '🚩 {name}: die Transfersperre ist bei der Registry aufgehoben (kein client transfer prohibited mehr)',
  'rdap.alert.nameservers_changed': '🚩 {name}: Nameserver bei der Registry geändert: {from} → {to}',
  'rdap.alert.unreadable': '⚠️ {name}: Antwort der Registry unlesbar ({why})',

  'rdap.info.registry_expires': 'Registry: läuft ab',
  'rdap.info.registry_status': 'Registry: Status',
  'rdap.info.read_at': 'gelesen {when}',
  'rdap.info.provider_read': 'Datum des Providers gelesen {when}',
  'rdap.info.no_rdap': 'die Registry bietet kein RDAP: nur das Datum des Providers',
  'rdap.info.not_found': 'die Registry kennt diese Domain nicht',
  'rdap.info.unreadable': 'Antwort der Registry unlesbar',
  'rdap.info.not_asked': 'die Registry war gerade nicht zu erreichen ({why})',
  'rdap.info.asking':
    'die Registry wird noch gefragt: diese Nachricht wird aktualisiert, sobald sie antwortet',
  'rdap.info.no_date': 'kein Ablaufdatum angegeben',
  'rdap.info.none': 'keiner',
  'rdap.info.differs': '⚠️ weicht vom Datum des Providers ab',
  'rdap.expiry.asking_one':
    'Die Registry wird zu {count} Domain gefragt: ihre Antwort folgt in einer eigenen Nachricht.',
  'rdap.expiry.asking_other':
    'Die Registry wird zu {count} Domains gefragt: ihre Antwort folgt in einer eigenen Nachricht.',
  'rdap.expiry.title_one': 'Was die Registry zu {count} Domain sagt',
  'rdap.expiry.title_other': 'Was die Registry zu {count} Domains sagt',
  'rdap.expiry.agrees': 'Nichts weicht von der Antwort des Providers ab.',
  'rdap.watch.waiting_title': 'Registries nicht vollständig gefragt',
  'rdap.reask.button': 'Registry jetzt fragen',
  'rdap.reask.off': 'Die Registry-Prüfung ist aus (RDAP_CHECK=off): es gibt keine Registry zu fragen.',
  'rdap.reask.too_soon':
    'Die Registry wurde {asked} zu {domain} gefragt; erneut fragen geht um {again} (einmal alle {minutes} Minuten je Domain).',
  'rdap.watch.paused_one':
    'die Registry für {tlds} bittet uns, bis {until} zu warten: {count} Domain dort nicht geprüft (im nächsten Lauf gefragt)',
  'rdap.watch.paused_other':
    'die Registry für {tlds} bittet uns, bis {until} zu warten: {count} Domains dort nicht geprüft (im nächsten Lauf gefragt)',
  'rdap.watch.deadline_one':
    'die Registry für {tlds} konnte vor dem Ende des Laufs nicht zu {count} Domain gefragt werden (im nächsten Lauf gefragt)',
  'rdap.watch.deadline_other':
    'die Registry für {tlds} konnte vor dem Ende des Laufs nicht zu {count} Domains gefragt werden (im nächsten Lauf gefragt)',

  'rdap.why.timeout': 'Zeitüberschreitung',
  'rdap.why.network': 'Netzwerk',
  'rdap.why.status': 'Fehlerantwort',
  'rdap.why.rate_limited': 'gedrosselt',
  'rdap.why.refused': 'nicht über https',
  'rdap.why.busy': 'mit anderen Abfragen beschäftigt',
  'rdap.why.no_bootstrap': 'die Liste der Registries war nicht abrufbar',
});
