// A year of history loaded into a store at the release before, upgraded by openStore as in production, and a
// plain SQL reader on it for the bench's own counts and query plans.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Logger } from '../../../src/logger.js';
import { openStore } from '../../../src/store/index.js';
import { createKyselyStore } from '../../../src/store/kyselyStore.js';
import { migrations } from '../../../src/store/migrations/index.js';
import { openSqliteDatabase } from '../../../src/store/openStore.js';
import type { Database as Schema } from '../../../src/store/schema.js';
import { TMP } from '../../botSetup.js';
import { explainAudit } from '../../explainAudit.js';
import { type LoadedHistory, loadHistory } from '../../loadHistory.js';
import { type BenchPostgres, createDatabase } from '../../postgres.js';
import { type Engine, SCALE } from './historySettings.js';

export interface Prepared {
  engine: Engine;
  url: string;
  loaded: LoadedHistory;
  /** importRows of the whole history (at LOAD_AT_MIGRATION). */
  loadMs: number;
  /** The migrations after LOAD_AT_MIGRATION, applied by openStore to the loaded store, and their time. */
  upgrade: string[];
  upgradeMs: number;
  vacuumMs?: number;
  /** PostgreSQL: the share of `audit`'s pages marked all-visible after the VACUUM. */
  allVisible?: number;
  fileBytes?: number;
  reader: Reader;
  plans: string[];
  cleanup(): Promise<void>;
}

/** Plain SQL against the bot's database from the bench process (counts, EXPLAIN), one connection. */
export interface Reader {
  all(sql: string, params?: readonly unknown[]): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

function sqliteReader(path: string): Reader {
  const db = new Database(path, { readonly: true });
  return {
    all: async (sql, params = []) => db.prepare(sql).all(...params) as Record<string, unknown>[],
    close: async () => {
      db.close();
    },
  };
}

function postgresReader(url: string): Reader {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  return {
    all: async (sql, params = []) => {
      let n = 0;
      // The SQLite spelling (`?`) is written once for both.
      const text = sql.replace(/\?/g, () => `$${++n}`);
      return (await pool.query(text, [...params])).rows as Record<string, unknown>[];
    },
    close: () => pool.end(),
  };
}

/**
 * The schema the history is loaded at: the release before this migrations, so that a store that
 * grew for a year under it is then upgraded, as in production (0010 and 0011 build indexes on it).
 */
export const LOAD_AT_MIGRATION = '0009_shared_state';

/** The store's own code (Store.importRows) on a database migrated up to LOAD_AT_MIGRATION. */
async function loadAtRelease(engine: Engine, url: string): Promise<LoadedHistory> {
  const db = new Kysely<Schema>({
    dialect:
      engine === 'sqlite'
        ? new SqliteDialect({ database: await openSqliteDatabase(url.slice('sqlite:'.length)) })
        : new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }),
  });
  try {
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations(engine) } });
    const { error } = await migrator.migrateTo(LOAD_AT_MIGRATION);
    if (error !== undefined) throw error;
    return await loadHistory(createKyselyStore(db, engine), SCALE);
  } finally {
    await db.destroy();
  }
}

export async function prepareHistory(engine: Engine, postgres: BenchPostgres | undefined): Promise<Prepared> {
  let url: string;
  let path: string | undefined;
  if (engine === 'sqlite') {
    const dir = join(TMP, 'history');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    path = join(dir, 'hostops.db');
    url = `sqlite:${path}`;
  } else {
    if (postgres === undefined) throw new Error('no PostgreSQL');
    url = await createDatabase(postgres.url, 'bench_history');
  }
  const t0 = performance.now();
  const loaded = await loadAtRelease(engine, url);
  const loadMs = performance.now() - t0;
  // The first start after the upgrade: the migrations since then, on a year of history.
  let upgrade: string[] = [];
  const t1 = performance.now();
  const store = await openStore(url, {
    logger: {
      info: (fields: { migrations?: string[] }) => {
        upgrade = fields.migrations ?? [];
      },
    } as unknown as Logger,
  });
  const upgradeMs = performance.now() - t1;
  await store.close();
  const reader = engine === 'sqlite' ? sqliteReader(path as string) : postgresReader(url);
  let vacuumMs: number | undefined;
  let allVisible: number | undefined;
  if (engine === 'postgres') {
    // What autovacuum does within a minute of such a load (inserts count towards it since PostgreSQL 13):
    // statistics for the planner and the visibility map for index-only scans. Done here, so it does not
    // run in the middle of a measurement.
    // Right after the load one VACUUM sets no page all-visible here (index-only scans would still read
    // the table); a second does. Repeated until at least 99 % are.
    const t = performance.now();
    for (let n = 0; n < 3; n++) {
      await reader.all('vacuum analyze');
      const [pages] = await reader.all(
        `select relpages, relallvisible from pg_class where relname = 'audit'`,
      );
      allVisible = Number(pages?.relallvisible) / Math.max(1, Number(pages?.relpages));
      if (allVisible >= 0.99) break;
    }
    vacuumMs = performance.now() - t;
  }
  const fileBytes =
    engine === 'sqlite'
      ? Number(
          (await reader.all('select page_count * page_size as n from pragma_page_count, pragma_page_size'))[0]
            ?.n,
        )
      : Number((await reader.all('select pg_database_size(current_database()) as n'))[0]?.n);
  const plans = await explainAudit(url, loaded.now);
  return {
    engine,
    url,
    loaded,
    loadMs,
    upgrade,
    upgradeMs,
    ...(vacuumMs === undefined ? {} : { vacuumMs }),
    ...(allVisible === undefined ? {} : { allVisible }),
    fileBytes,
    reader,
    plans,
    async cleanup() {
      await reader.close();
      if (path !== undefined) rmSync(join(TMP, 'history'), { recursive: true, force: true });
    },
  };
}

export async function countExpired(prepared: Prepared): Promise<number> {
  const [row] = await prepared.reader.all('select count(*) as n from audit where at < ?', [
    prepared.loaded.retentionCutoff.getTime(),
  ]);
  return Number(row?.n);
}
