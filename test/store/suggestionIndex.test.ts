// Suggestions run on every keystroke: their query must read one index range per command and outcome,
// on both engines, however long the audit trail grows.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openStore, type Store, type TargetSource } from '../../src/store/index.js';
import { RECENT_WINDOW, recentTargetsQuery } from '../../src/store/recentTargetsQuery.js';
import type { Database as Schema } from '../../src/store/schema.js';
import { createDatabase } from '../support/startPostgres.js';

const tmp = mkdtempSync(join(tmpdir(), 'hostops-suggest-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const ROWS = 20_000;

const SOURCES: TargetSource[] = [
  { command: 'domain', subcommand: 'info', outcomes: ['ok'] },
  { command: 'domain', subcommand: 'dns', outcomes: ['done', 'unknown'] },
];

/** A year's mix: mostly reads, some changes, every outcome; `old.example` only at the very start. */
function auditRow(i: number) {
  const kinds = [
    ['domain', 'info', 'ok'],
    ['domain', 'info', 'invalid'],
    ['domain', 'dns', 'done'],
    ['domain', 'dns', 'cancelled'],
    ['server', 'logs', 'ok'],
    ['audit', '', 'ok'],
  ] as const;
  const [command, subcommand, outcome] = kinds[i % kinds.length] ?? kinds[0];
  return {
    at: T0 + i * 60_000,
    user_id: `u${i % 50}`,
    user_name: `user${i % 50}`,
    guild_id: 'g',
    channel_id: 'c',
    command,
    subcommand,
    target: i === 0 ? 'old.example' : command === 'server' ? `server ${i % 997}` : `d${i % 3000}.example`,
    outcome,
    detail: null,
    correlation_id: `c${i}`,
    duration_ms: 5,
    parameters: null,
    change_id: null,
  };
}

const engines = [
  {
    engine: 'sqlite',
    async open() {
      const path = join(tmp, 'suggest.db');
      const url = `sqlite:${path}`;
      const store = await openStore(url);
      const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: new Database(path) }) });
      return { store, db };
    },
    planUses: (plan: unknown[]) => JSON.stringify(plan),
    explain: (sqlText: string) => `EXPLAIN QUERY PLAN ${sqlText}`,
  },
  {
    engine: 'postgres',
    async open() {
      const url = await createDatabase(inject('postgresUrl'), 'suggest');
      const store = await openStore(url);
      const db = new Kysely<Schema>({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }),
      });
      return { store, db };
    },
    planUses: (plan: unknown[]) => JSON.stringify(plan),
    explain: (sqlText: string) => `EXPLAIN (FORMAT JSON) ${sqlText}`,
  },
] as const;

describe.each(engines)('$engine suggestions', ({ open, explain, planUses }) => {
  let store: Store;
  let db: Kysely<Schema>;

  beforeAll(async () => {
    ({ store, db } = await open());
    for (let start = 0; start < ROWS; start += 500) {
      const rows = Array.from({ length: Math.min(500, ROWS - start) }, (_, k) => auditRow(start + k));
      await db.insertInto('audit').values(rows).execute();
    }
    await db.executeQuery(CompiledQuery.raw('ANALYZE'));
  }, 120_000);

  afterAll(async () => {
    await db?.destroy();
    await store?.close();
  });

  it('reads the covering index, one range per command and outcome, and never the whole table', async () => {
    const query = recentTargetsQuery(db, SOURCES, 'd12', 25);
    if (query === undefined) throw new Error('no query');
    const compiled = query.compile();
    const { rows } = await db.executeQuery(
      CompiledQuery.raw(explain(compiled.sql), [...compiled.parameters]),
    );
    const plan = planUses(rows);
    expect(plan).toContain('audit_suggestions');
    // No read of the audit table outside the index: SQLite says "SCAN audit" (without USING), PostgreSQL "Seq Scan".
    expect(plan).not.toMatch(/SCAN audit(?! USING)|Seq Scan/);
  });

  it('offers only the outcomes asked for, from the newest entries of each command', async () => {
    const targets = await store.audit.recentTargets(SOURCES, '', 25);
    expect(targets).toHaveLength(25);
    // The newest `domain info ok` is row 19998 (19998 % 6 === 0), target d1998.example.
    expect(targets[0]).toBe(`d${(ROWS - 2) % 3000}.example`);
    // 3000 is a multiple of 6, so a target's number tells its row kind: 0 info ok, 1 info invalid,
    // 2 dns done, 3 dns cancelled. Only the first and third may be offered, and both are.
    const kinds = new Set(targets.map((target) => Number(/^d(\d+)\./.exec(target)?.[1]) % 6));
    expect([...kinds].sort()).toEqual([0, 2]);
  });

  it('looks back RECENT_WINDOW entries per command and outcome, so its cost stays flat', async () => {
    // old.example was used once, 20,000 entries ago: far outside the window.
    expect(ROWS / 6).toBeGreaterThan(RECENT_WINDOW);
    expect(await store.audit.recentTargets(SOURCES, 'old.example', 25)).toEqual([]);
    const recent = auditRow(ROWS - 2).target;
    expect(await store.audit.recentTargets(SOURCES, recent, 25)).toEqual([recent]);
  });
});
