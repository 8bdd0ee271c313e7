import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { inspect } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openStore, redactDatabaseUrl, StoreOpenError } from '../../src/store/index.js';
import { openSqliteDatabase, SQLITE_CACHE_KIB } from '../../src/store/openStore.js';
import { captureLogs } from '../support/captureLogs.js';

const tmp = mkdtempSync(join(tmpdir(), 'hostops-open-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const SECRET = 'Sup3r-s3cret%2Fpw';

/** The rejection of `openStore(url)`, checked to be a one-line StoreOpenError with no trace of `secret`. */
async function openFailure(url: string, secret?: string): Promise<StoreOpenError> {
  const error = await openStore(url).then(
    () => expect.unreachable('openStore resolved'),
    (rejection: unknown) => rejection,
  );
  expect(error).toBeInstanceOf(StoreOpenError);
  const { message } = error as StoreOpenError;
  expect(message).toMatch(/^DATABASE_URL: /);
  expect(message).not.toContain('\n');
  if (secret) {
    // inspect() prints the cause chain, as a logger would.
    for (const form of [secret, decodeURIComponent(secret)])
      expect(inspect(error, { depth: 10 })).not.toContain(form);
    const logs = captureLogs();
    logs.logger.error({ err: error }, 'store failed');
    expect(logs.text).not.toContain(decodeURIComponent(secret));
  }
  return error as StoreOpenError;
}

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe('redactDatabaseUrl', () => {
  it('replaces the password, keeping everything else', () => {
    expect(redactDatabaseUrl('postgres://hostops:hunter2@db:5432/hostops')).toBe(
      'postgres://hostops:***@db:5432/hostops',
    );
    expect(redactDatabaseUrl(`postgresql://hostops:${SECRET}@db/hostops?sslmode=require`)).toBe(
      'postgresql://hostops:***@db/hostops?sslmode=require',
    );
  });

  it('leaves URLs without a password alone', () => {
    expect(redactDatabaseUrl('postgres://hostops@db/hostops')).toBe('postgres://hostops@db/hostops');
    expect(redactDatabaseUrl('sqlite:data/hostops.db')).toBe('sqlite:data/hostops.db');
  });

  it('redacts a password query parameter', () => {
    expect(redactDatabaseUrl('postgres://db/hostops?user=hostops&password=hunter2')).toBe(
      'postgres://db/hostops?user=hostops&password=***',
    );
  });

  it('hides the whole user info of a URL it cannot parse', () => {
    expect(redactDatabaseUrl('postgres://hostops:hunter2@db:notaport/hostops')).toBe(
      'postgres://***@db:notaport/hostops',
    );
  });
});

describe('openStore failures', () => {
  it('an unreachable PostgreSQL server: names DATABASE_URL, never the password', async () => {
    const port = await closedPort();
    const error = await openFailure(`postgres://hostops:${SECRET}@127.0.0.1:${port}/hostops`, SECRET);
    expect(error.message).toBe(
      `DATABASE_URL: cannot open the PostgreSQL database at postgres://hostops:***@127.0.0.1:${port}/hostops (connection refused)`,
    );
  });

  it('a wrong PostgreSQL password', async () => {
    const url = new URL(inject('postgresUrl'));
    url.password = SECRET;
    const error = await openFailure(url.toString(), SECRET);
    expect(error.message).toMatch(
      /^DATABASE_URL: cannot open the PostgreSQL database at postgres:\/\/postgres:\*\*\*@/,
    );
    expect(error.message).toMatch(/ \(password authentication failed for user "postgres"\)$/);
  });

  it('an unsupported scheme, without echoing the URL', async () => {
    const error = await openFailure('mysql://root:hunter2@db/hostops', 'hunter2');
    expect(error.message).toBe(
      'DATABASE_URL: unsupported scheme mysql:; use sqlite:path/to/file.db or postgres://user:password@host:5432/database',
    );
    expect((await openFailure('hostops.db')).message).toMatch(/^DATABASE_URL: not a database URL;/);
    expect((await openFailure('sqlite://data/hostops.db')).message).toMatch(/sqlite:path\/to\/file\.db/);
  });

  it('a SQLite path whose directory cannot be created', async () => {
    const file = join(tmp, 'a-file');
    writeFileSync(file, 'not a directory');
    const error = await openFailure(`sqlite:${file}/sub/hostops.db`);
    expect(error.message).toBe(
      `DATABASE_URL: cannot open the SQLite database at ${file}/sub/hostops.db (cannot create the directory ${file}/sub: ENOTDIR: not a directory)`,
    );
  });

  it('a file that is not a SQLite database', async () => {
    const file = join(tmp, 'garbage.db');
    writeFileSync(file, 'x'.repeat(4096));
    expect((await openFailure(`sqlite:${file}`)).message).toBe(
      `DATABASE_URL: cannot open the SQLite database at ${file} (file is not a database)`,
    );
  });

  it('a failing migration names the migration', async () => {
    const file = join(tmp, 'conflict.db');
    const database = new Database(file);
    database.exec('create table changes (id text)');
    database.close();
    expect((await openFailure(`sqlite:${file}`)).message).toBe(
      `DATABASE_URL: cannot migrate the SQLite database at ${file} (migration 0001_initial failed: table "changes" already exists)`,
    );
  });
});

describe('openStore with SQLite', () => {
  it('resolves a relative path against the working directory and creates its directories', async () => {
    const file = join(tmp, 'nested', 'deeper', 'hostops.db');
    const store = await openStore(`sqlite:${relative(process.cwd(), file)}`);
    await store.claims.claimInteraction('i1', 'r1', new Date());
    await store.close();
    expect(existsSync(file)).toBe(true);
  });

  it('writes ahead to a WAL file', async () => {
    const file = join(tmp, 'wal.db');
    const store = await openStore(`sqlite:${file}`);
    await store.claims.claimInteraction('i1', 'r1', new Date());
    expect(existsSync(`${file}-wal`)).toBe(true);
    await store.close();
  });

  it("keeps a page cache of SQLITE_CACHE_KIB, not better-sqlite3's 16 MB", async () => {
    const database = await openSqliteDatabase(join(tmp, 'cache.db'));
    try {
      expect(database.pragma('cache_size', { simple: true })).toBe(-SQLITE_CACHE_KIB);
      expect(SQLITE_CACHE_KIB).toBeLessThanOrEqual(4000);
      expect(database.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      database.close();
    }
  });

  it('opens sqlite::memory:', async () => {
    const store = await openStore('sqlite::memory:');
    expect(store.engine).toBe('sqlite');
    expect(await store.claims.claimInteraction('i1', 'r1', new Date())).toBe(true);
    expect(await store.claims.claimInteraction('i1', 'r2', new Date())).toBe(false);
    await store.close();
  });
});
