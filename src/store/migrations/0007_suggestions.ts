import type { Kysely } from 'kysely';

// Migrations are frozen once released: never edit this file, add the next one instead.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Suggestions read the newest entries of one command and outcome on every keystroke: one range of
  // this index each, and covering (target included), so the table itself is never read for them.
  await db.schema
    .createIndex('audit_suggestions')
    .on('audit')
    .columns(['command', 'subcommand', 'outcome', 'at', 'target'])
    .execute();
}
