import { type Kysely, sql } from 'kysely';
import type { Engine } from '../schema.js';

// Migrations are frozen once released: never edit this file, add the next one instead.
// Indexes only: building one reads the table once and rewrites none of its rows, on either engine.
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  // `/audit command:` and `/audit outcome:` over a year of entries: one range of each, already in the
  // page's order (at desc, id desc), so neither the newest nor the oldest page sorts the matches, and
  // counting them reads the index alone. SQLite keeps the rowid (`id`) in every index entry anyway;
  // PostgreSQL needs it named to answer from the index alone.
  const tail = engine === 'postgres' ? ['at', 'id'] : ['at'];
  await db.schema
    .createIndex('audit_command_at')
    .on('audit')
    .columns(['command', 'subcommand', ...tail])
    .execute();
  await db.schema
    .createIndex('audit_outcome_at')
    .on('audit')
    .columns(['outcome', ...tail])
    .execute();

  if (engine === 'postgres') {
    // `/audit target:` is a substring: a B-tree cannot help, a trigram index can. pg_trgm ships with
    // PostgreSQL (contrib) and is a trusted extension (13+), which a database owner may create; where it
    // is missing or not ours to create, the search still works, by reading the entries of the window.
    const { rows } = await sql<{ usable: boolean }>`
      select exists (select 1 from pg_extension where extname = 'pg_trgm')
        or (exists (select 1 from pg_available_extensions where name = 'pg_trgm')
            and has_database_privilege(current_database(), 'CREATE')) as usable`.execute(db);
    if (rows[0]?.usable) {
      await sql`create extension if not exists pg_trgm`.execute(db);
      await sql`create index audit_target_trgm on audit using gin (lower(target) gin_trgm_ops)`.execute(db);
    }
  }
}
