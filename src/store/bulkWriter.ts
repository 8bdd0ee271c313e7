import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Database as SqliteDatabase } from 'better-sqlite3';
import type { CompiledQuery } from 'kysely';

/** SQLite's own threshold, in pages of write-ahead log, restored when the last bulk write ends. */
export const AUTO_CHECKPOINT_PAGES = 1000;
/** How often the worker copies the log into the database while a bulk write runs. */
export const CHECKPOINT_EVERY_MS = 250;
/**
 * How long a statement in the worker waits for the bot's connection to finish a write (a command's audit
 * entry holds the lock for a fraction of a millisecond).
 */
export const WORKER_BUSY_TIMEOUT_MS = 5000;
/** The worker connection's page cache, in KiB: enough for a purge batch's pages of the audit indexes. */
export const WORKER_CACHE_KIB = 1000;

/**
 * Runs one statement off the event loop, on the worker's own connection; resolves with the rows it changed.
 * If the worker dies with the statement unanswered, it runs again on the connection: send only statements
 * that are safe to run twice (a purge batch deletes whatever is still expired).
 */
export type OffLoop = (query: CompiledQuery) => Promise<number>;

export interface BulkWriter {
  /**
   * Runs `work` (a bulk write: the retention purge, an import) with the write-ahead log copied into the
   * database by a worker thread on a connection of its own, and none of the event loop's commits
   * checkpointing. `offLoop` runs a statement on that connection, or is undefined where there is no worker
   * (PostgreSQL, a database in memory). Overlapping calls share one worker.
   */
  during<T>(work: (offLoop: OffLoop | undefined) => Promise<T>): Promise<T>;
  /** Resolves once a worker that is stopping has made its last checkpoint and exited. */
  close(): Promise<void>;
}

/** PostgreSQL, or SQLite in memory: nothing to checkpoint, no worker. */
export const noBulkWriter: BulkWriter = { during: (work) => work(undefined), close: async () => {} };

/*
 * The worker's whole program. A string (run with `eval`) rather than a module of its own, so the same code
 * runs from the sources (tests) and from the bundle (npm start) with no second entry point to keep in step.
 * PASSIVE neither waits for the event loop's connection nor blocks it: the bot's writes go on appending to
 * the log while the copy and its fsync run here. A statement sent here waits for the bot's write in
 * progress (busy_timeout) and holds the write lock while it runs; the bot's next write waits for it in turn.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const database = new Database(workerData.path, { fileMustExist: true });
database.pragma('busy_timeout = ' + workerData.busyTimeoutMs);
database.pragma('cache_size = -' + workerData.cacheKib);
database.pragma('foreign_keys = ON');
const checkpoint = () => database.pragma('wal_checkpoint(PASSIVE)');
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.on('message', (message) => {
  if (message.type === 'run') {
    try {
      const { changes } = database.prepare(message.sql).run(...message.parameters);
      parentPort.postMessage({ id: message.id, changes });
    } catch (error) {
      parentPort.postMessage({ id: message.id, error: { message: String(error && error.message), code: error && error.code } });
    }
    return;
  }
  clearInterval(timer);
  try { checkpoint(); } finally { database.close(); parentPort.close(); }
});
`;

/** A statement that failed on the worker's connection, as SQLite reported it there. */
export class OffLoopStatementError extends Error {
  readonly code: string | undefined;
  constructor(message: string, code: string | undefined) {
    super(message);
    this.name = 'OffLoopStatementError';
    this.code = code;
  }
}

type Reply = { id: number; changes: number } | { id: number; error: { message: string; code?: string } };

interface Running {
  thread: Worker;
  exited: Promise<void>;
  /** Statements sent and not answered: settled by the answer, or run on the connection if the worker dies. */
  pending: Map<
    number,
    { query: CompiledQuery; resolve: (changes: number) => void; reject: (e: unknown) => void }
  >;
  failed: boolean;
}

/**
 * SQLite with a file, where better-sqlite3 runs every statement on the event loop. Two kinds of work there
 * stall whatever command arrives meanwhile, and a bulk write does both hundreds of times: a checkpoint
 * (copying the write-ahead log into the database ends in an fsync, 7–15 ms on the benchmark's disk, run
 * inside whichever commit passes AUTO_CHECKPOINT_PAGES) and the bulk statements themselves (a purge batch,
 * ≈ 2 ms on a year of history). So while bulk writes run, a worker thread on a connection of its own does
 * the checkpoints and runs the statements it is given (≈ 9 MB while it lives, nothing at rest), and the
 * connection's own auto-checkpoint is back when they end. A worker that fails is reported; its statements
 * then run on the connection, as they would without it.
 */
export function sqliteBulkWriter(
  database: SqliteDatabase,
  path: string,
  onError: (error: unknown) => void,
): BulkWriter {
  let users = 0;
  let closed = false;
  let nextId = 0;
  const autoCheckpoint = (pages: number) => {
    if (!closed) database.pragma(`wal_autocheckpoint = ${pages}`);
  };
  const onConnection = (query: CompiledQuery): number =>
    database.prepare(query.sql).run(...(query.parameters as unknown[])).changes;
  let current: Running | undefined;
  // The last worker's end: a new one waits for its final checkpoint.
  let stopped: Promise<void> = Promise.resolve();

  const fail = (running: Running, error: unknown) => {
    if (running.failed) return;
    running.failed = true;
    // Checkpoints fall back to the connection's own: the log stays bounded either way.
    autoCheckpoint(AUTO_CHECKPOINT_PAGES);
    onError(error);
    for (const { query, resolve, reject } of running.pending.values()) {
      try {
        resolve(onConnection(query));
      } catch (e) {
        reject(e);
      }
    }
    running.pending.clear();
  };

  const start = async () => {
    await stopped;
    // Resolved here, not when the store opens: most starts never need a worker.
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const thread = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        driver,
        path,
        everyMs: CHECKPOINT_EVERY_MS,
        busyTimeoutMs: WORKER_BUSY_TIMEOUT_MS,
        cacheKib: WORKER_CACHE_KIB,
      },
      resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 },
    });
    const running: Running = {
      thread,
      exited: new Promise<void>((resolve) => thread.once('exit', () => resolve())),
      pending: new Map(),
      failed: false,
    };
    thread.on('message', (reply: Reply) => {
      const waiting = running.pending.get(reply.id);
      if (waiting === undefined) return;
      running.pending.delete(reply.id);
      if ('error' in reply) waiting.reject(new OffLoopStatementError(reply.error.message, reply.error.code));
      else waiting.resolve(reply.changes);
    });
    thread.on('error', (error) => fail(running, error));
    void running.exited.then(() => {
      if (running.pending.size > 0)
        fail(running, new Error('the SQLite worker exited with statements unanswered'));
    });
    thread.unref();
    autoCheckpoint(0);
    current = running;
  };

  const stop = () => {
    autoCheckpoint(AUTO_CHECKPOINT_PAGES);
    if (current === undefined) return;
    current.thread.postMessage({ type: 'stop' });
    stopped = current.exited;
    current = undefined;
  };

  const offLoop: OffLoop = async (query) => {
    const running = current;
    if (running === undefined || running.failed) return onConnection(query);
    const id = nextId++;
    return new Promise<number>((resolve, reject) => {
      running.pending.set(id, { query, resolve, reject });
      running.thread.postMessage({ type: 'run', id, sql: query.sql, parameters: query.parameters });
    });
  };

  return {
    async during(work) {
      if (closed) return work(undefined);
      users += 1;
      try {
        if (users === 1) await start();
        return await work(offLoop);
      } finally {
        users -= 1;
        if (users === 0) stop();
      }
    },
    close() {
      // Before the connection closes: a bulk write still running finds it closed and ends with an error.
      stop();
      closed = true;
      return stopped;
    },
  };
}
