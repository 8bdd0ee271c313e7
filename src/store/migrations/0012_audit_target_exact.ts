import { type Kysely, sql } from 'kysely';
import type { Engine } from '../schema.js';

// Migrations are frozen once released: never edit this file, add the next one instead.
// An index only: building it reads the table once and rewrites none of its rows.
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  // `/audit target:` shorter than three characters has no trigram, so neither `audit_target_trgm` nor
  // `audit_target_search` finds it within targets, and the substring read the window (0.15 s over a year
  // of a million entries). Real targets are that short — a music-bot user `al`, an /audit search `7d` —
  // so such text matches whole targets (case-insensitively): one range of this index, ordered by time.
  // PostgreSQL keeps the id too, for the order of a page within one instant.
  const columns = engine === 'postgres' ? sql`lower(target), at, id` : sql`lower(target), at`;
  await sql`create index audit_target_exact on audit (${columns})`.execute(db);
}
