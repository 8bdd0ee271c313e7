import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import {
  DEFAULT_MIGRATION_TABLE,
  type Dialect,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  sql,
} from 'kysely';
import type { Logger } from '../logger.js';
import { noBulkWriter, sqliteBulkWriter } from './bulkWriter.js';
import { cachedStatements } from './cachedStatements.js';
import { createKyselyStore } from './kyselyStore.js';
import { migrations } from './migrations/index.js';
import type { Store } from './Store.js';
import { redactDatabaseUrl, StoreOpenError, scrub, secretsOf } from './StoreOpenError.js';
import type { Database, Engine } from './schema.js';

export interface OpenStoreOptions {
  logger?: Logger;
  /** PostgreSQL pool size. */
  maxConnections?: number;
}

type Target =
  | { engine: 'sqlite'; path: string; shown: string }
  | { engine: 'postgres'; url: string; shown: string };

const ENGINE_NAMES: Record<Engine, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

/**
 * Opens `sqlite:path/to/file.db` (relative to the working directory; `sqlite::memory:` for tests) or a
 * `postgres://` URL, and brings its schema up to date. Throws `StoreOpenError` for anything that stops
 * the store from working, so start-up can report it in one line.
 */
export async function openStore(databaseUrl: string, options: OpenStoreOptions = {}): Promise<Store> {
  const target = parseDatabaseUrl(databaseUrl);
  const secrets = secretsOf(databaseUrl);
  const failure = (verb: string, error: unknown) =>
    new StoreOpenError(
      `DATABASE_URL: cannot ${verb} the ${ENGINE_NAMES[target.engine]} database at ${target.shown} (${reasonOf(error, secrets)})`,
      { cause: safeCause(error, secrets) },
    );

  let db: Kysely<Database> | undefined;
  let bulkWriter = noBulkWriter;
  try {
    let dialect: Dialect;
    if (target.engine === 'sqlite') {
      const database = await openSqliteFile(target.path);
      dialect = new SqliteDialect({ database: cachedStatements(database) });
      if (target.path !== ':memory:')
        bulkWriter = sqliteBulkWriter(database, target.path, (error) =>
          options.logger?.warn(
            { err: error },
            'SQLite bulk-write worker failed; the connection checkpoints and writes again',
          ),
        );
    } else {
      dialect = await postgresDialect(target.url, options);
    }
    db = new Kysely<Database>({ dialect });
    // A pool connects lazily; fail here, not on the first command.
    await sql`select 1`.execute(db);
  } catch (error) {
    await db?.destroy().catch(() => {});
    throw failure('open', error);
  }

  let applied: string[];
  try {
    applied = await migrate(db, target.engine);
  } catch (error) {
    await db.destroy().catch(() => {});
    throw failure('migrate', error);
  }
  options.logger?.info(
    { engine: target.engine, database: target.shown, migrations: applied },
    'store opened',
  );
  return createKyselyStore(db, target.engine, {
    bulkWriter,
    onError: (error) =>
      options.logger?.warn({ err: error }, 'could not index audit targets; the next batch tries again'),
  });
}

function parseDatabaseUrl(url: string): Target {
  if (/^postgres(ql)?:\/\//i.test(url)) return { engine: 'postgres', url, shown: redactDatabaseUrl(url) };
  if (/^sqlite:/i.test(url)) {
    const rest = url.slice('sqlite:'.length);
    // `sqlite://x` reads as a host in other tools; refuse it rather than guess which path was meant.
    if (rest === '' || rest.startsWith('//'))
      throw new StoreOpenError('DATABASE_URL: write a SQLite database as sqlite:path/to/file.db (no //)');
    if (rest === ':memory:') return { engine: 'sqlite', path: rest, shown: rest };
    const path = resolve(process.cwd(), rest);
    return { engine: 'sqlite', path, shown: path };
  }
  // Only the scheme: the rest of an unrecognised URL may hold a password.
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0];
  throw new StoreOpenError(
    `DATABASE_URL: ${scheme ? `unsupported scheme ${scheme}` : 'not a database URL'}; use sqlite:path/to/file.db or postgres://user:password@host:5432/database`,
  );
}

async function openSqliteFile(path: string) {
  if (path !== ':memory:') {
    const directory = dirname(path);
    await mkdir(directory, { recursive: true }).catch((error: unknown) => {
      // Node's text ends in ", mkdir '<path>'", which the message already names.
      const reason = messageOf(error).replace(/, mkdir '.*'$/, '');
      throw new Error(`cannot create the directory ${directory}: ${reason}`, { cause: error });
    });
  }
  return openSqliteDatabase(path);
}

/**
 * SQLite's page cache, per connection, in KiB. The database file is cached by the operating system
 * anyway (shared, and given back under pressure); what SQLite keeps besides is the process's own
 * memory. better-sqlite3 sets 16 MB: a year of history (a million audit entries, 450 MB) filled it
 * with the first few /audit searches, and the process grew by it (an export's first run by 15–25 MB).
 * A quarter of that served the same searches as fast (docs/bench/2026-11-25-history-at-scale.md).
 */
export const SQLITE_CACHE_KIB = 4000;

/** The SQLite connection as the store uses it. */
export async function openSqliteDatabase(path: string) {
  // Loaded on demand so a PostgreSQL deployment never needs the native module.
  const { default: SqliteDatabase } = await import('better-sqlite3');
  const database = new SqliteDatabase(path);
  try {
    // WAL lets readers run beside the writer; NORMAL is durable across crashes of the process (not of
    // the machine) in WAL mode, which suits a bot's state.
    database.pragma('journal_mode = WAL');
    database.pragma('busy_timeout = 5000');
    database.pragma('synchronous = NORMAL');
    database.pragma('foreign_keys = ON');
    database.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
  } catch (error) {
    database.close();
    throw error;
  }
  return database;
}

async function postgresDialect(url: string, options: OpenStoreOptions): Promise<Dialect> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: 10_000,
    // Times and counts are bigint; epoch milliseconds fit a double exactly. Per pool, not pg.types, so
    // nothing else in the process changes.
    types: {
      getTypeParser: (id, format) =>
        id === pg.types.builtins.INT8 ? Number : pg.types.getTypeParser(id, format),
    },
  });
  // Without a listener, an idle connection dropped by the server would crash the process.
  pool.on('error', (error) => {
    options.logger?.warn({ err: safeCause(error, secretsOf(url)) }, 'idle PostgreSQL connection failed');
  });
  return new PostgresDialect({ pool });
}

async function migrate(db: Kysely<Database>, engine: Engine): Promise<string[]> {
  const known = migrations(engine);
  if (await upToDate(db, Object.keys(known).sort().at(-1))) return [];
  const migrator = new Migrator({ db, provider: { getMigrations: async () => known } });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results.find((result) => result.status === 'Error');
    throw failed
      ? new Error(`migration ${failed.migrationName} failed: ${messageOf(error)}`, { cause: error })
      : error;
  }
  return results.map((result) => result.migrationName);
}

/**
 * Whether the newest migration applied is the newest this release knows: then every one before it is
 * applied too (the Migrator refuses gaps). One read instead of the Migrator's lock, checks and
 * transaction — on PostgreSQL ≈ 10 ms of every start (the cold-start notes in docs/bench/). Anything else (a new
 * database, an older schema, one newer than this release) goes to the Migrator, which upgrades or refuses
 * under its lock, as replicas starting together need.
 */
async function upToDate(db: Kysely<Database>, newest: string | undefined): Promise<boolean> {
  try {
    const { rows } = await sql<{
      name: string;
    }>`select max(name) as name from ${sql.table(DEFAULT_MIGRATION_TABLE)}`.execute(db);
    return newest !== undefined && rows[0]?.name === newest;
  } catch {
    // No migration table yet: a new database.
    return false;
  }
}

const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

/** A short, password-free reason for the one-line message. */
function reasonOf(error: unknown, secrets: readonly string[]): string {
  // Node reports a refused `localhost` (IPv6 and IPv4 tried) as an AggregateError with an empty message.
  const inner = error instanceof AggregateError && error.errors.length > 0 ? error.errors[0] : error;
  const code = (inner as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code in NETWORK_ERRORS) return NETWORK_ERRORS[code] as string;
  return scrub(messageOf(inner) || (typeof code === 'string' ? code : 'unknown error'), secrets);
}

const messageOf = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0]?.trim() ?? '';

/** A copy of the error that is safe to log: drivers may echo the connection string in messages. */
function safeCause(error: unknown, secrets: readonly string[], depth = 0): Error {
  const source = error instanceof Error ? error : new Error(String(error));
  const copy = new Error(scrub(source.message, secrets));
  copy.name = source.name;
  copy.stack = source.stack === undefined ? undefined : scrub(source.stack, secrets);
  const code = (source as { code?: unknown }).code;
  if (typeof code === 'string') Object.assign(copy, { code });
  if (source.cause !== undefined && depth < 5) copy.cause = safeCause(source.cause, secrets, depth + 1);
  return copy;
}
