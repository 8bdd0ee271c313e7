import { type Kysely, sql } from 'kysely';

// Migrations are frozen once released: never edit this file, add the next one instead.
// Safe to run again (Store.test.ts runs the newest migration twice).
export async function up(db: Kysely<unknown>): Promise<void> {
  // Grants of /access (src/access): who (a role or a user) may run what (command paths or a tier) on
  // which resource patterns, until when. `what` and `patterns` are JSON arrays of text.
  await db.schema
    .createTable('access_grants')
    .ifNotExists()
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('subject_kind', 'text', (col) => col.notNull())
    .addColumn('subject_id', 'text', (col) => col.notNull())
    .addColumn('what', 'text', (col) => col.notNull())
    .addColumn('patterns', 'text', (col) => col.notNull())
    // Epoch ms; null: until revoked.
    .addColumn('until_at', 'bigint')
    .addColumn('created_by', 'text', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    // The approved elevation request (a change id) a grant came from.
    .addColumn('request_id', 'text')
    .execute();
  // One row: bumped in the same transaction as every write of the grants, read before every decision, so
  // each replica knows at the cost of one primary-key read whether what it compiled is still in force.
  await db.schema
    .createTable('access_generation')
    .ifNotExists()
    .addColumn('id', 'integer', (col) => col.primaryKey())
    .addColumn('generation', 'bigint', (col) => col.notNull())
    .execute();
  await sql`insert into access_generation (id, generation) values (1, 0) on conflict do nothing`.execute(db);
}
