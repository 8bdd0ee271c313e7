import type { Kysely } from 'kysely';
import type { Engine } from '../schema.js';

// Migrations are frozen once released: never edit this file, add the next one instead.
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable('changes')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('operation', 'text', (col) => col.notNull())
    .addColumn('command', 'text', (col) => col.notNull())
    .addColumn('target', 'text')
    .addColumn('parameters', 'text', (col) => col.notNull())
    .addColumn('preview', 'text', (col) => col.notNull())
    .addColumn('requested_by_id', 'text', (col) => col.notNull())
    .addColumn('requested_by_name', 'text', (col) => col.notNull())
    .addColumn('guild_id', 'text')
    .addColumn('channel_id', 'text')
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('correlation_id', 'text', (col) => col.notNull())
    .addColumn('result', 'text')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .addColumn('expires_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('changes_state_expires_at')
    .on('changes')
    .columns(['state', 'expires_at'])
    .execute();

  // SQLite only auto-increments an INTEGER PRIMARY KEY; PostgreSQL wants an identity column.
  await db.schema
    .createTable('audit')
    .addColumn('id', engine === 'sqlite' ? 'integer' : 'bigint', (col) =>
      engine === 'sqlite' ? col.primaryKey().autoIncrement() : col.primaryKey().generatedAlwaysAsIdentity(),
    )
    .addColumn('at', 'bigint', (col) => col.notNull())
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('user_name', 'text', (col) => col.notNull())
    .addColumn('guild_id', 'text')
    .addColumn('channel_id', 'text')
    .addColumn('command', 'text', (col) => col.notNull())
    .addColumn('subcommand', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('target', 'text')
    .addColumn('outcome', 'text', (col) => col.notNull())
    .addColumn('detail', 'text')
    .addColumn('correlation_id', 'text', (col) => col.notNull())
    .addColumn('duration_ms', 'integer')
    .addColumn('parameters', 'text')
    .addColumn('change_id', 'text')
    .execute();
  await db.schema.createIndex('audit_at').on('audit').column('at').execute();
  await db.schema.createIndex('audit_user_id_at').on('audit').columns(['user_id', 'at']).execute();

  await db.schema
    .createTable('interaction_claims')
    .addColumn('interaction_id', 'text', (col) => col.primaryKey())
    .addColumn('replica_id', 'text', (col) => col.notNull())
    .addColumn('claimed_at', 'bigint', (col) => col.notNull())
    .execute();
  // One row per interaction adds up; the purge must not scan them all.
  await db.schema
    .createIndex('interaction_claims_claimed_at')
    .on('interaction_claims')
    .column('claimed_at')
    .execute();

  await db.schema
    .createTable('job_runs')
    .addColumn('job', 'text', (col) => col.notNull())
    .addColumn('slot', 'text', (col) => col.notNull())
    .addColumn('replica_id', 'text', (col) => col.notNull())
    .addColumn('claimed_at', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('job_runs_pkey', ['job', 'slot'])
    .execute();
}
