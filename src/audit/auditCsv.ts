import type { AuditEntry } from '../store/index.js';

/**
 * Not translated, whatever the invoker's language: a CSV export is data, not prose. Column names,
 * outcomes, ISO 8601 times and plain numbers stay machine-readable English, so a script or a
 * spreadsheet reads every export alike.
 */
export const AUDIT_CSV_HEADER = [
  'at',
  'user_id',
  'user_name',
  'guild_id',
  'channel_id',
  'command',
  'subcommand',
  'target',
  'outcome',
  'detail',
  'correlation_id',
  'duration_ms',
  'parameters',
  'change_id',
  'acted_by_id',
  'acted_by_name',
] as const;

// What a spreadsheet may run as a formula (OWASP "CSV injection"): `=`, `+`, `-`, `@`, tab and CR.
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One cell: a value a spreadsheet would read as a formula gets a leading `'` (so it shows as text),
 * then RFC 4180 quoting for a value holding a quote, a comma or a line break.
 */
export function csvCell(value: string): string {
  const guarded = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

/**
 * One entry's line, its cells in AUDIT_CSV_HEADER's order, each through csvCell. Written as one template
 * rather than an array of cells joined: an export turns 10,000 entries into lines, and the arrays and
 * pieces were most of the garbage it left (the process grew 15–20 MB by it).
 */
function csvLine(entry: AuditEntry): string {
  const cell = (value: string | null) => csvCell(value ?? '');
  return `${cell(entry.at.toISOString())},${cell(entry.userId)},${cell(entry.userName)},${cell(entry.guildId)},${cell(entry.channelId)},${cell(entry.command)},${cell(entry.subcommand)},${cell(entry.target)},${cell(entry.outcome)},${cell(entry.detail)},${cell(entry.correlationId)},${cell(entry.durationMs === null ? null : String(entry.durationMs))},${cell(entry.parameters === null ? null : JSON.stringify(entry.parameters))},${cell(entry.changeId)},${cell(entry.actedById)},${cell(entry.actedByName)}\r\n`;
}

/**
 * Audit entries as CSV (RFC 4180: a header row, CRLF after every row, quoted where needed), safe to
 * open in a spreadsheet: no cell starts a formula. `at` is ISO 8601 UTC, `parameters` JSON.
 */
export function auditCsv(rows: readonly AuditEntry[]): string {
  return `${AUDIT_CSV_HEADER.map(csvCell).join(',')}\r\n${auditCsvRows(rows)}`;
}

/** The rows alone, no header: an export is written chunk by chunk. */
export function auditCsvRows(rows: readonly AuditEntry[]): string {
  return rows.map(csvLine).join('');
}
