import type { Kysely } from 'kysely';

// Migrations are frozen once released: never edit this file, add the next one instead.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Which replica is sending a change: if it stops heartbeating, another one records the outcome as unknown.
  await db.schema.alterTable('changes').addColumn('replica_id', 'text').execute();
  // The approval request of a change that needs a second person: where it was posted, who decided, why.
  await db.schema.alterTable('changes').addColumn('approval', 'text').execute();

  await db.schema
    .createTable('replicas')
    .addColumn('replica_id', 'text', (col) => col.primaryKey())
    .addColumn('host', 'text', (col) => col.notNull())
    .addColumn('pid', 'integer', (col) => col.notNull())
    .addColumn('started_at', 'bigint', (col) => col.notNull())
    .addColumn('heartbeat_at', 'bigint', (col) => col.notNull())
    .execute();
}
