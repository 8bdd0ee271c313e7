import { type Kysely, sql } from 'kysely';
import type { Engine } from '../schema.js';

// Migrations are frozen once released: never edit this file, add the next one instead.
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  // The trigger of 0011 gave every audit entry — every command — its own FTS5 segment, written and now
  // and then merged inside the command's own insert, on the event loop: one command in 40–70 held it for
  // over a millisecond after its answer, up to 24 ms (docs/bench/2026-11-25-history-at-scale.md). Targets are indexed in batches
  // instead (targetIndexer.ts); a search reads the few entries past the last indexed one by LIKE.
  if (engine !== 'sqlite') return;
  await sql`drop trigger if exists audit_target_search_insert`.execute(db);
}
