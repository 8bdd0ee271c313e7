import type { Kysely } from 'kysely';

// Migrations are frozen once released: never edit this file, add the next one instead.
// Safe to run again (Store.test.ts runs the newest migration twice).
export async function up(db: Kysely<unknown>): Promise<void> {
  // When an operator last had a domain re-read at its registry on demand (/domain info's button): one row
  // per domain, moved by a conditional upsert, so every replica refuses a second ask within the window.
  await db.schema
    .createTable('registry_reasks')
    .ifNotExists()
    .addColumn('domain', 'text', (col) => col.primaryKey())
    // ms since the epoch
    .addColumn('asked_at', 'bigint', (col) => col.notNull())
    .execute();
}
