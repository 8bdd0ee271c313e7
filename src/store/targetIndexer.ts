import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.js';

/** How long new audit entries wait before their targets go into the trigram index, together. */
export const TARGET_INDEX_DELAY_MS = 2_000;

/**
 * SQLite: the newest indexed entry of `audit_target_search` (its docsize table holds one row per indexed
 * entry, keyed by the entry's id): entries after it are not indexed yet, and a search reads them by LIKE.
 */
export const indexedUpTo = sql<number>`(select coalesce(max(id), 0) from audit_target_search_docsize)`;

export interface TargetIndexer {
  /** An entry was written: its target goes into the index within TARGET_INDEX_DELAY_MS. */
  schedule(): void;
  /** Indexes every entry not indexed yet, now (after an import, before closing). */
  flush(): Promise<void>;
}

/**
 * SQLite: puts the targets of new audit entries into `audit_target_search` in batches — one statement,
 * so one FTS5 segment, for every entry written within TARGET_INDEX_DELAY_MS — instead of a segment per
 * entry written and merged inside each command's insert (0013). Nothing is lost to a crash: the first
 * batch after a start indexes whatever the last process left.
 */
export function targetIndexer(db: Kysely<Database>, onError: (error: unknown) => void): TargetIndexer {
  let timer: NodeJS.Timeout | undefined;
  // A store at a schema before 0011 (the benchmark's loader writes one on purpose) has no index to fill;
  // 0011 indexes every entry when it creates it.
  let exists = false;
  const index = async () => {
    exists ||=
      (await sql`select 1 from sqlite_master where name = 'audit_target_search'`.execute(db)).rows.length > 0;
    if (!exists) return;
    await sql`insert into audit_target_search(rowid, target)
      select id, target from audit where id > ${indexedUpTo} and target is not null`.execute(db);
  };
  return {
    schedule() {
      if (timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        index().catch(onError);
      }, TARGET_INDEX_DELAY_MS);
      timer.unref();
    },
    async flush() {
      clearTimeout(timer);
      timer = undefined;
      await index();
    },
  };
}
