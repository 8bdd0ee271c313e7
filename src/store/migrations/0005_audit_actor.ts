import type { Kysely } from 'kysely';

// Migrations are frozen once released: never edit this file, add the next one instead.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Who acted, where it is not the requester: the approver who approved (or rejected) a change. Adding
  // nullable columns rewrites no rows, on either engine.
  await db.schema.alterTable('audit').addColumn('acted_by_id', 'text').execute();
  await db.schema.alterTable('audit').addColumn('acted_by_name', 'text').execute();
  // `/audit user:` matches the requester or the one who acted; this serves the second half of that OR.
  await db.schema.createIndex('audit_acted_by_at').on('audit').columns(['acted_by_id', 'at']).execute();
}
