import { type Kysely, sql } from 'kysely';
import type { Engine } from '../schema.js';

// Migrations are frozen once released: never edit this file, add the next one instead.
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  // `/audit target:` on SQLite: a substring, which no B-tree serves, so every search read the whole
  // window of entries (0.2–0.6 s over a year of a million). An FTS5 index of the targets' trigrams
  // (PostgreSQL has `audit_target_trgm`, 0008) finds the entries holding every trigram of what was typed;
  // the LIKE beside it keeps exactly the ones that contain it. `detail=none` and `columnsize=0` keep
  // rowids per trigram and nothing else: about 20 MB for a million targets. External content: the
  // targets stay in `audit` alone; the triggers keep the index in step with inserts, the purge's
  // deletes and (should there ever be one) an update. Building it reads `audit` once (1.5 s for a
  // million entries) and rewrites none of its rows.
  if (engine !== 'sqlite') return;
  await sql`create virtual table audit_target_search using fts5(
    target, content='audit', content_rowid='id', tokenize='trigram', detail='none', columnsize=0
  )`.execute(db);
  await sql`insert into audit_target_search(audit_target_search) values ('rebuild')`.execute(db);
  await sql`create trigger audit_target_search_insert after insert on audit when new.target is not null
    begin
      insert into audit_target_search(rowid, target) values (new.id, new.target);
    end`.execute(db);
  await sql`create trigger audit_target_search_delete after delete on audit when old.target is not null
    begin
      insert into audit_target_search(audit_target_search, rowid, target) values ('delete', old.id, old.target);
    end`.execute(db);
  await sql`create trigger audit_target_search_update after update of target on audit
    begin
      insert into audit_target_search(audit_target_search, rowid, target)
        select 'delete', old.id, old.target where old.target is not null;
      insert into audit_target_search(rowid, target) select new.id, new.target where new.target is not null;
    end`.execute(db);
}
