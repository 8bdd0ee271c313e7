import { type Kysely, sql } from 'kysely';

// Migrations are frozen once released: never edit this file, add the next one instead.
export async function up(db: Kysely<unknown>): Promise<void> {
  // The registry's last answer (RDAP) per domain, beside what the provider says in watched_domains. Kept
  // for domains looked up on request too, so no foreign key to the watch list. `version` is what the
  // conditional update compares: of two overlapping runs, one reports a change.
  await db.schema
    .createTable('registry_answers')
    .ifNotExists()
    .addColumn('domain', 'text', (col) => col.primaryKey())
    .addColumn('read_at', 'bigint', (col) => col.notNull())
    // ok, not_found, no_rdap, unreadable, failed
    .addColumn('outcome', 'text', (col) => col.notNull())
    .addColumn('server', 'text')
    .addColumn('expires_at', 'text')
    // JSON arrays as text, on both engines
    .addColumn('statuses', 'text')
    .addColumn('nameservers', 'text')
    .addColumn('delegation_signed', 'integer')
    .addColumn('flags', 'text', (col) => col.notNull().defaultTo('[]'))
    // 1 when the flags were decided for the watch (see RegistryRecord.watched)
    .addColumn('watched', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('version', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();
  // The flag gauge reads, at every scrape, only the domains with a registry flag: a handful of many. Its
  // predicate must stay identical to FLAGGED in registryQueries.ts.
  await sql`create index if not exists registry_answers_flagged on registry_answers (domain) where flags <> '[]'`.execute(
    db,
  );
}
