import type { Kysely } from 'kysely';

// Migrations are frozen once released: never edit this file, add the next one instead.
export async function up(db: Kysely<unknown>): Promise<void> {
  // The invoker's language: a prompt edited later (expiry, outcome after a restart) stays in it.
  // Null for changes made before HostOps spoke German, which were all in English.
  await db.schema.alterTable('changes').addColumn('locale', 'text').execute();
}
