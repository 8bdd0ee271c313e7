import { type Kysely, sql } from 'kysely';

// Migrations are frozen once released: never edit this file, add the next one instead.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Changes that are checked again right before they are sent (a DNS set against the domain's latest
  // one) are sent one at a time per key, e.g. `submitDnsRecords example.org`: the unique partial index
  // lets one change of a key be `sending` at a time, so the check made after the claim sees every change
  // of that key sent before it. Null for every other change.
  await db.schema.alterTable('changes').addColumn('serial_key', 'text').execute();
  await db.schema
    .createIndex('changes_one_sending_per_key')
    .unique()
    .on('changes')
    .column('serial_key')
    .where(sql.ref('state'), '=', 'sending')
    .execute();
}
