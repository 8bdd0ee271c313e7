import type { Kysely } from 'kysely';

// Migrations are frozen once released: never edit this file, add the next one instead.
export async function up(db: Kysely<unknown>): Promise<void> {
  // What every face of HostOps must read alike (the approval policy the bot runs with), so a console
  // started with fewer variables cannot act on a different policy.
  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('value', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();

  // Open forms (modals): any replica may receive the submit, so the form lives here, not in memory.
  await db.schema
    .createTable('forms')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('owner_id', 'text', (col) => col.notNull())
    .addColumn('command', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('correlation_id', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('forms_expires_at').on('forms').column('expires_at').execute();

  // Whether a replica answers Discord ('bot') or is a console session: only bots take interactions
  // over from a replica that is stopping. A constant default adds the column without a table rewrite.
  await db.schema
    .alterTable('replicas')
    .addColumn('role', 'text', (col) => col.notNull().defaultTo('bot'))
    .execute();
}
