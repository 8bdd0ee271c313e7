import { translationOf } from '../defineMessages.js';

/** /server: log entries, reverse DNS, and server id suggestions. */
export const en = {
  'server.log.title': 'Server {id} — log entry',
  'server.log.type': 'Type',
  'server.log.status': 'Status',
  'server.log.started': 'Started',
  'server.log.ended': 'Ended',
  'server.log.duration': 'Duration',
  'server.log.still_running': 'still running',
  'server.duration.seconds': '{value} s',
  'server.duration.minutes': '{value} min',
  'server.duration.hours': '{value} h',
  'server.duration.days': '{value} d',
  'server.rdns.title': 'Set reverse DNS',
  'server.rdns.server_id': 'Server id',
  'server.rdns.ip': 'IP',
  'server.rdns.hostname': 'Host name (rDNS)',
  'server.rdns.validate': 'Validate first',
  'server.rdns.summary': 'reverse DNS of {ip} (server {server}) → {hostname}',
  'server.rdns.done': 'Reverse DNS set',
  'server.rdns.record': '🛠️ {requester} set the {summary}.',
  'server.rdns.forward': 'Forward DNS',
  'server.rdns.forward.match': '✅ {hostname} resolves to {ip}',
  'server.rdns.forward.mismatch':
    '⚠️ {hostname} resolves to {addresses}, not to {ip}: mail servers will not trust this PTR record',
  'server.rdns.forward.no_address':
    '⚠️ {hostname} has no IPv4 address (no A record): mail servers will not trust this PTR record',
  'server.rdns.forward.timeout': '❔ not checked: the resolver did not answer within 2 s',
  'server.rdns.forward.error': '❔ not checked: the resolver failed ({detail})',
  'server.rdns.forward.refused':
    'Not sent: RDNS_FORWARD_CHECK=require needs {hostname} to resolve to {ip} first. Found: {found}. Add the A record, then run the command again.',
  'server.rdns.forward.refused_now':
    'Not sent: checked again before sending, {hostname} no longer resolves to {ip}, as RDNS_FORWARD_CHECK=require needs. Found: {found}. Add the A record, then run the command again.',
  'server.suggestion': 'server {id}',
} as const;

export const de = translationOf(en)({
  'server.log.title': 'Server {id} — Logeintrag',
  'server.log.type': 'Typ',
  'server.log.status': 'Status',
  'server.log.started': 'Gestartet',
  'server.log.ended': 'Beendet',
  'server.log.duration': 'Dauer',
  'server.log.still_running': 'läuft noch',
  'server.duration.seconds': '{value} s',
  'server.duration.minutes': '{value} min',
  'server.duration.hours': '{value} h',
  'server.duration.days': '{value} Tg.',
  'server.rdns.title': 'Reverse-DNS setzen',
  'server.rdns.server_id': 'Server-ID',
  'server.rdns.ip': 'IP',
  'server.rdns.hostname': 'Hostname (rDNS)',
  'server.rdns.validate': 'Vorher prüfen',
  'server.rdns.summary': 'Reverse-DNS von {ip} (Server {server}) → {hostname}',
  'server.rdns.done': 'Reverse-DNS gesetzt',
  'server.rdns.record': '🛠️ {requester} hat {summary} gesetzt.',
  'server.rdns.forward': 'Forward-DNS',
  'server.rdns.forward.match': '✅ {hostname} löst auf {ip} auf',
  'server.rdns.forward.mismatch':
    '⚠️ {hostname} löst auf {addresses} auf, nicht auf {ip}: Mailserver vertrauen diesem PTR-Eintrag nicht',
  'server.rdns.forward.no_address':
    '⚠️ {hostname} hat keine IPv4-Adresse (kein A-Eintrag): Mailserver vertrauen diesem PTR-Eintrag nicht',
  'server.rdns.forward.timeout': '❔ nicht geprüft: der Resolver hat nicht innerhalb von 2 s geantwortet',
  'server.rdns.forward.error': '❔ nicht geprüft: der Resolver ist gescheitert ({detail})',
  'server.rdns.forward.refused':
    'Nicht gesendet: RDNS_FORWARD_CHECK=require verlangt, dass {hostname} zuerst auf {ip} auflöst. Gefunden: {found}. Leg den A-Eintrag an und führ den Befehl dann noch einmal aus.',
  'server.rdns.forward.refused_now':
    'Nicht gesendet: Vor dem Senden erneut geprüft, löst {hostname} nicht mehr auf {ip} auf, wie RDNS_FORWARD_CHECK=require es verlangt. Gefunden: {found}. Leg den A-Eintrag an und führ den Befehl dann noch einmal aus.',
  'server.suggestion': 'Server {id}',
});
