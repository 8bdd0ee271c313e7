import { type Kysely, sql } from 'kysely';

// Migrations are frozen once released: never edit this file, add the next one instead.
// An index only: building it reads the table once and rewrites none of its rows. `if not exists`: safe
// to run again (Store.test.ts runs the newest migration twice).
export async function up(db: Kysely<unknown>): Promise<void> {
  // The flag and failure gauges read, at every scrape, only the watched domains that need attention:
  // usually a handful of a list of up to 100,000. A partial index holds just those, so the read does not
  // walk the list (both engines use it for a query whose WHERE is this predicate). Its text must stay
  // identical to FLAGGED in watchQueries.ts.
  await sql`create index if not exists watched_domains_flagged on watched_domains (domain) where status = 'not_found' or active = 0 or expired = 1 or transferred_away = 1 or failures > 0`.execute(
    db,
  );
}
