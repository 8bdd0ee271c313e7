// The process, console and end-to-end tests run what production runs: the production bundle (`node scripts/build.mjs`, as
// `npm start`, `npm run deploy-commands` and `npm run migrate-store` build it) executed by plain `node`.
//
// It is built once per vitest run into a folder of that run under node_modules/.cache
// (node resolves the dependencies and the package's "type": "module" from there exactly as from dist/),
// so a test run never rewrites the dist/ that `npm start` or `npm run bench` may be running from, nor the
// build another test run (a second terminal) is running from. Builds of runs over a day old are removed.
//
// Importing this module adds a beforeAll to the importing test file that waits for that build: the first
// process test file of a run pays for it (a few seconds incrementally), the others find it done.
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, inject } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const BUILDS = join(ROOT, 'node_modules', '.cache', 'hostops-test-build');
const BUILD_DIR = join(BUILDS, inject('testRunId'));
const MARKER = join(BUILD_DIR, '.built-for-run');
const LOCK = `${BUILD_DIR}.lock`;
const STALE_BUILD_MS = 24 * 3600_000;
/** A full build on a loaded two-core machine takes well under a minute; the lock of a crashed run is older. */
const BUILD_TIMEOUT_MS = 180_000;

let building: Promise<void> | undefined;

/** Builds once per vitest run (shared by every worker through a marker file and a lock directory). */
export function ensureBuilt(): Promise<void> {
  building ??= buildOnce();
  return building;
}

/** The built file of one of our entry points, e.g. `src/index.ts` → …/src/index.js. */
export function builtEntry(relativeEntry: string): string {
  return join(BUILD_DIR, relativeEntry.replace(/\.ts$/, '.js'));
}

/** Node arguments that run one of our entry points from the build, e.g. `src/index.ts`. */
export function builtEntryArgs(relativeEntry: string): string[] {
  return [builtEntry(relativeEntry)];
}

async function builtForThisRun(runId: string): Promise<boolean> {
  try {
    return (await readFile(MARKER, 'utf8')) === runId;
  } catch {
    return false;
  }
}

async function buildOnce(): Promise<void> {
  const runId = inject('testRunId');
  const deadline = Date.now() + BUILD_TIMEOUT_MS;
  for (;;) {
    if (await builtForThisRun(runId)) return;
    await mkdir(dirname(LOCK), { recursive: true });
    try {
      await mkdir(LOCK);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
      // Another worker is building; a lock left by a killed run is taken over once it is old.
      const age = await stat(LOCK).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > BUILD_TIMEOUT_MS) await rm(LOCK, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error('timed out waiting for another worker to build');
      await sleep(100);
      continue;
    }
    try {
      if (await builtForThisRun(runId)) return;
      await removeStaleBuilds();
      await bundle();
      await writeFile(join(BUILD_DIR, 'package.json'), '{ "type": "module" }\n');
      await writeFile(MARKER, runId);
      return;
    } finally {
      await rm(LOCK, { recursive: true, force: true });
    }
  }
}

async function removeStaleBuilds(): Promise<void> {
  const names = await readdir(BUILDS).catch(() => []);
  for (const name of names) {
    const path = join(BUILDS, name);
    const age = await stat(path).then(
      (s) => Date.now() - s.mtimeMs,
      () => 0,
    );
    if (age > STALE_BUILD_MS) await rm(path, { recursive: true, force: true });
  }
}

function bundle(): Promise<void> {
  const args = [join(ROOT, 'scripts', 'build.mjs'), '--outdir', BUILD_DIR];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: ROOT, timeout: BUILD_TIMEOUT_MS }, (error, stdout, stderr) => {
      if (error) reject(new Error(`the build failed:\n${stdout}${stderr}`));
      else resolve();
    });
  });
}

beforeAll(ensureBuilt, BUILD_TIMEOUT_MS);
