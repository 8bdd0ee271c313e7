import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import type { SqliteDatabase as KyselySqliteDatabase } from 'kysely';

/** Distinct SQL texts kept prepared: the store's queries, with room for IN lists of varying length. */
const KEPT = 256;

/**
 * The SQLite connection as Kysely sees it, with each SQL text prepared once. Kysely's SQLite driver
 * prepares every query afresh, and SQLite's prepare (parsing and planning) cost as much as running the
 * store's small reads and writes: a burst of 200 interactions over HTTP spent ≈ 50 ms of its CPU in it.
 * A statement still being iterated (a streamed read) is busy: the query that wants its text meanwhile
 * gets a fresh one. Least recently used texts are dropped past KEPT.
 */
export function cachedStatements(database: SqliteDatabase): KyselySqliteDatabase {
  const kept = new Map<string, Statement>();
  return {
    prepare(sql: string) {
      const known = kept.get(sql);
      if (known !== undefined && !known.busy) {
        // Most recently used last: Map keeps insertion order.
        kept.delete(sql);
        kept.set(sql, known);
        return known;
      }
      const statement = database.prepare(sql);
      if (known === undefined) {
        kept.set(sql, statement);
        if (kept.size > KEPT) kept.delete(kept.keys().next().value as string);
      }
      return statement;
    },
    close() {
      kept.clear();
      database.close();
    },
  };
}
