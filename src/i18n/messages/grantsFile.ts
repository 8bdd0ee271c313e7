import { translationOf } from '../defineMessages.js';

/** The grants as a YAML file: /access export and /access import (src/access/grantsYaml.ts). */
export const en = {
  'grantsFile.expected':
    'a YAML file as `/access export` gives it: `grants:`, a list of entries with `who` (role:<id> or user:<id>), `what`, `on` and, if wanted, `id` and `until`; at most {max} grants and {kb} KB',
  'grantsFile.yaml': 'it is not valid YAML: {problem}',
  'grantsFile.unknown_keys': '{where} has keys HostOps does not know: {keys}',
  'grantsFile.shape': '{where}: {problem}',
  'grantsFile.top': 'the top level',
  'grantsFile.entry': '{where}: {problem}',
  'grantsFile.id': '{input} is not a grant id (g and eight hex digits)',
  'grantsFile.id_twice': 'grant id {input} is listed twice',
  'grantsFile.until': '{input} is not a date and time',
  'grantsFile.not_discord': '{name} is not stored by Discord',
  'grantsFile.too_big': '{name} is larger than {kb} KB',
  'grantsFile.not_utf8': '{name} is not UTF-8 text',
  'grantsFile.download_failed':
    'Could not download {name} from Discord ({why}). Nothing was changed: attach it again.',
  'grantsFile.no_difference':
    'No difference: {file} lists exactly the grants in force ({total}). Nothing to change.',
  'grantsFile.stale':
    'The grants changed since the import was shown: nothing was changed, and the difference below is made against the grants in force now.',
  'grantsFile.stale_send':
    'The grants changed while this import waited for its Confirm: nothing was changed. Run `/access import` again.',
  'grantsFile.title': 'Import grants',
  'grantsFile.field.file': 'File',
  'grantsFile.field.added': 'Added ({total})',
  'grantsFile.field.removed': 'Removed ({total})',
  'grantsFile.field.unchanged': 'Unchanged',
  'grantsFile.none': 'none',
  'grantsFile.more': '…and {more} more: every grant in force after Confirm is in the attached {file}',
  'grantsFile.in_force':
    "On Confirm exactly the file's grants are in force ({total}), beside the role variables' and elevations; every other grant ends at once, on every replica.",
  'grantsFile.done': 'Grants imported',
  'grantsFile.record': 'imported {file}: {added} added, {removed} removed, {unchanged} unchanged',
  'grantsFile.export.title': 'Grants exported',
  'grantsFile.export.summary':
    "Grants in {file}: {total}. The role variables' grants live in the configuration and elevations end by themselves: neither is in the file. `/access import` applies an edited copy.",
} as const;

export const de = translationOf(en)({
  'grantsFile.expected':
    'eine YAML-Datei, wie `/access export` sie liefert: `grants:`, eine Liste von Einträgen mit `who` (role:<id> oder user:<id>), `what`, `on` und, falls gewünscht, `id` und `until`; höchstens {max} Berechtigungen und {kb} KB',
  'grantsFile.yaml': 'sie ist kein gültiges YAML: {problem}',
  'grantsFile.unknown_keys': '{where} hat Schlüssel, die HostOps nicht kennt: {keys}',
  'grantsFile.shape': '{where}: {problem}',
  'grantsFile.top': 'die oberste Ebene',
  'grantsFile.entry': '{where}: {problem}',
  'grantsFile.id': '{input} ist keine Berechtigungs-ID (g und acht Hex-Ziffern)',
  'grantsFile.id_twice': 'die Berechtigungs-ID {input} steht zweimal in der Datei',
  'grantsFile.until': '{input} ist kein Datum mit Uhrzeit',
  'grantsFile.not_discord': '{name} liegt nicht bei Discord',
  'grantsFile.too_big': '{name} ist größer als {kb} KB',
  'grantsFile.not_utf8': '{name} ist kein UTF-8-Text',
  'grantsFile.download_failed':
    '{name} ließ sich nicht von Discord laden ({why}). Nichts wurde geändert: häng die Datei erneut an.',
  'grantsFile.no_difference':
    'Kein Unterschied: {file} enthält genau die geltenden Berechtigungen ({total}). Nichts zu ändern.',
  'grantsFile.stale':
    'Die Berechtigungen haben sich geändert, seit der Import angezeigt wurde: nichts wurde geändert, der Unterschied unten ist gegen die jetzt geltenden Berechtigungen ermittelt.',
  'grantsFile.stale_send':
    'Die Berechtigungen haben sich geändert, während dieser Import auf sein Bestätigen wartete: nichts wurde geändert. Führ `/access import` erneut aus.',
  'grantsFile.title': 'Berechtigungen importieren',
  'grantsFile.field.file': 'Datei',
  'grantsFile.field.added': 'Hinzu ({total})',
  'grantsFile.field.removed': 'Entfernt ({total})',
  'grantsFile.field.unchanged': 'Unverändert',
  'grantsFile.none': 'keine',
  'grantsFile.more':
    '…und {more} weitere: jede nach dem Bestätigen geltende Berechtigung steht in der angehängten {file}',
  'grantsFile.in_force':
    'Mit Bestätigen gelten genau die Berechtigungen der Datei ({total}), neben denen der Rollen-Variablen und den Erhöhungen; jede andere endet sofort, auf jeder Replik.',
  'grantsFile.done': 'Berechtigungen importiert',
  'grantsFile.record': '{file} importiert: {added} hinzu, {removed} entfernt, {unchanged} unverändert',
  'grantsFile.export.title': 'Berechtigungen exportiert',
  'grantsFile.export.summary':
    'Berechtigungen in {file}: {total}. Die der Rollen-Variablen stehen in der Konfiguration, Erhöhungen enden von selbst: beide sind nicht in der Datei. `/access import` übernimmt eine bearbeitete Kopie.',
});
