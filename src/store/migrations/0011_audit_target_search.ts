import { type Kysely, sql } from 'kysely';
import type { Engine } from '../schema.js';

// Migrations are frozen once released: never edit this file, add the next one instead.
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  // `/audit target:` on SQLite: a substring, which no B-tree serves, so every search read the whole
  // window of entries (0.2–0.6 s over a year of a million). An FTS5 index of the targets' trigrams
  // (PostgreSQL has `audit_target_trgm`, 0008) finds the entries holding every trigram of what was typed;
  // the LIKE beside it keeps exactly the ones that contain it. `detail=none` keeps rowids per trigram
  // and nothing else: about 20 MB for a million targets. Contentless (the targets stay in `audit`
  // alone) with `contentless_delete` (SQLite 3.43; better-sqlite3 bundles its own, newer one): the
  // purge's delete trigger removes an entry by its rowid, where an external-content index had to be
  // handed the old target and wrote a delete marker per trigram, whose merges held the event loop for
  // 20–60 ms now and then during a purge. Building it reads `audit` once (about 2 s for a million
  // entries) and rewrites none of its rows.
  if (engine !== 'sqlite') return;
  await sql`create virtual table audit_target_search using fts5(
    target, content='', contentless_delete=1, tokenize='trigram', detail='none'
  )`.execute(db);
  await sql`insert into audit_target_search(rowid, target)
    select id, target from audit where target is not null`.execute(db);
  // Every audit entry is its own transaction, so its own small segment of the index, and FTS5 merges
  // segments as they pile up, within the insert that tips a level over. With its defaults (merge at 4
  // a level, by force at 16) one insert in a hundred spent 5–75 ms merging, holding the event loop;
  // at 16 and 64 one in a thousand does, for 25 ms at most. Searches read a few more segments.
  await sql`insert into audit_target_search(audit_target_search, rank) values ('automerge', 16)`.execute(db);
  await sql`insert into audit_target_search(audit_target_search, rank) values ('crisismerge', 64)`.execute(
    db,
  );
  await sql`create trigger audit_target_search_insert after insert on audit when new.target is not null
    begin
      insert into audit_target_search(rowid, target) values (new.id, new.target);
    end`.execute(db);
  await sql`create trigger audit_target_search_delete after delete on audit when old.target is not null
    begin
      delete from audit_target_search where rowid = old.id;
    end`.execute(db);
  await sql`create trigger audit_target_search_update after update of target on audit
    begin
      delete from audit_target_search where rowid = old.id;
      insert into audit_target_search(rowid, target) select new.id, new.target where new.target is not null;
    end`.execute(db);
}
