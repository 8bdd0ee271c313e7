import { type Kysely, sql } from 'kysely';
import type { Engine } from '../schema.js';

// Migrations are frozen once released: never edit this file, add the next one instead.
// Safe to run again (Store.test.ts runs the newest migration twice): the column and index only if absent.
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  // A change's end and its audit row are written in one transaction; its audit-channel line is owed
  // until a replica takes it (one conditional update) and posts it: the settling replica right after
  // telling the change's end, or any replica's sweep once this time (the store's clock) has passed —
  // so a process killed between the two writes leaves the line to the sweep, never a line twice.
  if (engine === 'postgres') {
    await sql`alter table audit add column if not exists announce_due_at bigint`.execute(db);
  } else {
    const { rows } = await sql<{ name: string }>`select name from pragma_table_info('audit')`.execute(db);
    if (!rows.some((row) => row.name === 'announce_due_at')) {
      await sql`alter table audit add column announce_due_at bigint`.execute(db);
    }
  }
  // Only owed lines are in it: the settling replica's take and the sweep's read a handful of entries.
  await sql`create index if not exists audit_announce_due on audit (announce_due_at) where announce_due_at is not null`.execute(
    db,
  );
}
