import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { cachedStatements } from '../../src/store/cachedStatements.js';

const opened: Database.Database[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
});

function database() {
  const db = new Database(':memory:');
  opened.push(db);
  db.exec('create table t (n integer)');
  db.exec('insert into t (n) values (1), (2), (3)');
  return db;
}

describe('cachedStatements', () => {
  it('prepares each SQL text once', () => {
    const cached = cachedStatements(database());
    const first = cached.prepare('select n from t where n > ?');
    expect(cached.prepare('select n from t where n > ?')).toBe(first);
    expect(cached.prepare('select n from t where n < ?')).not.toBe(first);
    expect(first.all([1])).toEqual([{ n: 2 }, { n: 3 }]);
    expect(first.all([2])).toEqual([{ n: 3 }]);
  });

  it('gives a query a fresh statement while the kept one is still being iterated', () => {
    const cached = cachedStatements(database());
    const text = 'select n from t order by n';
    const streaming = cached.prepare(text).iterate([]);
    expect(streaming.next().value).toEqual({ n: 1 });
    // The same text again while the first is mid-iteration: better-sqlite3 would refuse the kept one.
    expect(cached.prepare(text).all([])).toHaveLength(3);
    expect([...streaming]).toEqual([{ n: 2 }, { n: 3 }]);
  });

  it('keeps at most 256 texts, dropping the least recently used', () => {
    const cached = cachedStatements(database());
    const hot = cached.prepare('select 0 as n');
    for (let i = 1; i <= 300; i++) {
      cached.prepare(`select ${i} as n`);
      // Used all along: never the least recently used.
      expect(cached.prepare('select 0 as n')).toBe(hot);
    }
    const early = cached.prepare('select 1 as n');
    expect(cached.prepare('select 1 as n')).toBe(early);
    const late = cached.prepare('select 300 as n');
    expect(cached.prepare('select 300 as n')).toBe(late);
  });

  it('serves Kysely: the same text read, then streamed, then read again', async () => {
    const db = new Kysely<{ t: { n: number } }>({
      dialect: new SqliteDialect({ database: cachedStatements(database()) }),
    });
    const query = db.selectFrom('t').select('n').orderBy('n');
    expect(await query.execute()).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    const seen: number[] = [];
    for await (const row of query.stream()) seen.push(row.n);
    expect(seen).toEqual([1, 2, 3]);
    await db.insertInto('t').values({ n: 4 }).execute();
    expect(await query.execute()).toHaveLength(4);
    expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
    await db.destroy();
  });
});
