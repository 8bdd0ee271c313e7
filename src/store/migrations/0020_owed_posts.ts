import { type Kysely, sql } from 'kysely';

// Migrations are frozen once released: never edit this file, add the next one instead.
// Safe to run again (Store.test.ts runs the newest migration twice).
export async function up(db: Kysely<unknown>): Promise<void> {
  // The messages an audit row owes Discord — its audit-channel line, and for a change the sweep ended,
  // the notice in the change's channel — until Discord has accepted them. A replica takes one for a
  // lease (due_at moves a lease ahead, attempts counts the takes), posts it with a nonce of the row and
  // kind, and deletes it once Discord accepted: a process killed or a post refused in between leaves it
  // to the next take once the lease has run out. Replaces 0019's audit.announce_due_at, which was
  // cleared by the take itself (a line taken and never posted was lost).
  await db.schema
    .createTable('owed_posts')
    .ifNotExists()
    .addColumn('audit_id', 'bigint', (col) => col.notNull())
    // 'line' (the audit channel) or 'notice' (the audit row's channel)
    .addColumn('kind', 'text', (col) => col.notNull())
    // Store clock: takeable from then on (owed: a lease after the end; taken: a lease after the take).
    .addColumn('due_at', 'bigint', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('owed_posts_pk', ['audit_id', 'kind'])
    .execute();
  await sql`create index if not exists owed_posts_due on owed_posts (due_at)`.execute(db);
  // Lines 0019 still owed move here, once (a second run finds none left in the old column).
  await sql`insert into owed_posts (audit_id, kind, due_at, attempts)
    select id, 'line', announce_due_at, 0 from audit where announce_due_at is not null on conflict do nothing`.execute(
    db,
  );
  await sql`update audit set announce_due_at = null where announce_due_at is not null`.execute(db);
}
