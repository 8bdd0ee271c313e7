// What the operator gauges read at every scrape, on both engines: the watched domains that need
// attention (from the partial index watched_domains_flagged, not a walk of the list) and the approval
// requests open and past half their time.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type NewChange, openStore, type Store, type WatchFindings } from '../../src/store/index.js';
import type { Database as Schema } from '../../src/store/schema.js';
import { FLAGGED } from '../../src/store/watchQueries.js';
import { createDatabase } from '../support/startPostgres.js';

const tmp = mkdtempSync(join(tmpdir(), 'hostops-operator-queries-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const T0 = Date.parse('2030-01-01T12:00:00.000Z');
const at = (offsetMs: number) => new Date(T0 + offsetMs);
const HOUR = 3_600_000;
const USER = '100000000000000001';

const engines = [
  {
    engine: 'sqlite' as const,
    async open() {
      const path = join(tmp, 'operator.db');
      const store = await openStore(`sqlite:${path}`);
      const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: new Database(path) }) });
      return { store, db };
    },
    async prepare() {},
    explain: (text: string) => `EXPLAIN QUERY PLAN ${text}`,
  },
  {
    engine: 'postgres' as const,
    async open() {
      const url = await createDatabase(inject('postgresUrl'), 'operator_queries');
      const store = await openStore(url);
      const db = new Kysely<Schema>({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }),
      });
      return { store, db };
    },
    // A small table is rightly scanned; with scans priced out the plan shows whether the index can answer.
    async prepare(db: Kysely<Schema>) {
      await db.executeQuery(CompiledQuery.raw('ANALYZE'));
      await db.executeQuery(CompiledQuery.raw('SET enable_seqscan = off'));
    },
    explain: (text: string) => `EXPLAIN (FORMAT JSON) ${text}`,
  },
];

const ok = (overrides: Partial<WatchFindings> = {}): WatchFindings => ({
  status: 'ok',
  failures: 0,
  expiryDate: '2031-01-01',
  active: true,
  expired: false,
  transferredAway: false,
  ...overrides,
});

function approval(expiresAt: Date): NewChange {
  return {
    id: randomBytes(12).toString('base64url'),
    operation: 'registerDomain',
    command: '/domain register',
    target: 'example.com',
    parameters: { domain: 'example.com' },
    preview: { title: 'Register example.com', fields: [] },
    requestedById: USER,
    requestedByName: 'alice',
    locale: 'en',
    guildId: '300000000000000001',
    channelId: '400000000000000001',
    state: 'awaiting_approval',
    correlationId: 'corr-1',
    createdAt: at(0),
    expiresAt,
  };
}

describe.each(engines)('$engine', ({ open, prepare, explain }) => {
  let store: Store;
  let db: Kysely<Schema>;
  beforeAll(async () => {
    ({ store, db } = await open());
  });
  afterAll(async () => {
    await store?.close();
    await db?.destroy();
  });

  it('flagged: only the domains that need attention, each with its flags and failures', async () => {
    const names = ['fine', 'moved', 'idle', 'lapsed', 'typo', 'flaky', 'new'].map((n) => `${n}.example`);
    await store.watch.add(
      names.map((domain) => ({ domain, unicode: domain })),
      USER,
      at(0),
    );
    const findings: Record<string, WatchFindings> = {
      'fine.example': ok(),
      'moved.example': ok({ transferredAway: true }),
      'idle.example': ok({ active: false }),
      'lapsed.example': ok({ expired: true }),
      'typo.example': {
        ...ok({ status: 'not_found', expiryDate: null }),
        active: null,
        expired: null,
        transferredAway: null,
      },
      'flaky.example': ok({ status: 'failed', failures: 2 }),
    };
    for (const row of await store.watch.all()) {
      const found = findings[row.domain];
      if (found) expect(await store.watch.record(row, found, at(1))).toBe(true);
    }
    const flagged = await store.watch.flagged();
    const none = { notFound: false, inactive: false, expired: false, transferredAway: false, failures: 0 };
    expect(flagged.sort((a, b) => a.domain.localeCompare(b.domain))).toEqual([
      { domain: 'flaky.example', ...none, failures: 2 },
      { domain: 'idle.example', ...none, inactive: true },
      { domain: 'lapsed.example', ...none, expired: true },
      { domain: 'moved.example', ...none, transferredAway: true },
      { domain: 'typo.example', ...none, notFound: true },
    ]);

    // Renewed and found again: off the list at the next scrape.
    const moved = (await store.watch.get(['moved.example']))[0];
    if (!moved) throw new Error('moved.example is not watched');
    expect(await store.watch.record(moved, ok(), at(2))).toBe(true);
    expect((await store.watch.flagged()).map((row) => row.domain)).not.toContain('moved.example');
  });

  it('flagged reads the partial index, not the list', async () => {
    await prepare(db);
    const compiled = db.selectFrom('watched_domains').select('domain').where(FLAGGED).compile();
    const { rows } = await db.executeQuery(
      CompiledQuery.raw(explain(compiled.sql), [...compiled.parameters]),
    );
    expect(JSON.stringify(rows)).toContain('watched_domains_flagged');
  });

  it('countAwaiting: the approval requests open, and those due before the given instant', async () => {
    expect(await store.changes.countAwaiting(at(0))).toEqual({ waiting: 0, due: 0 });
    for (const hours of [1, 2, 30, 100]) await store.changes.insert(approval(at(hours * HOUR)));
    await store.changes.insert({ ...approval(at(HOUR)), state: 'pending' });
    expect(await store.changes.countAwaiting(at(3 * HOUR))).toEqual({ waiting: 4, due: 2 });
    expect(await store.changes.countAwaiting(at(0))).toEqual({ waiting: 4, due: 0 });
  });
});
