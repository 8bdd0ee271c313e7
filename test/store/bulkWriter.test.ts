// SQLite's bulk writes (the retention purge, an import) hand the write-ahead log's checkpoints, and the
// statements they send off the loop, to a worker thread (bulkWriter.ts): the event loop's connection stops
// checkpointing while they run, the log still reaches the database file, a statement runs on the worker's
// connection while the event loop is blocked, and the connection checkpoints itself again when they end.
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type Database from 'better-sqlite3';
import { CompiledQuery } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AUTO_CHECKPOINT_PAGES,
  CHECKPOINT_EVERY_MS,
  OffLoopStatementError,
  sqliteBulkWriter,
} from '../../src/store/bulkWriter.js';
import { openSqliteDatabase } from '../../src/store/openStore.js';

const open: Database.Database[] = [];
afterEach(() => {
  for (const database of open.splice(0)) database.close();
});

async function fileDatabase() {
  const path = join(mkdtempSync(join(tmpdir(), 'hostops-wal-')), 'store.db');
  const database = await openSqliteDatabase(path);
  open.push(database);
  database.exec('create table t (x text)');
  database.pragma('wal_checkpoint(TRUNCATE)');
  return { database, path };
}

const autoCheckpoint = (database: Database.Database) =>
  database.pragma('wal_autocheckpoint', { simple: true });

/** Some 2,500 pages of log, a commit at a time, as the purge writes them. */
function writePages(database: Database.Database) {
  const insert = database.prepare('insert into t (x) values (?)');
  for (let i = 0; i < 250; i += 1) database.transaction(() => insert.run('x'.repeat(40_000)))();
}

describe('sqliteBulkWriter', () => {
  it("turns the connection's auto-checkpoint off while a bulk write runs, and on again after it", async () => {
    const { database, path } = await fileDatabase();
    const checkpointer = sqliteBulkWriter(database, path, () => {});
    expect(autoCheckpoint(database)).toBe(AUTO_CHECKPOINT_PAGES);
    const inside = await checkpointer.during(async () => autoCheckpoint(database));
    expect(inside).toBe(0);
    expect(autoCheckpoint(database)).toBe(AUTO_CHECKPOINT_PAGES);
    await checkpointer.close();
  });

  it('copies the log into the database from its worker while the event loop writes', async () => {
    const { database, path } = await fileDatabase();
    const checkpointer = sqliteBulkWriter(database, path, () => {});
    const before = statSync(path).size;
    const grown = await checkpointer.during(async () => {
      writePages(database);
      // The connection checkpoints nothing now; only the worker can have grown the file.
      await sleep(CHECKPOINT_EVERY_MS * 4);
      return statSync(path).size;
    });
    expect(grown).toBeGreaterThan(before + 8_000_000);
    await checkpointer.close();
  });

  it('leaves the log alone when nothing runs: the control for the test above', async () => {
    const { database, path } = await fileDatabase();
    database.pragma('wal_autocheckpoint = 0');
    const before = statSync(path).size;
    writePages(database);
    await sleep(CHECKPOINT_EVERY_MS * 4);
    expect(statSync(path).size).toBe(before);
  });

  it('shares one worker between overlapping bulk writes and ends it with the last', async () => {
    const { database, path } = await fileDatabase();
    const checkpointer = sqliteBulkWriter(database, path, () => {});
    let release: () => void = () => {};
    const long = checkpointer.during(() => new Promise<void>((resolve) => (release = resolve)));
    await checkpointer.during(async () => {});
    expect(autoCheckpoint(database)).toBe(0);
    release();
    await long;
    expect(autoCheckpoint(database)).toBe(AUTO_CHECKPOINT_PAGES);
    // A second round starts a new worker once the first has exited.
    expect(await checkpointer.during(async () => autoCheckpoint(database))).toBe(0);
    await checkpointer.close();
  });

  it('reports a worker that fails and gives the checkpoints back to the connection at once', async () => {
    const { database } = await fileDatabase();
    const errors: unknown[] = [];
    // A path with no database: the worker opens with fileMustExist and fails.
    const checkpointer = sqliteBulkWriter(
      database,
      join(tmpdir(), 'hostops-no-such-dir', 'x.db'),
      (error: unknown) => errors.push(error),
    );
    const during = await checkpointer.during(async () => {
      for (let i = 0; i < 100 && errors.length === 0; i += 1) await sleep(20);
      return autoCheckpoint(database);
    });
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toMatch(/directory does not exist|unable to open/i);
    expect(during).toBe(AUTO_CHECKPOINT_PAGES);
    await checkpointer.close();
  });

  it('closing stops a running worker and later bulk writes run without one', async () => {
    const { database, path } = await fileDatabase();
    const checkpointer = sqliteBulkWriter(database, path, () => {});
    let release: () => void = () => {};
    const running = checkpointer.during(() => new Promise<void>((resolve) => (release = resolve)));
    await sleep(50);
    await checkpointer.close();
    expect(autoCheckpoint(database)).toBe(AUTO_CHECKPOINT_PAGES);
    expect(await checkpointer.during(async () => autoCheckpoint(database))).toBe(AUTO_CHECKPOINT_PAGES);
    release();
    await running;
  });

  describe('offLoop', () => {
    const count = (database: Database.Database) =>
      database.prepare('select count(*) from t').pluck().get() as number;
    const deleteAll = CompiledQuery.raw('delete from t');
    const insertRows = (database: Database.Database, n: number) => {
      const insert = database.prepare('insert into t (x) values (?)');
      database.transaction(() => {
        for (let i = 0; i < n; i += 1) insert.run(`row ${i}`);
      })();
    };
    /** Blocks this thread (and its event loop) for `ms`. */
    const block = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

    it('runs a statement on the worker while the event loop is blocked, and answers with the rows it changed', async () => {
      const { database, path } = await fileDatabase();
      insertRows(database, 30);
      const writer = sqliteBulkWriter(database, path, () => {});
      await writer.during(async (offLoop) => {
        if (offLoop === undefined) throw new Error('no worker for a SQLite file');
        // Once first, so the worker has loaded and opened before the event loop is blocked.
        expect(await offLoop(CompiledQuery.raw('delete from t where x = ?', ['row 0']))).toBe(1);
        // Not run in the call itself, on this connection: in a read transaction begun before the call this
        // connection would see its own delete, and cannot see the worker's however soon that commits.
        database.exec('begin');
        expect(count(database)).toBe(29);
        const answer = offLoop(deleteAll);
        expect(count(database)).toBe(29);
        database.exec('commit');
        // …but while this thread could run nothing at all: it only waits and looks, never yielding.
        const blockedUntil = Date.now() + 10_000;
        while (count(database) !== 0 && Date.now() < blockedUntil) block(10);
        expect(count(database)).toBe(0);
        expect(await answer).toBe(29);
      });
      await writer.close();
    });

    it("waits for the connection's write in progress instead of failing busy", async () => {
      const { database, path } = await fileDatabase();
      insertRows(database, 5);
      const writer = sqliteBulkWriter(database, path, () => {});
      await writer.during(async (offLoop) => {
        if (offLoop === undefined) throw new Error('no worker for a SQLite file');
        await offLoop(CompiledQuery.raw('select 1'));
        database.exec('begin immediate');
        database.prepare('insert into t (x) values (?)').run('held');
        const answer = offLoop(deleteAll);
        await sleep(200);
        database.exec('commit');
        expect(await answer).toBe(6);
      });
      expect(count(database)).toBe(0);
      await writer.close();
    });

    it("rejects with SQLite's own error for a statement that fails there, and runs the next one", async () => {
      const { database, path } = await fileDatabase();
      insertRows(database, 2);
      const writer = sqliteBulkWriter(database, path, () => {});
      await writer.during(async (offLoop) => {
        if (offLoop === undefined) throw new Error('no worker for a SQLite file');
        const failed = offLoop(CompiledQuery.raw('delete from no_such_table'));
        await expect(failed).rejects.toBeInstanceOf(OffLoopStatementError);
        await expect(failed).rejects.toThrow(/no such table: no_such_table/);
        expect(await offLoop(deleteAll)).toBe(2);
      });
      await writer.close();
    });

    it('runs statements on the connection once the worker has failed, and reports it', async () => {
      const { database } = await fileDatabase();
      insertRows(database, 3);
      const errors: unknown[] = [];
      const writer = sqliteBulkWriter(
        database,
        join(tmpdir(), 'hostops-no-such-dir', 'x.db'),
        (error: unknown) => errors.push(error),
      );
      const changed = await writer.during(async (offLoop) => {
        if (offLoop === undefined) throw new Error('no worker for a SQLite file');
        return offLoop(deleteAll);
      });
      expect(changed).toBe(3);
      expect(count(database)).toBe(0);
      expect(errors).toHaveLength(1);
      await writer.close();
    });
  });
});
