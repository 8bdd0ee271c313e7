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

function cells(entry: AuditEntry): string[] {
  return [
    entry.at.toISOString(),
    entry.userId,
    entry.userName,
    entry.guildId ?? '',
    entry.channelId ?? '',
    entry.command,
    entry.subcommand,
    entry.target ?? '',
    entry.outcome,
    entry.detail ?? '',
    entry.correlationId,
    entry.durationMs === null ? '' : String(entry.durationMs),
    entry.parameters === null ? '' : JSON.stringify(entry.parameters),
    entry.changeId ?? '',
    entry.actedById ?? '',
    entry.actedByName ?? '',
  ];
}

/**
 * Audit entries as CSV (RFC 4180: a header row, CRLF after every row, quoted where needed), safe to
 * open in a spreadsheet: no cell starts a formula. `at` is ISO 8601 UTC, `parameters` JSON.
 */
export function auditCsv(rows: readonly AuditEntry[]): string {
  return `${csvLine(AUDIT_CSV_HEADER)}${auditCsvRows(rows)}`;
}

/** The rows alone, no header: an export is written chunk by chunk. */
export function auditCsvRows(rows: readonly AuditEntry[]): string {
  let text = '';
  for (const row of rows) text += csvLine(cells(row));
  return text;
}

const csvLine = (row: readonly string[]) => `${row.map(csvCell).join(',')}\r\n`;
