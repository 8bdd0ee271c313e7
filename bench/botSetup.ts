// What every bot process of the bench is started with: its entry, the Node and the node options `npm start`
// gives HostOps, the compile cache the image keeps, the roles, and the working directory with its seeded store.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** barehttp: the smallest interactions endpoint (node:http, signature verified, a fixed reply at once). */
export type BotKind = 'hostops' | 'naive' | 'bare' | 'barehttp';

export const ROOT = join(import.meta.dirname, '..');
export const TMP = join(ROOT, 'bench', '.tmp');

export const ENTRY: Record<BotKind, string> = {
  // BENCH_HOSTOPS_ENTRY points at another build (e.g. a patched copy under bench/.tmp) to try a change.
  hostops: process.env.BENCH_HOSTOPS_ENTRY ?? join(ROOT, 'dist', 'src', 'index.js'),
  naive: join(ROOT, 'bench', 'naive.mjs'),
  bare: join(ROOT, 'bench', 'bare.mjs'),
  barehttp: join(ROOT, 'bench', 'bareHttp.mjs'),
};

/** Snowflake-shaped role ids, as the config schema wants them. */
export const ROLES = {
  viewer: '300000000000000001',
  operator: '300000000000000002',
  admin: '300000000000000003',
} as const;

/**
 * How `npm start` launches HostOps (package.json: `env NAME=value … node --option … dist/src/index.js`): its
 * environment and node options, so the bench measures the process that runs in production; the Dockerfile's
 * ENV and CMD carry the same (test/processFlags.test.ts).
 */
export function startLaunch(start: string): { env: Record<string, string>; nodeArgs: string[] } {
  const match = /(?:\benv((?:\s+[A-Z][A-Z0-9_]*=\S+)+)\s+)?\bnode((?:\s+--\S+)*)\s+dist\/src\/index\.js/.exec(
    start,
  );
  const words = (text: string | undefined) => text?.trim().split(/\s+/).filter(Boolean) ?? [];
  return {
    env: Object.fromEntries(words(match?.[1]).map((pair) => pair.split('=', 2) as [string, string])),
    nodeArgs: words(match?.[2]),
  };
}

const START = startLaunch(
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts?: Record<string, string> })
    .scripts?.start ?? '',
);

/** `npm start`'s node options; BENCH_HOSTOPS_NODE_ARGS="--a --b" replaces them (experiments). */
export const HOSTOPS_NODE_ARGS: readonly string[] =
  process.env.BENCH_HOSTOPS_NODE_ARGS === undefined
    ? START.nodeArgs
    : process.env.BENCH_HOSTOPS_NODE_ARGS.split(/\s+/).filter(Boolean);

/** `npm start`'s environment (the allocator's trim threshold), given to every HostOps the bench starts. */
export const HOSTOPS_ENV: Readonly<Record<string, string>> = START.env;

/**
 * The node every bot runs on: BENCH_NODE=<path to node>, or the one running the bench. `.ci/with-node
 * shipped npm run bench` runs both on the Node the container ships (README, "Node versions").
 */
export const BOT_NODE = process.env.BENCH_NODE ?? process.execPath;

/** `v24.21.0`: the version of BOT_NODE. */
export function botNodeVersion(): string {
  return BOT_NODE === process.execPath
    ? process.version
    : execFileSync(BOT_NODE, ['--version']).toString().trim();
}

/**
 * V8's compiled code for every bot, kept across launches as the container keeps it (the Dockerfile sets
 * NODE_COMPILE_CACHE and fills it at build time); Node 20 ignores it. Emptied and filled by fillCompileCache().
 */
export const COMPILE_CACHE = join(TMP, 'compile-cache');

/**
 * Fills the compile cache as the image build does: each bot started once with no configuration, which
 * loads its code and ends (HostOps with 78, as in the Dockerfile's RUN; the references on their login).
 */
export function fillCompileCache(): void {
  rmSync(COMPILE_CACHE, { recursive: true, force: true });
  mkdirSync(BOT_CWD, { recursive: true });
  for (const kind of Object.keys(ENTRY) as BotKind[]) {
    const args = [...(kind === 'hostops' ? HOSTOPS_NODE_ARGS : []), ENTRY[kind]];
    try {
      execFileSync(BOT_NODE, args, {
        cwd: BOT_CWD,
        env: {
          PATH: process.env.PATH ?? '',
          NODE_COMPILE_CACHE: COMPILE_CACHE,
          ...(kind === 'hostops' ? HOSTOPS_ENV : {}),
        },
        stdio: 'ignore',
        timeout: 30_000,
      });
    } catch {
      // Expected: without configuration each of them exits with an error once its code is loaded.
    }
  }
}

/** LOG_LEVEL for HostOps; `warn` by default (see the method notes in results.md). */
export const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'warn';

/** The working directory of every bot: empty but for the SQLite store HostOps opens there (data/). */
export const BOT_CWD = join(TMP, 'cwd');

/**
 * HostOps runs with the domain watch on (WATCH_CHANNEL_ID) and WATCHED_DOMAINS watched domains in its
 * SQLite store, as the footprint targets ask. The schedule (1 January, 08:00) never fires during a run.
 */
export const WATCHED_DOMAINS = 100;
// RDAP_CHECK=off: the bench's world has a fake provider and a fake Discord but no registry, and a look-up
// of a real one (unreachable here) would be timed as HostOps' own latency; the rdap metric measures the
// registry side against fake registries of its own.
export const WATCH_ENV = {
  WATCH_CHANNEL_ID: '400000000000000001',
  WATCH_SCHEDULE: '0 8 1 1 *',
  RDAP_CHECK: 'off',
};

/**
 * Empties the bots' working directory (or `cwd`) and seeds HostOps' SQLite store (DATABASE_URL's default,
 * data/hostops.db there) with WATCHED_DOMAINS (or `watched`) watched domains, each as a past run left it.
 */
export async function prepareBotCwd(cwd = BOT_CWD, watched = WATCHED_DOMAINS): Promise<void> {
  rmSync(cwd, { recursive: true, force: true });
  mkdirSync(cwd, { recursive: true });
  const { openStore } = await import('../src/store/index.js');
  const store = await openStore(`sqlite:${join(cwd, 'data', 'hostops.db')}`);
  try {
    const now = new Date();
    const domains = Array.from({ length: watched }, (_, n) => {
      const domain = `watched-${String(n).padStart(3, '0')}.example.com`;
      return { domain, unicode: domain };
    });
    await store.watch.add(domains, ROLES.operator, now, watched);
    for (const [n, seen] of (await store.watch.all()).entries()) {
      const expiry = new Date(now.getTime() + ((n % 400) - 5) * 86_400_000).toISOString().slice(0, 10);
      await store.watch.record(
        seen,
        {
          status: 'ok',
          failures: 0,
          expiryDate: expiry,
          active: true,
          expired: expiry < now.toISOString().slice(0, 10),
          transferredAway: false,
        },
        now,
      );
    }
  } finally {
    await store.close();
  }
}
