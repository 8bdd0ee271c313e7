import type { Kysely } from 'kysely';

// Migrations are frozen once released: never edit this file, add the next one instead.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Every DNS record set HostOps sent, by the change that sent it: the provider's API cannot read a
  // domain's records back, so this is the only memory of what a domain had before a change.
  await db.schema
    .createTable('dns_sets')
    .addColumn('change_id', 'text', (col) => col.primaryKey())
    .addColumn('domain', 'text', (col) => col.notNull())
    // The records exactly as encoded for the API (encodeDnsRecords).
    .addColumn('records', 'text', (col) => col.notNull())
    .addColumn('outcome', 'text', (col) => col.notNull())
    .addColumn('sent_by_id', 'text', (col) => col.notNull())
    .addColumn('sent_by_name', 'text', (col) => col.notNull())
    .addColumn('sent_at', 'bigint', (col) => col.notNull())
    .addColumn('correlation_id', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('dns_sets_domain_sent_at')
    .on('dns_sets')
    .columns(['domain', 'sent_at'])
    .execute();
}
