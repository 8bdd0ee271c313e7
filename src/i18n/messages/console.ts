import { translationOf } from '../defineMessages.js';

/**
 * The console's own words (src/console/): usage, prompts, the terminal rendering's labels and the
 * command-line parser's errors. What the commands answer comes from their own areas.
 */
export const en = {
  'console.usage': `Usage: npm run console -- [--as viewer|operator|admin|USER_ID] [--roles ID,…] [--yes] [--json] ["/command …" | --revert DOMAIN]

Without a command: an interactive session (Tab completes, /help lists the commands, exit quits).
With a command: runs it once and exits (0 ok, 1 failed, 2 invalid, 3 refused, 4 change not sent).
  --as TIER   act with this tier (default viewer); the same gates apply as in Discord
  --as USER_ID  act as that Discord user, with the roles of --roles alone: their grants decide (docs/access.md)
  --roles ID,…  role ids held besides the tier's (or the only ones of --as USER_ID)
  --yes       confirm a change without asking (one-shot); without it a change only shows its preview
  --revert DOMAIN  a change back to the DNS set sent before the domain's last one (like Revert in Discord)
  --json      print the answer's data as JSON (what its text is made from)
  --out FILE  write the file the answer attaches (a calendar, an export) to FILE (one-shot)
  --no-color  plain text (also NO_COLOR=1)
  --verbose   log lines on stderr
Values: positional ones fill the required options in order; name:value sets any option; quotes group words.`,
  'console.args.as': '--as takes one of {tiers}, or a Discord user id',
  'console.args.roles': '--roles takes Discord role ids, comma-separated',
  'console.args.revert': '--revert takes a domain name',
  'console.args.revert_or_command': '--revert takes no command: it is one',
  'console.args.out': '--out takes a file name, and a command to run once',
  'console.out.none': 'Nothing written to {file}: the answer attaches no file.',
  'console.out.written': 'Wrote {name} to {file}.',
  'console.revert.none':
    'Nothing to revert: no DNS record set was sent for {domain} through HostOps (`/domain records` shows what was).',
  'console.args.unknown_flag': 'unknown flag {flag}\n{usage}',
  'console.args.npm_took':
    'npm took {flags} for itself: put -- before the console\'s flags, e.g. npm run console -- --as operator --yes "/server logs 42"',
  'console.args.tier_as_command':
    '"{word}" is not a command: to act as {word}, write --as {word} (through npm after a --: npm run console -- --as {word} "/server logs 42")',
  'console.failed': 'hostops console: {problem}',
  'console.config_invalid': 'HostOps console cannot start, configuration is invalid:\n{problems}',
  'console.cannot_start': 'HostOps console cannot start: {problem}',
  'console.invalid_command': 'Invalid command: {problem}',
  'console.modal_needs_text': '{title}: give the text as an option, or pipe it on stdin.',
  'console.not_sent': 'Not sent: this is a change. Run it again with --yes to confirm it.',
  'console.not_sent_outdated':
    'Not sent: what the change was made against changed before it went out (above, the change as it would be now). Run it again to send it against that.',
  'console.interrupt.cancelled': 'Interrupted: the change was cancelled, nothing was sent.',
  'console.interrupt.quit': 'Interrupted: the session ends (exit or Ctrl-D quits too).',
  'console.form': 'Form',
  'console.form_example': 'e.g.\n{example}',
  'console.form_empty': 'Nothing entered; the form is closed.',
  'console.form_keep': 'Now: {value} (an empty line keeps it)',
  'console.form_line': 'One line.',
  'console.form_lines': 'One per line; an empty line ends the field.',
  'console.form_choose': 'Type the number, the value or the label of one of the choices above.',
  'console.form_needs_options':
    '{title}: a form in a one-shot cannot be asked field by field; give its options on the command line: {options}.',
  'console.welcome':
    'HostOps console — acting as {tier} ({user}) on {api}. /help lists the commands; Tab completes; exit quits.',
  'console.welcome.sandbox': 'the SANDBOX API (made-up data, in a throwaway store: DATABASE_URL is not used)',
  'console.help_note':
    'Console: positional values fill required options in order, name:value sets any option, quotes group words. Changes wait for {confirm} or {cancel}.',
  'console.type_button_or_command': 'Type {buttons}, or a command starting with /.',
  'console.commands_start': 'Commands start with / (try /help); exit quits.',
  'console.type_buttons': 'Type {buttons}.',
  // Discord's "press **Confirm**" (changes.press…) as the console says it: the label is typed.
  'console.press': 'type `{button}`',
  'console.press_again': 'Type `{button}` again in a moment',
  'console.exit.cancelled': 'The session ends with a change waiting: it was cancelled, nothing was sent.',
  'console.either': '{first} or {second}',
  'console.status.ok': 'ok',
  'console.status.error': 'error',
  'console.status.warning': 'warning',
  'console.status.attention': 'attention',
  'console.status.note': 'note',
  'console.status.info': 'info',
  'console.line.unclosed_double': 'unclosed double quote',
  'console.line.unclosed_single': 'unclosed single quote',
  'console.line.empty': 'empty command',
  'console.line.unknown_command': 'unknown command /{command}; commands: {commands}',
  'console.line.needs_subcommand': '{path} needs a subcommand: {names}',
  'console.line.no_subcommand': '{path} has no subcommand {name}; choose one of: {names}',
  'console.line.option_twice': 'option {option} is given twice',
  'console.line.no_option': '{path} has no option {name}; {options}',
  'console.line.takes_no_options': 'it takes no options',
  'console.line.its_options': 'its options: {options}',
  'console.line.too_many_values':
    'too many values for {path}: {value} is not taken by any option (quote values with spaces)',
  'console.line.missing': '{path} is missing {options}',
  'console.line.option': 'option {option}: {problem}',
  'console.line.not_whole_number': '{value} is not a whole number',
  'console.line.not_number': '{value} is not a number',
  'console.line.too_large': '{value} is too large',
  'console.line.below_minimum': '{value} is below the minimum of {minimum}',
  'console.line.above_maximum': '{value} is above the maximum of {maximum}',
  'console.line.not_boolean': '{value} is not true or false',
  'console.line.empty_value': 'is empty',
  'console.line.too_short': 'is shorter than {length} characters',
  'console.line.too_long': 'is longer than {length} characters',
  'console.line.not_discord_id': '{value} is not a Discord id (17–20 digits)',
  'console.line.no_files': 'this kind of option (a file) cannot be given in the console',
  'console.line.not_a_choice': '{value} is not one of: {choices}',
} as const;

export const de = translationOf(en)({
  'console.usage': `Aufruf: npm run console -- [--as viewer|operator|admin|USER_ID] [--roles ID,…] [--yes] [--json] ["/befehl …" | --revert DOMAIN]

Ohne Befehl: eine interaktive Sitzung (Tab ergänzt, /help listet die Befehle, exit beendet).
Mit Befehl: führt ihn einmal aus und endet (0 ok, 1 fehlgeschlagen, 2 ungültig, 3 abgelehnt, 4 Änderung nicht gesendet).
  --as STUFE  mit dieser Stufe handeln (Standard: viewer); es gelten dieselben Prüfungen wie in Discord
  --as USER_ID  als dieser Discord-Nutzer handeln, nur mit den Rollen aus --roles: seine Berechtigungen entscheiden (docs/access.md)
  --roles ID,…  Rollen-IDs zusätzlich zu denen der Stufe (oder die einzigen bei --as USER_ID)
  --yes       eine Änderung ohne Nachfrage bestätigen (einmalig); ohne zeigt eine Änderung nur ihre Vorschau
  --revert DOMAIN  eine Änderung zurück zum DNS-Satz vor dem letzten der Domain (wie Zurücksetzen in Discord)
  --json      die Daten der Antwort als JSON ausgeben (woraus ihr Text gemacht ist)
  --out DATEI die Datei, die die Antwort anhängt (ein Kalender, ein Export), nach DATEI schreiben (einmalig)
  --no-color  reiner Text (auch NO_COLOR=1)
  --verbose   Logzeilen auf stderr
Werte: Werte ohne Namen füllen die Pflichtoptionen der Reihe nach; name:wert setzt eine beliebige Option; Anführungszeichen fassen Wörter zusammen.`,
  'console.args.as': '--as nimmt eins von {tiers} oder eine Discord-Nutzer-ID',
  'console.args.roles': '--roles nimmt Discord-Rollen-IDs, durch Kommas getrennt',
  'console.args.revert': '--revert nimmt einen Domainnamen',
  'console.args.revert_or_command': '--revert nimmt keinen Befehl: es ist einer',
  'console.args.out': '--out nimmt einen Dateinamen und einen einmal auszuführenden Befehl',
  'console.out.none': 'Nichts nach {file} geschrieben: die Antwort hängt keine Datei an.',
  'console.out.written': '{name} nach {file} geschrieben.',
  'console.revert.none':
    'Nichts zurückzusetzen: für {domain} wurde kein DNS-Satz über HostOps gesendet (`/domain records` zeigt, was gesendet wurde).',
  'console.args.unknown_flag': 'unbekannter Schalter {flag}\n{usage}',
  'console.args.npm_took':
    'npm hat {flags} für sich genommen: setze -- vor die Schalter der Konsole, z. B. npm run console -- --as operator --yes "/server logs 42"',
  'console.args.tier_as_command':
    '„{word}“ ist kein Befehl: um als {word} zu handeln, schreibe --as {word} (über npm nach einem --: npm run console -- --as {word} "/server logs 42")',
  'console.failed': 'hostops console: {problem}',
  'console.config_invalid':
    'Die HostOps-Konsole kann nicht starten, die Konfiguration ist ungültig:\n{problems}',
  'console.cannot_start': 'Die HostOps-Konsole kann nicht starten: {problem}',
  'console.invalid_command': 'Ungültiger Befehl: {problem}',
  'console.modal_needs_text': '{title}: gib den Text als Option an oder leite ihn über stdin ein.',
  'console.not_sent':
    'Nicht gesendet: das ist eine Änderung. Führ sie mit --yes noch einmal aus, um sie zu bestätigen.',
  'console.not_sent_outdated':
    'Nicht gesendet: Das, wogegen die Änderung erstellt wurde, hat sich geändert, bevor sie hinausging (oben die Änderung, wie sie jetzt wäre). Führ sie noch einmal aus, um sie dagegen zu senden.',
  'console.interrupt.cancelled': 'Abgebrochen: die Änderung wurde verworfen, nichts wurde gesendet.',
  'console.interrupt.quit': 'Abgebrochen: die Sitzung endet (exit oder Strg-D beenden sie auch).',
  'console.form': 'Formular',
  'console.form_example': 'z. B.\n{example}',
  'console.form_empty': 'Nichts eingegeben; das Formular ist geschlossen.',
  'console.form_keep': 'Jetzt: {value} (eine leere Zeile behält es)',
  'console.form_line': 'Eine Zeile.',
  'console.form_lines': 'Eine pro Zeile; eine leere Zeile beendet das Feld.',
  'console.form_choose': 'Gib die Nummer, den Wert oder die Bezeichnung einer der Möglichkeiten oben ein.',
  'console.form_needs_options':
    '{title}: Ein Formular kann im Einzelaufruf nicht Feld für Feld abgefragt werden; gib seine Optionen in der Befehlszeile an: {options}.',
  'console.welcome':
    'HostOps-Konsole — du handelst als {tier} ({user}) auf {api}. /help listet die Befehle; Tab ergänzt; exit beendet.',
  'console.welcome.sandbox':
    'der SANDBOX-API (erfundene Daten, in einem Wegwerf-Speicher: DATABASE_URL wird nicht verwendet)',
  'console.help_note':
    'Konsole: Werte ohne Namen füllen die Pflichtoptionen der Reihe nach, name:wert setzt eine beliebige Option, Anführungszeichen fassen Wörter zusammen. Änderungen warten auf {confirm} oder {cancel}.',
  'console.type_button_or_command': 'Gib {buttons} oder einen Befehl mit / am Anfang ein.',
  'console.commands_start': 'Befehle beginnen mit / (versuch /help); exit beendet.',
  'console.type_buttons': 'Gib {buttons} ein.',
  'console.press': '`{button}` eingibst',
  'console.press_again': 'Gib gleich noch einmal `{button}` ein',
  'console.exit.cancelled':
    'Die Sitzung endet, während eine Änderung wartet: sie wurde verworfen, nichts wurde gesendet.',
  'console.either': '{first} oder {second}',
  'console.status.ok': 'ok',
  'console.status.error': 'Fehler',
  'console.status.warning': 'Warnung',
  'console.status.attention': 'Achtung',
  'console.status.note': 'Hinweis',
  'console.status.info': 'Info',
  'console.line.unclosed_double': 'doppeltes Anführungszeichen nicht geschlossen',
  'console.line.unclosed_single': 'einfaches Anführungszeichen nicht geschlossen',
  'console.line.empty': 'leerer Befehl',
  'console.line.unknown_command': 'unbekannter Befehl /{command}; Befehle: {commands}',
  'console.line.needs_subcommand': '{path} braucht einen Unterbefehl: {names}',
  'console.line.no_subcommand': '{path} hat keinen Unterbefehl {name}; wähl einen von: {names}',
  'console.line.option_twice': 'Option {option} ist doppelt angegeben',
  'console.line.no_option': '{path} hat keine Option {name}; {options}',
  'console.line.takes_no_options': 'er nimmt keine Optionen',
  'console.line.its_options': 'seine Optionen: {options}',
  'console.line.too_many_values':
    'zu viele Werte für {path}: {value} gehört zu keiner Option (setz Werte mit Leerzeichen in Anführungszeichen)',
  'console.line.missing': '{path}: es fehlt {options}',
  'console.line.option': 'Option {option}: {problem}',
  'console.line.not_whole_number': '{value} ist keine ganze Zahl',
  'console.line.not_number': '{value} ist keine Zahl',
  'console.line.too_large': '{value} ist zu groß',
  'console.line.below_minimum': '{value} liegt unter dem Minimum von {minimum}',
  'console.line.above_maximum': '{value} liegt über dem Maximum von {maximum}',
  'console.line.not_boolean': '{value} ist weder true noch false',
  'console.line.empty_value': 'ist leer',
  'console.line.too_short': 'ist kürzer als {length} Zeichen',
  'console.line.too_long': 'ist länger als {length} Zeichen',
  'console.line.not_discord_id': '{value} ist keine Discord-ID (17–20 Ziffern)',
  'console.line.no_files': 'diese Art Option (eine Datei) kann in der Konsole nicht angegeben werden',
  'console.line.not_a_choice': '{value} ist keins von: {choices}',
});
