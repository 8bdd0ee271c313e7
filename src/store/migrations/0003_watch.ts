import type { Kysely } from 'kysely';

// Migrations are frozen once released: never edit this file, add the next one instead.
export async function up(db: Kysely<unknown>): Promise<void> {
  // What the watch last saw of each domain. Every change to these columns is a conditional update
  // from the old values, so of two overlapping runs exactly one reports a change.
  await db.schema
    .createTable('watched_domains')
    .addColumn('domain', 'text', (col) => col.primaryKey())
    .addColumn('unicode', 'text', (col) => col.notNull())
    .addColumn('added_by_id', 'text', (col) => col.notNull())
    .addColumn('added_at', 'bigint', (col) => col.notNull())
    .addColumn('checked_at', 'bigint')
    // 'new' (never checked), 'ok', 'not_found', 'failed'
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('new'))
    .addColumn('failures', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('expiry_date', 'text')
    // 1, 0, or null while unknown (SQLite has no boolean; integers compare the same on both engines)
    .addColumn('active', 'integer')
    .addColumn('expired', 'integer')
    .addColumn('transferred_away', 'integer')
    .execute();
  await db.schema.createIndex('watched_domains_expiry').on('watched_domains').column('expiry_date').execute();

  // One row per alert ever sent: the unique key is what makes an alert go out once.
  await db.schema
    .createTable('watch_alerts')
    .addColumn('domain', 'text', (col) => col.notNull())
    .addColumn('alert_key', 'text', (col) => col.notNull())
    .addColumn('sent_at', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('watch_alerts_pkey', ['domain', 'alert_key'])
    .execute();
}
