// A year of history, at a small scale, loaded by the benchmarks' own loader (bench/loadHistory.ts):
// /audit's filters, its deepest page and the retention purge must each read an index range, on both
// engines, and answer what a plain reading of the rows answers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type Compilable, CompiledQuery, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  type HistoryScale,
  type LoadedHistory,
  loadHistory,
  userId,
  watchedDomain,
} from '../../bench/loadHistory.js';
import {
  auditPurgeBatch,
  auditQueries,
  PURGE_BATCH,
  PURGE_MAX_REST_MS,
  PURGE_PAUSE_MS,
  PURGE_REST,
  purgeRestMs,
  targetCandidates,
  targetTrigrams,
} from '../../src/store/auditQueries.js';
import { type AuditFilter, openStore, type Store } from '../../src/store/index.js';
import type { Database as Schema } from '../../src/store/schema.js';
import { createDatabase } from '../support/startPostgres.js';

const tmp = mkdtempSync(join(tmpdir(), 'hostops-history-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const SCALE: HistoryScale = {
  audit: 6_000,
  // Three purge batches (PURGE_BATCH 25), the last one short: the purge rests PURGE_REST times each batch's
  // time after it, so ten batches took up to a minute with test files running side by side.
  expired: 60,
  days: 400,
  users: 50,
  changes: 600,
  watched: 300,
  journalDomains: 2_000,
  servers: 100,
};
const NOW = new Date('2031-06-15T12:00:00.000Z');
const DAY_MS = 86_400_000;
const since = (days: number) => new Date(NOW.getTime() - days * DAY_MS);

/** Each /audit filter alone over the whole window, and the index its matches must come from. */
const FILTERS: { name: string; filter: AuditFilter; sqlite: string[]; postgres: (string | RegExp)[] }[] = [
  { name: 'days', filter: { since: since(400) }, sqlite: ['audit_at'], postgres: ['audit_at'] },
  {
    name: 'user',
    filter: { since: since(400), userId: userId(7) },
    sqlite: ['audit_user_id_at', 'audit_acted_by_at'],
    postgres: ['audit_user_id_at', 'audit_acted_by_at'],
  },
  {
    name: 'command',
    filter: { since: since(400), command: 'domain', subcommand: 'info' },
    sqlite: ['audit_command_at'],
    postgres: ['audit_command_at'],
  },
  {
    name: 'outcome',
    filter: { since: since(400), outcome: 'unknown' },
    sqlite: ['audit_outcome_at'],
    postgres: ['audit_outcome_at'],
  },
  {
    // No B-tree serves a substring: SQLite has its FTS5 trigram index (`audit_target_search`, 0011),
    // PostgreSQL its trigram index, which it prefers at a million rows
    // (docs/bench/2026-11-25-history-at-scale.md) but not at a few thousand.
    name: 'target',
    filter: { since: since(400), target: 'site123' },
    sqlite: ['audit_target_search'],
    postgres: [/audit_target_trgm|audit_at/],
  },
];

const HISTORY_INDEXES = ['audit_command_at', 'audit_outcome_at'];

const engines = [
  {
    engine: 'sqlite' as const,
    async open() {
      const path = join(tmp, 'history.db');
      const store = await openStore(`sqlite:${path}`);
      const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: new Database(path) }) });
      return { store, db };
    },
    // Production SQLite stores are never ANALYZEd: the plans must hold without statistics.
    async prepare() {},
    explain: (text: string) => `EXPLAIN QUERY PLAN ${text}`,
    indexes: `select name from sqlite_master where type = 'index' and tbl_name = 'audit'`,
    // A read of the table outside any index: "SCAN audit" without "USING … INDEX" (a scan of the
    // FTS5 table `audit_target_search` is a look-up in its index).
    tableScan: /SCAN audit\b(?! USING)/,
  },
  {
    engine: 'postgres' as const,
    async open() {
      const url = await createDatabase(inject('postgresUrl'), 'history');
      const store = await openStore(url);
      const db = new Kysely<Schema>({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }),
      });
      return { store, db };
    },
    // A few thousand rows fit in a handful of pages, where a sequential scan is rightly cheapest; with
    // it priced out, the plan shows whether an index *can* answer (as it must at a million rows).
    async prepare(db: Kysely<Schema>) {
      await db.executeQuery(CompiledQuery.raw('ANALYZE'));
      await db.executeQuery(CompiledQuery.raw('SET enable_seqscan = off'));
    },
    explain: (text: string) => `EXPLAIN (FORMAT JSON) ${text}`,
    indexes: `select indexname as name from pg_indexes where tablename = 'audit'`,
    tableScan: /Seq Scan/,
  },
];

describe.each(engines)(
  '$engine: a year of history',
  ({ engine, open, prepare, explain, indexes, tableScan }) => {
    let store: Store;
    let db: Kysely<Schema>;
    let loaded: LoadedHistory;

    const plan = async (query: Compilable) => {
      const compiled = query.compile();
      const { rows } = await db.executeQuery(
        CompiledQuery.raw(explain(compiled.sql), [...compiled.parameters]),
      );
      return JSON.stringify(rows);
    };

    beforeAll(async () => {
      ({ store, db } = await open());
      loaded = await loadHistory(store, SCALE, { seed: 7, now: NOW });
      await prepare(db);
    }, 120_000);

    afterAll(async () => {
      await db?.destroy();
      await store?.close();
    });

    it('loads the whole history through the store', () => {
      expect(loaded.counts).toEqual({
        audit: SCALE.audit + SCALE.expired,
        changes: SCALE.changes,
        watched: SCALE.watched,
        alerts: loaded.counts.alerts,
      });
      expect(loaded.counts.alerts).toBeGreaterThan(SCALE.watched);
    });

    it('has the history indexes', async () => {
      const { rows } = await db.executeQuery<{ name: string }>(CompiledQuery.raw(indexes));
      const names = rows.map((row) => row.name);
      expect(names).toEqual(
        expect.arrayContaining([...HISTORY_INDEXES, 'audit_at', 'audit_user_id_at', 'audit_target_exact']),
      );
      if (engine === 'postgres') {
        expect(names).toContain('audit_target_trgm');
        // Every B-tree /audit counts and pages through ends in the id (0008, 0010), so (id, at) of each
        // match comes from the index alone.
        const { rows: defs } = await db.executeQuery<{ name: string; def: string }>(
          CompiledQuery.raw(
            `select indexname as name, indexdef as def from pg_indexes where tablename = 'audit'`,
          ),
        );
        for (const name of ['audit_at', 'audit_user_id_at', 'audit_acted_by_at', ...HISTORY_INDEXES]) {
          expect([name, defs.find((d) => d.name === name)?.def]).toEqual([
            name,
            expect.stringMatching(/\bat, id\)$/),
          ]);
        }
      }
    });

    describe.each(FILTERS)('/audit $name', (testCase) => {
      it('counts from its index and pages to the oldest page, never reading the whole table', async () => {
        const expected = testCase[engine];
        const total = (await store.audit.query(testCase.filter, { limit: 10, offset: 0 })).total;
        expect(total).toBeGreaterThan(10);
        const newest = auditQueries(db, engine, testCase.filter, { limit: 10, offset: 0 });
        const oldest = auditQueries(
          db,
          engine,
          testCase.filter,
          { limit: 10, offset: Math.floor((total - 1) / 10) * 10 },
          { total },
        );
        // Given the count, the oldest page is read from the oldest end; the newest from the newest.
        expect([newest.fromOldest, oldest.fromOldest]).toEqual([false, true]);
        // Either page may walk `audit_at` from its end until ten match (PostgreSQL's choice where matches
        // are dense); the count must come from the filter's own index.
        for (const query of [newest.page, oldest.page]) expect(await plan(query)).not.toMatch(tableScan);
        const text = await plan(oldest.count);
        for (const index of expected) expect(text).toMatch(index);
        expect(text).not.toMatch(tableScan);
      });

      it('counts up to a cap and reads the oldest page from the oldest end, from its index', async () => {
        const expected = testCase[engine];
        const { countUpTo, page } = auditQueries(db, engine, testCase.filter, {
          limit: 11,
          offset: 0,
          from: 'oldest',
        });
        const bounded = await plan(countUpTo(10_001));
        for (const index of expected) expect(bounded).toMatch(index);
        expect(bounded).not.toMatch(tableScan);
        expect(await plan(page)).not.toMatch(tableScan);
        // What the store answers: the oldest matches, the count stopped at the cap.
        const all = await store.audit.query(testCase.filter, { limit: 10, offset: 0 });
        const search = (from: 'newest' | 'oldest', countUpTo: number) =>
          store.audit.search(testCase.filter, { limit: 10, offset: 0, from, countUpTo });
        const last = Math.floor((all.total - 1) / 10) * 10;
        const oldestByQuery = await store.audit.query(testCase.filter, { limit: 10, offset: last });
        const cap = Math.floor(all.total / 2);
        const oldest = await search('oldest', cap);
        expect([oldest.total, oldest.capped, oldest.more]).toEqual([cap, true, true]);
        // The ten oldest, newest first: the end of the last page read from the newest end.
        expect(oldest.rows.map((row) => row.id).slice(-oldestByQuery.rows.length)).toEqual(
          oldestByQuery.rows.map((row) => row.id),
        );
        expect(await search('newest', all.total)).toMatchObject({ total: all.total, capped: false });
      });
    });

    it('answers each filter as the rows themselves do, to the oldest page', async () => {
      const { rows: all } = await db.executeQuery<{ id: number; at: number } & Record<string, unknown>>(
        CompiledQuery.raw('select * from audit order by at desc, id desc'),
      );
      for (const { filter } of FILTERS) {
        const matches = all.filter(
          (row) =>
            Number(row.at) >= (filter.since?.getTime() ?? 0) &&
            (filter.userId === undefined ||
              row.user_id === filter.userId ||
              row.acted_by_id === filter.userId) &&
            (filter.command === undefined || row.command === filter.command) &&
            (filter.subcommand === undefined || row.subcommand === filter.subcommand) &&
            (filter.outcome === undefined || row.outcome === filter.outcome) &&
            (filter.target === undefined ||
              String(row.target ?? '\0')
                .toLowerCase()
                .includes(filter.target.toLowerCase())),
        );
        const last = Math.floor((matches.length - 1) / 10) * 10;
        const middle = Math.floor(matches.length / 20) * 10;
        // Both ends, both sides of the middle (read from the newest and the oldest end), an odd offset
        // and one past the end.
        for (const offset of [
          0,
          10,
          middle - 10,
          middle,
          middle + 10,
          last - 10,
          last,
          last - 3,
          last + 10,
        ]) {
          if (offset < 0) continue;
          const page = await store.audit.query(filter, { limit: 10, offset });
          expect(page.total).toBe(matches.length);
          expect([offset, page.rows.map((row) => row.id)]).toEqual([
            offset,
            matches.slice(offset, offset + 10).map((row) => Number(row.id)),
          ]);
        }
      }
    });

    it('matches % and _ in a target literally', async () => {
      // The loader's /audit entries name searches like "7d, target 42%", its music bots dj_<n>.
      const percent = await store.audit.query(
        { since: since(400), target: '2%' },
        { limit: 1000, offset: 0 },
      );
      expect(percent.total).toBeGreaterThan(0);
      expect(percent.rows.every((row) => row.target?.includes('2%'))).toBe(true);
      const underscore = await store.audit.query(
        { since: since(400), target: 'dj_1' },
        { limit: 1000, offset: 0 },
      );
      expect(underscore.total).toBeGreaterThan(0);
      expect(underscore.rows.every((row) => row.target?.includes('dj_1'))).toBe(true);
      // Checked against a search that knows no wildcards at all (instr / strpos).
      const find = engine === 'sqlite' ? 'instr' : 'strpos';
      // Shorter than three characters, the LIKE alone; longer, SQLite's trigram index first.
      for (const part of ['%', '_', '2%', 'dj_1', 't 4', '0%', 'j_1', '"x', 'DJ_1', 'server 1', 'zzz']) {
        const { rows } = await db.executeQuery<{ n: number }>(
          CompiledQuery.raw(
            `select count(*) as n from audit where ${find}(lower(target), $1) > 0`.replace(
              '$1',
              engine === 'sqlite' ? '?' : '$1',
            ),
            [part.toLowerCase()],
          ),
        );
        const found = await store.audit.query({ since: since(3650), target: part }, { limit: 1, offset: 0 });
        expect([part, found.total]).toEqual([part, Number(rows[0]?.n)]);
      }
    });

    it('finds a target through the trigram index or through the window alike (SQLite)', async () => {
      if (engine !== 'sqlite') return;
      for (const target of ['site1', 'dj_1', 'server 1']) {
        const filter = { since: since(400), target };
        const ids = async (targetIndex: boolean) => {
          const { page, count } = auditQueries(
            db,
            engine,
            filter,
            { limit: 1000, offset: 0 },
            { targetIndex },
          );
          const rows = await page.execute();
          return [rows.map((row) => row.id), Number((await count.executeTakeFirstOrThrow()).total)];
        };
        const viaIndex = await ids(true);
        expect(viaIndex).toEqual(await ids(false));
        // The probe counts the index's candidates: at least every match (the LIKE keeps the matches).
        const probe = targetCandidates(db, target);
        const { rows } = await db.executeQuery(probe as NonNullable<typeof probe>);
        expect(Number(rows[0]?.n)).toBeGreaterThanOrEqual(viaIndex[1] as number);
        expect(
          await plan(
            auditQueries(db, engine, filter, { limit: 10, offset: 0 }, { targetIndex: false }).count,
          ),
        ).not.toContain('audit_target_search');
      }
      expect(targetCandidates(db, 'ab')).toBeUndefined();
    });

    it('lists the watched domains to the last page', async () => {
      const last = Math.floor((SCALE.watched - 1) / 10) * 10;
      const page = await store.watch.list({ limit: 10, offset: last });
      expect(page.total).toBe(SCALE.watched);
      expect(page.rows).toHaveLength(SCALE.watched - last);
      // By days left: watched domain n has n - 5 of them here.
      expect(page.rows.map((row) => row.domain)).toEqual(
        Array.from({ length: SCALE.watched - last }, (_, k) => watchedDomain(last + k)),
      );
    });

    // Last: it deletes the expired entries.
    // The purge rests between batches in proportion to how long each took: on a loaded machine (two cores
    // shared with other work) the whole of it takes longer than the default 20 s.
    it('purges the expired entries in batches, each one range of audit_at', async () => {
      const text = await plan(auditPurgeBatch(db, loaded.retentionCutoff));
      expect(text).toContain('audit_at');
      expect(text).not.toMatch(tableScan);
      expect(SCALE.expired).toBeGreaterThan(2 * PURGE_BATCH);
      expect(await store.audit.purgeOlderThan(loaded.retentionCutoff)).toBe(SCALE.expired);
      expect((await store.audit.query({ since: since(3650) }, { limit: 1, offset: 0 })).total).toBe(
        SCALE.audit,
      );
      expect(await store.audit.purgeOlderThan(loaded.retentionCutoff)).toBe(0);
      if (engine === 'sqlite') {
        // The purged entries are gone from the trigram index (its delete trigger): one entry per target.
        const { rows: counts } = await db.executeQuery<{ indexed: number; targets: number }>(
          CompiledQuery.raw(
            `select (select count(*) from audit_target_search) as indexed,
               (select count(*) from audit where target is not null) as targets`,
          ),
        );
        expect(counts[0]?.indexed).toBe(counts[0]?.targets);
      }
      // And from the target search.
      const find = engine === 'sqlite' ? 'instr' : 'strpos';
      const param = engine === 'sqlite' ? '?' : '$1';
      for (const part of ['site1', 'server 1', 'dj_1']) {
        const { rows } = await db.executeQuery<{ n: number }>(
          CompiledQuery.raw(`select count(*) as n from audit where ${find}(lower(target), ${param}) > 0`, [
            part,
          ]),
        );
        const found = await store.audit.query({ since: since(3650), target: part }, { limit: 1, offset: 0 });
        expect([part, found.total]).toEqual([part, Number(rows[0]?.n)]);
      }
    }, 120_000);

    it('finds a short target whole, through audit_target_exact', async () => {
      // Real targets this short: a music-bot user `al`, an /audit search `7d`.
      for (let n = 0; n < 12; n++) {
        await store.audit.insert({
          at: new Date(NOW.getTime() - n * 60_000),
          userId: userId(n % 3),
          userName: 'member',
          guildId: null,
          channelId: null,
          command: 'musicbot',
          subcommand: 'create',
          target: n % 2 === 0 ? 'al' : 'AL',
          outcome: 'done',
          detail: null,
          correlationId: `al-${n}`,
          durationMs: 1,
          parameters: null,
          changeId: null,
        });
      }
      const filter = { since: since(400), targetExact: 'Al' };
      const found = await store.audit.search(filter, {
        limit: 10,
        offset: 0,
        from: 'newest',
        countUpTo: 100,
      });
      expect([found.total, found.capped, found.rows.length, found.more]).toEqual([12, false, 10, true]);
      expect(found.rows.map((row) => row.correlationId)).toEqual(
        Array.from({ length: 10 }, (_, n) => `al-${n}`),
      );
      const oldest = await store.audit.search(filter, { limit: 10, offset: 0, from: 'oldest', countUpTo: 5 });
      expect(oldest.rows.map((row) => row.correlationId)).toEqual(
        Array.from({ length: 10 }, (_, n) => `al-${n + 2}`),
      );
      expect([oldest.total, oldest.capped]).toEqual([5, true]);
      const queries = auditQueries(db, engine, filter, { limit: 11, offset: 0, from: 'oldest' });
      for (const query of [queries.countUpTo(10_001), queries.page, queries.count]) {
        const text = await plan(query);
        expect(text).toContain('audit_target_exact');
        expect(text).not.toMatch(tableScan);
      }
    });

    it('finds a new entry by its target at once', async () => {
      const target = `fresh-${engine}.example.org`;
      const entry = {
        at: NOW,
        userId: userId(1),
        userName: 'member-01',
        guildId: null,
        channelId: null,
        command: 'domain',
        subcommand: 'info',
        target,
        outcome: 'ok',
        detail: null,
        correlationId: 'fresh',
        durationMs: 1,
        parameters: null,
        changeId: null,
      };
      const id = await store.audit.insert(entry);
      const found = await store.audit.query({ target: `SH-${engine}.EX` }, { limit: 10, offset: 0 });
      expect(found.rows.map((row) => row.id)).toEqual([id]);
    });
  },
);

describe('the purge rests in proportion to its batches', () => {
  it('at least PURGE_PAUSE_MS, PURGE_REST times the batch otherwise (the store busy ≤ 0.5 % of the time)', () => {
    expect(PURGE_BATCH).toBeLessThanOrEqual(25);
    expect(purgeRestMs(0.1)).toBe(PURGE_PAUSE_MS);
    expect(purgeRestMs(1.5)).toBe(1.5 * PURGE_REST);
    // A batch that ran into a checkpoint (SQLite) or a busy server: a longer rest after it.
    expect(purgeRestMs(12)).toBe(12 * PURGE_REST);
    expect(1 / (1 + PURGE_REST)).toBeLessThanOrEqual(0.005);
  });

  it('at most PURGE_MAX_REST_MS, however long a batch took on a busy machine', () => {
    expect(purgeRestMs(PURGE_MAX_REST_MS / PURGE_REST + 1)).toBe(PURGE_MAX_REST_MS);
    expect(purgeRestMs(10_000)).toBe(PURGE_MAX_REST_MS);
  });
});

describe('targetTrigrams (SQLite target search)', () => {
  it('quotes every trigram of the text once, so %, _, " and spaces are only characters', () => {
    expect(targetTrigrams('ab')).toBeUndefined();
    expect(targetTrigrams('abc')).toBe('"abc"');
    expect(targetTrigrams('50%_x')).toBe('"50%" AND "0%_" AND "%_x"');
    expect(targetTrigrams('a"b c')).toBe('"a""b" AND """b " AND "b c"');
    expect(targetTrigrams('aaaa')).toBe('"aaa"');
    // Characters, not UTF-16 units.
    expect(targetTrigrams('😀ab')).toBe('"😀ab"');
  });
});
