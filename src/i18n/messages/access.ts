import { translationOf } from '../defineMessages.js';

/** Grants and their patterns (/access, src/access), and the refusals they explain. */
export const en = {
  'access.pattern.expected':
    'a pattern such as `shop.example`, `*.acme.example`, `server:42`, `server:100-199`, `ip:203.0.113.0/24`, `ip:2001:db8::/32` or `*`',
  'access.pattern.empty': 'the pattern is empty',
  'access.pattern.too_long': 'pattern {input} is {length} characters long, at most {max}',
  'access.pattern.wildcard':
    '{input}: `*` stands only alone or as the whole first label, as in `*.acme.example`',
  'access.pattern.domain': '{input} is not a domain pattern: {problem}',
  'access.pattern.mixed': '{input}: label {label} mixes scripts and could pass for another name',
  'access.pattern.lookalike':
    '{input}: label {label} is written in letters that look like Latin ones and could pass for another name',
  'access.pattern.server':
    '{input} is not a server or a range of servers: write `server:42` or `server:100-199`',
  'access.pattern.server_range': '{input}: the range ends before it starts',
  'access.pattern.cidr': '{input} is not an address range: write `ip:203.0.113.0/24` or `ip:2001:db8::/32`',
  'access.pattern.cidr_host_bits': '{input} has bits set after its prefix; did you mean {suggestion}?',
  'access.refused.scope':
    '`{command}` on {resources} is outside your grants. A grant of `{what}` on a pattern covering it would allow it; {approvers} can approve an `/access request` for it.',
  'access.refused.scope_nobody':
    '`{command}` on {resources} is outside your grants. A grant of `{what}` on a pattern covering it would allow it; nobody holds one yet, so ask an admin for `/access grant`.',
  'access.read.not_yours': 'not yours to see: no grant of yours covers it',
  'access.who.invalid': '{input} is neither a role nor a member',
  'access.who.expected': 'a role or a member: pick one, or write role:<id> or user:<id>',
  'access.what.empty': 'no command or tier given',
  'access.what.unknown': '{input} is neither a command path nor a tier',
  'access.what.expected':
    'command paths or a tier, comma-separated, such as `domain dns, server rdns` or `operator`',
  'access.until.invalid': '{input} is not a time in the future',
  'access.until.expected':
    'a duration such as `8h`, `30m` or `2d`, or a date and time such as `2026-12-01T18:00Z`',
  'access.grant.line': '`{id}` · {who} · {what} · on {on} · {until}',
  'access.grant.forever': 'until revoked',
  'access.grant.title': 'Grant',
  'access.grant.in_force': 'On Confirm this grant is in force at once, on every replica.',
  'access.grant.done': 'Granted',
  'access.revoke.title': 'Revoke grant',
  'access.revoke.in_force': 'On Confirm this grant ends at once, on every replica.',
  'access.revoke.done': 'Revoked',
  'access.revoke.unknown': 'There is no grant `{id}` (see `/access list`).',
  'access.revoke.configured':
    '`{id}` comes from the configuration: change the variable and restart, it cannot be revoked in chat.',
  'access.record': '{requester}: {line}',
  'access.list.title': 'Grants in force',
  'access.list.none': 'No grants.',
  'access.explain.title': 'Access explained',
  'access.explain.unknown': 'There is no command `/{command}`.',
  'access.explain.allowed': '✅ {who} may run `{command}`{on}, by this grant:\n{grant}',
  'access.explain.allowed_everyone': '✅ {who} may run `{command}`{on}: every member may.',
  'access.explain.denied': '🚫 {who} may not run `{command}`{on}.\n{why}',
  'access.field.id': 'Grant',
  'access.field.who': 'Who',
  'access.field.what': 'What',
  'access.field.on': 'On',
  'access.field.until': 'Until',
  'access.field.effect': 'In force',
  'access.request.title': 'Access request',
  'access.request.for_hours': '{hours} h from the approval',
  'access.request.in_force':
    'Nothing is in force until someone else who holds these rights approves it. Approved, grant `{id}` is in force at once on every replica, and ends by itself after the hours asked for (or earlier, by `/access revoke {id}`).',
  'access.request.done': 'Elevation approved',
  'access.request.hours_invalid': '{input} hours is not allowed: at most {max} (ACCESS_MAX_ELEVATION_H)',
  'access.request.hours_expected': 'a whole number of hours from 1 to {max}',
  'access.request.why_empty': 'no reason given',
  'access.request.why_expected': 'why you need it, in a few words (the approvers read it)',
  'access.field.reason': 'Why',
} as const;

export const de = translationOf(en)({
  'access.pattern.expected':
    'ein Muster wie `shop.example`, `*.acme.example`, `server:42`, `server:100-199`, `ip:203.0.113.0/24`, `ip:2001:db8::/32` oder `*`',
  'access.pattern.empty': 'das Muster ist leer',
  'access.pattern.too_long': 'Muster {input} ist {length} Zeichen lang, höchstens {max}',
  'access.pattern.wildcard':
    '{input}: `*` steht nur allein oder als ganzes erstes Label, wie in `*.acme.example`',
  'access.pattern.domain': '{input} ist kein Domain-Muster: {problem}',
  'access.pattern.mixed':
    '{input}: Label {label} mischt Schriften und könnte für einen anderen Namen gehalten werden',
  'access.pattern.lookalike':
    '{input}: Label {label} besteht aus Zeichen, die wie lateinische aussehen, und könnte für einen anderen Namen gehalten werden',
  'access.pattern.server':
    '{input} ist kein Server und kein Server-Bereich: schreib `server:42` oder `server:100-199`',
  'access.pattern.server_range': '{input}: der Bereich endet, bevor er beginnt',
  'access.pattern.cidr':
    '{input} ist kein Adressbereich: schreib `ip:203.0.113.0/24` oder `ip:2001:db8::/32`',
  'access.pattern.cidr_host_bits': '{input} hat Bits nach dem Präfix gesetzt; meintest du {suggestion}?',
  'access.refused.scope':
    '`{command}` für {resources} liegt außerhalb deiner Berechtigungen. Eine Berechtigung für `{what}` mit einem Muster, das es abdeckt, würde es erlauben; {approvers} können eine `/access request` dafür genehmigen.',
  'access.refused.scope_nobody':
    '`{command}` für {resources} liegt außerhalb deiner Berechtigungen. Eine Berechtigung für `{what}` mit einem Muster, das es abdeckt, würde es erlauben; noch hat niemand eine, frag also einen Admin nach `/access grant`.',
  'access.read.not_yours': 'nicht für dich sichtbar: keine deiner Berechtigungen deckt es ab',
  'access.who.invalid': '{input} ist weder eine Rolle noch ein Mitglied',
  'access.who.expected': 'eine Rolle oder ein Mitglied: wähl eines, oder schreib role:<id> oder user:<id>',
  'access.what.empty': 'kein Befehl und keine Stufe angegeben',
  'access.what.unknown': '{input} ist weder ein Befehlspfad noch eine Stufe',
  'access.what.expected':
    'Befehlspfade oder eine Stufe, durch Kommas getrennt, etwa `domain dns, server rdns` oder `operator`',
  'access.until.invalid': '{input} ist kein Zeitpunkt in der Zukunft',
  'access.until.expected':
    'eine Dauer wie `8h`, `30m` oder `2d`, oder Datum und Uhrzeit wie `2026-12-01T18:00Z`',
  'access.grant.line': '`{id}` · {who} · {what} · für {on} · {until}',
  'access.grant.forever': 'bis zum Widerruf',
  'access.grant.title': 'Berechtigung erteilen',
  'access.grant.in_force': 'Mit Bestätigen gilt diese Berechtigung sofort, auf jeder Replik.',
  'access.grant.done': 'Erteilt',
  'access.revoke.title': 'Berechtigung widerrufen',
  'access.revoke.in_force': 'Mit Bestätigen endet diese Berechtigung sofort, auf jeder Replik.',
  'access.revoke.done': 'Widerrufen',
  'access.revoke.unknown': 'Es gibt keine Berechtigung `{id}` (siehe `/access list`).',
  'access.revoke.configured':
    '`{id}` stammt aus der Konfiguration: ändere die Variable und starte neu, im Chat lässt sie sich nicht widerrufen.',
  'access.record': '{requester}: {line}',
  'access.list.title': 'Geltende Berechtigungen',
  'access.list.none': 'Keine Berechtigungen.',
  'access.explain.title': 'Zugriff erklärt',
  'access.explain.unknown': 'Es gibt keinen Befehl `/{command}`.',
  'access.explain.allowed': '✅ {who} darf `{command}`{on} ausführen, durch diese Berechtigung:\n{grant}',
  'access.explain.allowed_everyone': '✅ {who} darf `{command}`{on} ausführen: jedes Mitglied darf das.',
  'access.explain.denied': '🚫 {who} darf `{command}`{on} nicht ausführen.\n{why}',
  'access.field.id': 'Berechtigung',
  'access.field.who': 'Wer',
  'access.field.what': 'Was',
  'access.field.on': 'Für',
  'access.field.until': 'Bis',
  'access.field.effect': 'Wirkung',
  'access.request.title': 'Zugriffsanfrage',
  'access.request.for_hours': '{hours} h ab der Freigabe',
  'access.request.in_force':
    'Nichts gilt, bis jemand anderes, der diese Rechte hat, die Anfrage freigibt. Freigegeben gilt Berechtigung `{id}` sofort auf jeder Replik und endet von selbst nach den beantragten Stunden (oder früher, durch `/access revoke {id}`).',
  'access.request.done': 'Erweiterung freigegeben',
  'access.request.hours_invalid':
    '{input} Stunden sind nicht erlaubt: höchstens {max} (ACCESS_MAX_ELEVATION_H)',
  'access.request.hours_expected': 'eine ganze Zahl von Stunden von 1 bis {max}',
  'access.request.why_empty': 'kein Grund angegeben',
  'access.request.why_expected': 'warum du es brauchst, in wenigen Worten (die Freigebenden lesen es)',
  'access.field.reason': 'Warum',
});
