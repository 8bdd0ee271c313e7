import { translationOf } from '../defineMessages.js';

/**
 * /audit and the audit channel. Outcomes (`ok`, `refused`, …) stay as stored: they are the values
 * /audit's `outcome` option filters by. The CSV export is data, not prose, and stays out of here.
 */
export const en = {
  'audit.title': 'Audit trail',
  'audit.filter.since': 'since {when}',
  'audit.filter.by': 'by {user}',
  'audit.filter.command': 'command {command}',
  'audit.filter.outcome': 'outcome {outcome}',
  'audit.filter.target': 'target containing {target}',
  'audit.filter.target_whole': 'target exactly {target}',
  'audit.no_match': 'No audit entries match: {filter}.',
  'audit.whole_target_hint':
    'A target shorter than {min} characters matches only whole targets (such as the music-bot user `al`); type {min} or more to search within targets (`server 42`, `example`).',
  'audit.entries': 'Entries {filter}:',
  'audit.footer': 'Matches {first}–{last} of {total}',
  'audit.footer_more': 'Matches {first}–{last} of more than {total}',
  'audit.footer_oldest_more':
    'The oldest matches, {first}–{last} counted from the oldest, of more than {total}',
  'audit.newest': '⏮ Newest',
  'audit.newer': '◀ Newer',
  'audit.older': 'Older ▶',
  'audit.oldest': 'Oldest ⏭',
  'audit.export.capped':
    '⚠️ `{file}` holds the first {count} (the newest) of more than {total} matches; narrow the search for the rest.',
  'audit.export.all_one': '📎 `{file}` holds all {count} match.',
  'audit.export.all_other': '📎 `{file}` holds all {count} matches.',
  'audit.old_button': 'This button belongs to an older /audit answer. Run `/audit` again.',
  'audit.invalid.not_a_choice': '{value} is not one of the choices',
  'audit.invalid.one_of': 'one of {choices}',
  'audit.invalid.not_a_member': '{value} is not a member',
  'audit.invalid.member_expected': 'a member of this server',
  'audit.invalid.target_too_long': 'is {length} characters long',
  'audit.invalid.target_expected': 'at most {max} characters (an emoji counts as two)',
  'audit.line': '{mark} **{outcome}**{detail} · `{command}`{target} · by {who} · ref `{reference}`',
} as const;

export const de = translationOf(en)({
  'audit.title': 'Audit-Protokoll',
  'audit.filter.since': 'seit {when}',
  'audit.filter.by': 'von {user}',
  'audit.filter.command': 'Befehl {command}',
  'audit.filter.outcome': 'Ergebnis {outcome}',
  'audit.filter.target': 'Ziel enthält {target}',
  'audit.filter.target_whole': 'Ziel genau {target}',
  'audit.no_match': 'Keine Einträge im Audit-Protokoll passen: {filter}.',
  'audit.whole_target_hint':
    'Ein Ziel mit weniger als {min} Zeichen passt nur auf ganze Ziele (etwa den Musikbot-Benutzer `al`); mit {min} oder mehr Zeichen wird innerhalb der Ziele gesucht (`server 42`, `example`).',
  'audit.entries': 'Einträge {filter}:',
  'audit.footer': 'Treffer {first}–{last} von {total}',
  'audit.footer_more': 'Treffer {first}–{last} von mehr als {total}',
  'audit.footer_oldest_more':
    'Die ältesten Treffer, {first}–{last} vom ältesten an gezählt, von mehr als {total}',
  'audit.newest': '⏮ Neueste',
  'audit.newer': '◀ Neuer',
  'audit.older': 'Älter ▶',
  'audit.oldest': 'Älteste ⏭',
  'audit.export.capped':
    '⚠️ `{file}` enthält die ersten {count} (die neuesten) von mehr als {total} Treffern; grenz die Suche für den Rest weiter ein.',
  'audit.export.all_one': '📎 `{file}` enthält {count} Treffer.',
  'audit.export.all_other': '📎 `{file}` enthält alle {count} Treffer.',
  'audit.old_button': 'Dieser Button gehört zu einer älteren /audit-Antwort. Führ `/audit` noch einmal aus.',
  'audit.invalid.not_a_choice': '{value} ist keine der Auswahlmöglichkeiten',
  'audit.invalid.one_of': 'eins von {choices}',
  'audit.invalid.not_a_member': '{value} ist kein Mitglied',
  'audit.invalid.member_expected': 'ein Mitglied dieses Servers',
  'audit.invalid.target_too_long': 'ist {length} Zeichen lang',
  'audit.invalid.target_expected': 'höchstens {max} Zeichen (ein Emoji zählt doppelt)',
  'audit.line': '{mark} **{outcome}**{detail} · `{command}`{target} · von {who} · Ref. `{reference}`',
});
