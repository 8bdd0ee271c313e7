import type { TranslatedLocale } from './locales.js';

/** A translated name (Discord: lowercase, no spaces, ≤ 32 characters) and description (≤ 100). */
export interface CommandText {
  name: string;
  description?: string;
}

/** By path, as `commandPaths` names them: `server`, `server.rdns`, `server.rdns.ip`, `domain.expiry.sort=expiry`. */
export type CommandTexts = Record<TranslatedLocale, Readonly<Record<string, CommandText>>>;

/**
 * What Discord shows German clients for every command, subcommand, option and choice: commands/index.ts
 * holds the paths to the definitions (typecheck), a test holds the texts to Discord's rules.
 */
const de = {
  server: { name: 'server', description: 'Logeinträge von Servern und Reverse-DNS' },
  'server.logs': { name: 'protokoll', description: 'Zeigt den Logeintrag eines Servers' },
  'server.logs.id': { name: 'id', description: 'Server-ID' },
  'server.rdns': {
    name: 'rdns',
    description: 'Setzt den Reverse-DNS-Eintrag einer IPv4-Adresse eines Servers',
  },
  'server.rdns.id': { name: 'id', description: 'Server-ID' },
  'server.rdns.ip': {
    name: 'ip',
    description: 'IPv4-Adresse, optional mit Präfix (203.0.113.7 oder 203.0.113.7/32)',
  },
  'server.rdns.hostname': {
    name: 'hostname',
    description: 'Hostname für den rDNS-Eintrag (host.example.com)',
  },
  'server.rdns.validate': {
    name: 'prüfen',
    description: 'Vorher prüfen, ob der Hostname existiert (Standard: true)',
  },
  domain: { name: 'domain', description: 'Status, Ablauf, Registrierung und DNS-Einträge von Domains' },
  'domain.info': { name: 'info', description: 'Zeigt Status und Ablauf einer Domain' },
  'domain.info.domain': { name: 'domain', description: 'Domainname (IDN erlaubt: bücher.de)' },
  'domain.expiry': { name: 'ablauf', description: 'Prüft, wann bis zu 50 Domains ablaufen' },
  'domain.expiry.domains': {
    name: 'domains',
    description: 'Domainnamen, getrennt durch Leerzeichen, Kommas oder Zeilenumbrüche',
  },
  'domain.expiry.within': {
    name: 'innerhalb',
    description: 'Markiert Domains, die innerhalb so vieler Tage ablaufen (Standard 30)',
  },
  'domain.register': {
    name: 'registrieren',
    description: 'Registriert eine Domain (ohne Domain und Nameserver öffnet sich ein Formular)',
  },
  'domain.register.domain': { name: 'domain', description: 'Zu registrierender Domainname' },
  'domain.register.ns1': { name: 'ns1', description: 'Erster Nameserver (ns1.example.net)' },
  'domain.register.ns2': { name: 'ns2', description: 'Zweiter Nameserver (ns2.example.net)' },
  'domain.register.owner': {
    name: 'inhaber',
    description: 'Kontakt-Handle des Inhabers (Standard aus DEFAULT_OWNER_C)',
  },
  'domain.register.admin': {
    name: 'admin',
    description: 'Kontakt-Handle des Admins (Standard aus DEFAULT_ADMIN_C)',
  },
  'domain.register.tech': {
    name: 'technik',
    description: 'Kontakt-Handle für Technik (Standard aus DEFAULT_TECH_C)',
  },
  'domain.register.zone': {
    name: 'zone',
    description: 'Kontakt-Handle für die Zone (Standard aus DEFAULT_ZONE_C)',
  },
  'domain.dns': {
    name: 'dns',
    description: 'Sendet DNS-Einträge für eine Domain (ohne Einträge öffnet sich ein Editor)',
  },
  'domain.dns.domain': { name: 'domain', description: 'Domainname' },
  'domain.records': {
    name: 'einträge',
    description: 'Der zuletzt über HostOps gesendete DNS-Satz einer Domain: wer, wann und die Einträge',
  },
  'domain.records.domain': { name: 'domain', description: 'Domainname' },
  'domain.dns.records': {
    name: 'einträge',
    description: 'Zonenzeilen (www 3600 A 203.0.113.7) oder ein JSON-Array; weglassen für den Editor',
  },
  musicbot: { name: 'musikbot', description: 'Kundenkonten für den Musikbot' },
  'musicbot.create': {
    name: 'anlegen',
    description:
      'Legt ein Musikbot-Kundenkonto an (erzeugt ein Passwort; ohne Optionen öffnet sich ein Formular)',
  },
  'musicbot.create.username': { name: 'benutzername', description: 'Benutzername des Kontos' },
  'musicbot.create.email': { name: 'email', description: 'E-Mail-Adresse des Kunden' },
  'musicbot.create.storage': {
    name: 'speicher',
    description: 'Speicherkontingent: Bytes oder eine Größe wie 512MB oder 10 GiB',
  },
  'musicbot.create.bots': { name: 'bots', description: 'Anzahl der Bot-Instanzen' },
  panel: { name: 'panel', description: 'Lizenzen für das Hosting-Panel' },
  'panel.bind': { name: 'binden', description: 'Bindet eine Hosting-Panel-Lizenz an eine IP-Adresse' },
  'panel.bind.license': { name: 'lizenz', description: 'Lizenzschlüssel' },
  'panel.bind.ip': { name: 'ip', description: 'IPv4- oder IPv6-Adresse (203.0.113.7 oder 2001:db8::7)' },
  help: { name: 'hilfe', description: 'Zeigt die Befehle von HostOps und welche du hier ausführen darfst' },
  audit: {
    name: 'audit',
    description: 'Durchsucht das Audit-Protokoll: wer welchen Befehl wann ausgeführt hat und wie er endete',
  },
  'audit.user': { name: 'benutzer', description: 'Nur Einträge dieses Mitglieds' },
  'audit.command': { name: 'befehl', description: 'Nur Einträge dieses Befehls' },
  'audit.command=server logs': { name: '/server protokoll' },
  'audit.command=server rdns': { name: '/server rdns' },
  'audit.command=domain info': { name: '/domain info' },
  'audit.command=domain expiry': { name: '/domain ablauf' },
  'audit.command=domain register': { name: '/domain registrieren' },
  'audit.command=domain dns': { name: '/domain dns' },
  'audit.command=domain records': { name: '/domain einträge' },
  'audit.command=musicbot create': { name: '/musikbot anlegen' },
  'audit.command=panel bind': { name: '/panel binden' },
  'audit.command=help': { name: '/hilfe' },
  'audit.command=audit': { name: '/audit' },
  'audit.command=watch add': { name: '/überwachung hinzufügen' },
  'audit.command=watch remove': { name: '/überwachung entfernen' },
  'audit.command=watch list': { name: '/überwachung liste' },
  'audit.command=watch check': { name: '/überwachung prüfen' },
  'audit.command=watch calendar': { name: '/überwachung kalender' },
  'audit.command=access grant': { name: '/zugriff erteilen' },
  'audit.command=access revoke': { name: '/zugriff widerrufen' },
  'audit.command=access request': { name: '/zugriff anfragen' },
  'audit.command=access list': { name: '/zugriff liste' },
  'audit.command=access explain': { name: '/zugriff erklären' },
  'audit.command=access export': { name: '/zugriff exportieren' },
  'audit.command=access import': { name: '/zugriff importieren' },
  'audit.target': {
    name: 'ziel',
    description: 'Nur Einträge, deren Ziel diesen Text enthält; unter 3 Zeichen das ganze Ziel',
  },
  'audit.days': { name: 'tage', description: 'Wie viele Tage zurück gesucht wird (Standard 7)' },
  'audit.outcome': { name: 'ergebnis', description: 'Nur Einträge mit diesem Ergebnis' },
  'audit.outcome=ok': { name: 'ok' },
  'audit.outcome=refused': { name: 'verweigert' },
  'audit.outcome=invalid': { name: 'ungültig' },
  'audit.outcome=failed': { name: 'fehlgeschlagen' },
  'audit.outcome=cancelled': { name: 'abgebrochen' },
  'audit.outcome=expired': { name: 'abgelaufen' },
  'audit.outcome=done': { name: 'erledigt' },
  'audit.outcome=unknown': { name: 'unbekannt' },
  'audit.outcome=rejected': { name: 'abgelehnt' },
  'audit.export': { name: 'export', description: 'Hängt alle Treffer (bis zu 10.000) als CSV-Datei an' },
  watch: {
    name: 'überwachung',
    description: 'Die Domain-Überwachung: geplante Warnungen zu Ablauf und Status',
  },
  'watch.add': {
    name: 'hinzufügen',
    description: 'Überwacht Domains: bis zu 300 in der Option oder eine Text-/CSV-Datei mit bis zu 10.000',
  },
  'watch.add.domains': {
    name: 'domains',
    description: 'Domainnamen, getrennt durch Leerzeichen, Kommas oder Zeilenumbrüche',
  },
  'watch.add.file': {
    name: 'datei',
    description: 'Eine .txt- oder .csv-Datei: eine Domain pro Zeile oder in der ersten Spalte (bis 1 MB)',
  },
  'watch.remove': { name: 'entfernen', description: 'Beendet die Überwachung von Domains' },
  'watch.remove.domains': {
    name: 'domains',
    description: 'Domainnamen, getrennt durch Leerzeichen, Kommas oder Zeilenumbrüche',
  },
  'watch.list': { name: 'liste', description: 'Die überwachten Domains, nächster Ablauf zuerst' },
  'watch.check': {
    name: 'prüfen',
    description: 'Prüft jetzt alle überwachten Domains und meldet, was neu ist',
  },
  'watch.calendar': {
    name: 'kalender',
    description: 'Die Ablaufdaten der überwachten Domains als Kalenderdatei (.ics)',
  },
  access: {
    name: 'zugriff',
    description: 'Berechtigungen: wer welche Befehle für welche Domains, Server und Adressen ausführen darf',
  },
  'access.grant': {
    name: 'erteilen',
    description: 'Erteilt einer Rolle oder einem Mitglied Befehle oder eine Stufe für Muster von Ressourcen',
  },
  'access.grant.who': { name: 'wer', description: 'Eine Rolle oder ein Mitglied' },
  'access.grant.what': {
    name: 'was',
    description: 'Befehlspfade oder eine Stufe, durch Kommas getrennt: domain dns, server rdns · operator',
  },
  'access.grant.on': {
    name: 'für',
    description: 'Muster: *.acme.example server:100-199 ip:203.0.113.0/24 oder *',
  },
  'access.grant.until': {
    name: 'bis',
    description: 'Wann sie endet: 8h, 2d oder 2026-12-01T18:00Z (Standard: bis zum Widerruf)',
  },
  'access.revoke': {
    name: 'widerrufen',
    description: 'Widerruft eine Berechtigung (oder beendet eine Erhöhung) per ID',
  },
  'access.revoke.id': { name: 'id', description: 'Die ID der Berechtigung (g…)' },
  'access.request': {
    name: 'anfragen',
    description: 'Beantragt Rechte für Ressourcen für einige Stunden, freigegeben von jemandem, der sie hat',
  },
  'access.request.what': {
    name: 'was',
    description: 'Befehlspfade oder eine Stufe, durch Kommas getrennt: domain dns, server rdns · operator',
  },
  'access.request.on': {
    name: 'für',
    description: 'Muster: *.acme.example server:100-199 ip:203.0.113.0/24',
  },
  'access.request.hours': {
    name: 'stunden',
    description: 'Für wie viele Stunden (höchstens ACCESS_MAX_ELEVATION_H)',
  },
  'access.request.why': { name: 'warum', description: 'Warum du sie brauchst (die Freigebenden sehen es)' },
  'access.list': {
    name: 'liste',
    description: 'Die geltenden Berechtigungen, aller oder einer Rolle oder eines Mitglieds',
  },
  'access.list.who': { name: 'wer', description: 'Eine Rolle oder ein Mitglied' },
  'access.explain': {
    name: 'erklären',
    description: 'Ob ein Mitglied einen Befehl (für ein Ziel) ausführen darf, und durch welche Berechtigung',
  },
  'access.explain.user': { name: 'mitglied', description: 'Das Mitglied' },
  'access.explain.command': { name: 'befehl', description: 'Ein Befehlspfad: domain dns' },
  'access.explain.target': { name: 'ziel', description: 'Eine Domain, server:42 oder eine IP-Adresse' },
  'access.export': {
    name: 'exportieren',
    description: 'Die Berechtigungen als YAML-Datei, zum Prüfen und Ablegen in git',
  },
  'access.import': {
    name: 'importieren',
    description: 'Eine YAML-Datei von Berechtigungen: zeigt den Unterschied, übernimmt ihn mit Bestätigen',
  },
  'access.import.file': {
    name: 'datei',
    description: 'Eine YAML-Datei, wie /access export sie liefert (bis 256 KB)',
  },
} as const satisfies Readonly<Record<string, CommandText>>;

/** The paths the translations name: held to the definitions' paths in commands/index.ts by the typecheck. */
export type TranslatedPath = keyof typeof de;

export const commandTexts: CommandTexts = { de };
