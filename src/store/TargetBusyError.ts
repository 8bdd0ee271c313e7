/**
 * A change could not be claimed for sending: another change with the same serial key is being sent
 * right now (one at a time per key; migration 0016). Nothing was changed.
 */
export class TargetBusyError extends Error {
  override readonly name = 'TargetBusyError';
  constructor(readonly serialKey: string) {
    super(`another change of ${serialKey} is being sent`);
  }
}

/** A unique index refused a write: SQLite (better-sqlite3) and PostgreSQL name it differently. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}
