import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Database as SqliteDatabase } from 'better-sqlite3';

/** SQLite's own threshold, in pages of write-ahead log, restored when the last bulk write ends. */
export const AUTO_CHECKPOINT_PAGES = 1000;
/** How often the worker copies the log into the database while a bulk write runs. */
export const CHECKPOINT_EVERY_MS = 250;

export interface WalCheckpointer {
  /**
   * Runs `work` (a bulk write: the retention purge, an import) with the write-ahead log copied into the
   * database by a worker thread on a connection of its own, and none of the event loop's commits
   * checkpointing. Overlapping calls share one worker.
   */
  during<T>(work: () => Promise<T>): Promise<T>;
  /** Resolves once a worker that is stopping has made its last checkpoint and exited. */
  close(): Promise<void>;
}

/** PostgreSQL, or SQLite in memory: nothing to checkpoint. */
export const noCheckpointer: WalCheckpointer = { during: (work) => work(), close: async () => {} };

/*
 * The worker's whole program. A string (run with `eval`) rather than a module of its own, so the same code
 * runs from the sources (tests) and from the bundle (npm start) with no second entry point to keep in step.
 * PASSIVE neither waits for the event loop's connection nor blocks it: the bot's writes go on appending to
 * the log while the copy and its fsync run here.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const database = new Database(workerData.path, { fileMustExist: true });
database.pragma('busy_timeout = 0');
database.pragma('cache_size = -64');
const checkpoint = () => database.pragma('wal_checkpoint(PASSIVE)');
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  try { checkpoint(); } finally { database.close(); parentPort.close(); }
});
`;

/**
 * SQLite with a file: copying the write-ahead log into the database (a checkpoint) ends in an fsync, 7–15 ms
 * on the benchmark's disk, and SQLite runs it inside whichever commit passes AUTO_CHECKPOINT_PAGES — on the
 * event loop, since better-sqlite3 is synchronous. A command's own writes pass it now and then, which costs
 * a few milliseconds after an answer; a purge of 100,000 expired entries passes it hundreds of times, each
 * a stall for whatever command arrives then. So bulk writes hand the checkpoints to a worker thread (≈ 9 MB
 * while it lives, nothing at rest), and the connection's own auto-checkpoint is back when they end.
 */
export function walCheckpointer(
  database: SqliteDatabase,
  path: string,
  onError: (error: unknown) => void,
): WalCheckpointer {
  let users = 0;
  let closed = false;
  const autoCheckpoint = (pages: number) => {
    if (!closed) database.pragma(`wal_autocheckpoint = ${pages}`);
  };
  let current: { thread: Worker; exited: Promise<void> } | undefined;
  // The last worker's end: a new one waits for its final checkpoint.
  let stopped: Promise<void> = Promise.resolve();

  const start = async () => {
    await stopped;
    // Resolved here, not when the store opens: most starts never need a worker.
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const thread = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver, path, everyMs: CHECKPOINT_EVERY_MS },
      resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 },
    });
    const exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
    thread.on('error', (error) => {
      // Checkpoints fall back to the connection's own: the log stays bounded either way.
      autoCheckpoint(AUTO_CHECKPOINT_PAGES);
      onError(error);
    });
    thread.unref();
    autoCheckpoint(0);
    current = { thread, exited };
  };

  const stop = () => {
    autoCheckpoint(AUTO_CHECKPOINT_PAGES);
    if (current === undefined) return;
    current.thread.postMessage('stop');
    stopped = current.exited;
    current = undefined;
  };

  return {
    async during(work) {
      if (closed) return work();
      users += 1;
      try {
        if (users === 1) await start();
        return await work();
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
