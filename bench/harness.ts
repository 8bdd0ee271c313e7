// Spawning the bots as real processes against the fakes, dispatching interactions and reading back when
// Discord (the fake) heard from the bot. All times are performance.now() in this process: the fake stamps
// `dispatchedAt` when it writes INTERACTION_CREATE to the gateway socket and `at` when a REST request arrives.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DispatchedInteraction, FakeDiscord, FakeDiscordOptions } from '../test/support/FakeDiscord.js';
import { FakeDiscord as FakeDiscordServer } from '../test/support/FakeDiscord.js';
import { FakeHostingApi } from '../test/support/FakeHostingApi.js';
import { freePort } from '../test/support/freePort.js';

/** barehttp: the smallest interactions endpoint (node:http, signature verified, a fixed reply at once). */
export type BotKind = 'hostops' | 'naive' | 'bare' | 'barehttp';

export const ROOT = join(import.meta.dirname, '..');
export const TMP = join(ROOT, 'bench', '.tmp');

const ENTRY: Record<BotKind, string> = {
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
 * The node options `npm start` gives HostOps (package.json, e.g. `--max-semi-space-size=4`), so the bench
 * measures the process that runs in production; the Dockerfile's CMD carries the same.
 * BENCH_HOSTOPS_NODE_ARGS="--a --b" replaces them (experiments).
 */
export const HOSTOPS_NODE_ARGS: readonly string[] = (() => {
  const override = process.env.BENCH_HOSTOPS_NODE_ARGS;
  if (override !== undefined) return override.split(/\s+/).filter(Boolean);
  const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  const match = /\bnode((?:\s+--\S+)*)\s+dist\/src\/index\.js/.exec(scripts?.start ?? '');
  return match?.[1]?.trim().split(/\s+/).filter(Boolean) ?? [];
})();

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
const COMPILE_CACHE = join(TMP, 'compile-cache');

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
        env: { PATH: process.env.PATH ?? '', NODE_COMPILE_CACHE: COMPILE_CACHE },
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
const WATCH_ENV = { WATCH_CHANNEL_ID: '400000000000000001', WATCH_SCHEDULE: '0 8 1 1 *' };

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

export interface Stage {
  discord: FakeDiscord;
  api: FakeHostingApi;
  stop(): Promise<void>;
}

/**
 * `sessions: 'all'` lets several bot processes hold a gateway session on one stage, each receiving every
 * event (replicas); the default delivers to the latest session only.
 */
export async function startStage(
  guild: { memberCount?: number; channelCount?: number } = {},
  options: { sessions?: FakeDiscordOptions['sessions'] } = {},
): Promise<Stage> {
  const discord = await FakeDiscordServer.start({
    ...(options.sessions === undefined ? {} : { sessions: options.sessions }),
    guilds: [
      {
        ...guild,
        roles: Object.entries(ROLES).map(([name, id]) => ({ id, name })),
      },
    ],
  });
  const api = await FakeHostingApi.start();
  return {
    discord,
    api,
    async stop() {
      await Promise.all([discord.stop(), api.stop()]);
    },
  };
}

export interface SpawnOptions {
  /** `--inspect=127.0.0.1:0`; the DevTools URL is then read from stderr. */
  inspect?: boolean;
  /**
   * Write a CPU profile with this name into bench/.tmp/profiles (needs a clean exit, which stop() gives).
   * BENCH_CPU_PROF=hostops,naive,bare profiles every launch of those kinds.
   */
  cpuProfile?: string;
  env?: Record<string, string>;
  /** Extra node options before the entry (e.g. `--max-semi-space-size=1`). */
  nodeArgs?: readonly string[];
  /** Another entry script for this launch (experiments comparing builds side by side). */
  entry?: string;
  /** Another working directory (a store of its own, e.g. with more watched domains); BOT_CWD by default. */
  cwd?: string;
  /**
   * Interactions over HTTP (INTERACTIONS_MODE=http for HostOps; always for barehttp) on this port, which
   * withBot, launch and coldLaunch choose when it is 0: the fake POSTs them there, signed, instead of the gateway.
   */
  interactionsPort?: number;
}

/** `options` with a free port where interactionsPort is 0 (a bot over HTTP). */
export async function withPort(options: SpawnOptions = {}): Promise<SpawnOptions> {
  return options.interactionsPort === 0 ? { ...options, interactionsPort: await freePort() } : options;
}

export interface BotProcess {
  kind: BotKind;
  pid: number;
  /** performance.now() just before spawn(). */
  spawnedAt: number;
  child: ChildProcess;
  /** The Interactions Endpoint URL when the bot takes interactions over HTTP. */
  interactionsUrl?: string;
  /** Lines HostOps wrote to stdout (pino JSON), counted while draining the pipe. */
  stdoutLines(): number;
  stderrTail(): string;
  /** ws:// DevTools URL; only with inspect. */
  inspectorUrl(): Promise<string>;
  exited(): boolean;
  /** Resolves when the process has exited. */
  exit: Promise<void>;
  stop(): Promise<void>;
}

export function spawnBot(kind: BotKind, stage: Stage, options: SpawnOptions = {}): BotProcess {
  const cwd = options.cwd ?? BOT_CWD;
  mkdirSync(cwd, { recursive: true });
  const args: string[] = [];
  if (options.inspect) args.push('--inspect=127.0.0.1:0');
  const profiled = (process.env.BENCH_CPU_PROF ?? '').split(',').includes(kind);
  const profileName = options.cpuProfile ?? (profiled ? `${kind}-${Date.now()}` : undefined);
  if (profileName !== undefined) {
    const dir = join(TMP, 'profiles');
    mkdirSync(dir, { recursive: true });
    args.push('--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${profileName}.cpuprofile`);
  }
  if (kind === 'hostops') args.push(...HOSTOPS_NODE_ARGS);
  args.push(...(options.nodeArgs ?? []), options.entry ?? ENTRY[kind]);
  const { discord, api } = stage;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    DISCORD_TOKEN: discord.token,
    DISCORD_API_URL: discord.apiUrl,
    DISCORD_APPLICATION_ID: discord.applicationId,
    DISCORD_GUILD_ID: discord.guildId,
    HOSTING_API_URL: api.url,
    HOSTING_API_TOKEN: api.token,
    VIEWER_ROLE_IDS: ROLES.viewer,
    OPERATOR_ROLE_IDS: ROLES.operator,
    ADMIN_ROLE_IDS: ROLES.admin,
    HTTP_PORT: '0',
    SHUTDOWN_GRACE_MS: '0',
    LOG_LEVEL,
    NODE_COMPILE_CACHE: COMPILE_CACHE,
    ...(kind === 'hostops' ? WATCH_ENV : {}),
    ...(options.interactionsPort === undefined
      ? {}
      : {
          INTERACTIONS_MODE: 'http',
          INTERACTIONS_PORT: String(options.interactionsPort),
          INTERACTIONS_HOST: '127.0.0.1',
          DISCORD_PUBLIC_KEY: discord.signer.publicKey,
        }),
    ...options.env,
  };
  const spawnedAt = performance.now();
  // An empty working directory, so no developer .env is loaded into the measured process.
  const child = spawn(BOT_NODE, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let lines = 0;
  let stderr = '';
  let exited = false;
  // BENCH_BOT_LOG=<file> appends what the bots write to stdout there (to see what is logged during a run).
  const logFile = process.env.BENCH_BOT_LOG;
  child.stdout?.on('data', (chunk: Buffer) => {
    for (const byte of chunk) if (byte === 10) lines++;
    if (logFile) appendFileSync(logFile, chunk);
  });
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-20_000);
  });
  const exit = new Promise<void>((resolve) => {
    child.once('exit', () => {
      exited = true;
      resolve();
    });
  });
  return {
    kind,
    pid: child.pid ?? -1,
    spawnedAt,
    child,
    ...(options.interactionsPort === undefined
      ? {}
      : { interactionsUrl: `http://127.0.0.1:${options.interactionsPort}/interactions` }),
    stdoutLines: () => lines,
    stderrTail: () => stderr.slice(-2000),
    exited: () => exited,
    exit,
    async inspectorUrl() {
      const deadline = performance.now() + 10_000;
      for (;;) {
        const match = /Debugger listening on (ws:\/\/\S+)/.exec(stderr);
        if (match?.[1] !== undefined) return match[1];
        if (exited || performance.now() > deadline)
          throw new Error(`no inspector URL from ${kind}: ${stderr}`);
        await sleep(10);
      }
    },
    async stop() {
      if (exited) return;
      child.kill('SIGTERM');
      const killed = await Promise.race([exit.then(() => true), sleep(5_000).then(() => false)]);
      if (!killed) {
        child.kill('SIGKILL');
        await exit;
      }
    },
  };
}

/** Resident set size of a process, from /proc/<pid>/status (VmRSS). */
export function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (match?.[1] === undefined) throw new Error(`no VmRSS for ${pid}`);
  return Number(match[1]) * 1024;
}

/** User + system CPU time a process has used so far, from /proc/<pid>/stat (10 ms resolution). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may contain spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / 100;
}

/**
 * What the fake received per interaction, read incrementally from `discord.requests`:
 * the first callback (the acknowledgement), the first PATCH of `@original` and every follow-up.
 */
export class Tracker {
  readonly ack = new Map<string, { at: number; type: number }>();
  readonly original = new Map<string, number>();
  /** Tokens whose PATCH @original carried embeds (a result) rather than only text (an error message). */
  readonly originalWithEmbeds = new Set<string>();
  /**
   * The last PATCH @original per token and what it said: a read that waited for a connection edits its
   * deferral with a notice first, so its answer is the last edit, not the first.
   */
  readonly lastOriginal = new Map<string, { at: number; embeds: boolean; content: string }>();
  readonly followups = new Map<string, number[]>();
  readonly #discord: FakeDiscord;
  #cursor: number;

  constructor(discord: FakeDiscord) {
    this.#discord = discord;
    this.#cursor = discord.requests.length;
  }

  scan(): void {
    const requests = this.#discord.requests;
    for (; this.#cursor < requests.length; this.#cursor++) {
      const r = requests[this.#cursor];
      if (r === undefined) continue;
      const parts = r.path.split('/');
      if (parts[1] === 'interactions' && parts[4] === 'callback') {
        const id = parts[2] ?? '';
        if (!this.ack.has(id)) {
          const type = (r.body as { type?: unknown } | undefined)?.type;
          this.ack.set(id, { at: r.at, type: typeof type === 'number' ? type : -1 });
        }
      } else if (parts[1] === 'webhooks') {
        const token = parts[3] ?? '';
        if (r.method === 'PATCH' && parts[5] === '@original') {
          const body = r.body as { embeds?: unknown; content?: unknown } | undefined;
          const embeds = Array.isArray(body?.embeds) && body.embeds.length > 0;
          const content = typeof body?.content === 'string' ? body.content : '';
          this.lastOriginal.set(token, { at: r.at, embeds, content });
          if (!this.original.has(token)) {
            this.original.set(token, r.at);
            if (embeds) this.originalWithEmbeds.add(token);
          }
        } else if (r.method === 'POST' && parts.length === 4) {
          const list = this.followups.get(token) ?? [];
          list.push(r.at);
          this.followups.set(token, list);
        }
      }
    }
  }

  ackAt(i: DispatchedInteraction): number | undefined {
    return this.ack.get(i.id)?.at;
  }

  /** The answer with the result: PATCH @original after a defer, otherwise the reply callback itself. */
  finalAt(i: DispatchedInteraction): number | undefined {
    const ack = this.ack.get(i.id);
    if (ack === undefined) return undefined;
    return ack.type === 5 ? this.original.get(i.token) : ack.at;
  }
}

export async function waitUntil(condition: () => boolean, timeoutMs: number, what: string): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) {
      if (what === '') return false;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    }
    await sleep(5);
  }
  return true;
}

export function domainInfo(stage: Stage, domain = 'example.com'): DispatchedInteraction {
  return stage.discord.dispatchInteraction({
    commandName: 'domain',
    subcommand: 'info',
    options: { domain },
    roles: [ROLES.viewer],
  });
}

export interface Ready {
  /** performance.now() when the fake had sent READY and GUILD_CREATE (IDENTIFY handshake complete). */
  handshakeAt: number;
  /** performance.now() when the first callback for a probe interaction, dispatched at handshakeAt, arrived. */
  readyAt: number;
}

/**
 * Ready = the bot answers: a `/domain info` probe is dispatched the moment the gateway handshake is done
 * (discord.js queues it until its guilds are in), and ready is when its first callback arrives. The probe's
 * final answer is awaited too, so nothing of it is left over for the measurement that follows.
 */
export async function waitReady(stage: Stage, bot: BotProcess, tracker: Tracker): Promise<Ready> {
  const deadline = performance.now() + 20_000;
  await Promise.race([
    bot.interactionsUrl === undefined
      ? stage.discord.waitForReady(20_000)
      : endpointListening(stage, bot.interactionsUrl, deadline),
    bot.exit.then(() => {
      throw new Error(`${bot.kind} exited before ready: ${bot.stderrTail()}`);
    }),
  ]);
  const handshakeAt = performance.now();
  if (bot.interactionsUrl !== undefined) stage.discord.deliverOverHttp([bot.interactionsUrl]);
  const probe = domainInfo(stage);
  await waitUntil(
    () => {
      tracker.scan();
      if (bot.exited()) throw new Error(`${bot.kind} exited: ${bot.stderrTail()}`);
      return tracker.finalAt(probe) !== undefined;
    },
    Math.max(1, deadline - performance.now()),
    `${bot.kind} to answer the ready probe`,
  );
  const readyAt = tracker.ackAt(probe) ?? Number.NaN;
  return { handshakeAt, readyAt };
}

const PING = JSON.stringify({ id: '1', application_id: '1', type: 1, token: 'ping', version: 1 });

/**
 * Over HTTP the handshake is the endpoint answering a signed PING, once its port takes a connection (tried
 * every 5 ms with a bare TCP connect: a failing fetch costs the machine far more while the bot boots).
 */
async function endpointListening(stage: Stage, url: string, deadline: number): Promise<void> {
  const { port } = new URL(url);
  const accepts = () =>
    new Promise<boolean>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
  while (!(await accepts())) {
    if (performance.now() > deadline) throw new Error(`${url} never took a connection`);
    await sleep(5);
  }
  const response = await fetch(url, {
    method: 'POST',
    headers: stage.discord.signer.headers(PING),
    body: PING,
  });
  if (!response.ok) throw new Error(`${url} answered a PING with ${response.status}`);
  await response.arrayBuffer();
}

/** Sequential commands with no API delay, so lazily loaded code and JIT are warm before measuring. */
export async function warmUp(stage: Stage, tracker: Tracker, count: number): Promise<void> {
  const latency = stage.api.latencyMs;
  stage.api.latencyMs = 0;
  for (let n = 0; n < count; n++) {
    const i = domainInfo(stage, `warm-${n}.example.com`);
    await waitUntil(
      () => {
        tracker.scan();
        return tracker.finalAt(i) !== undefined;
      },
      10_000,
      'a warm-up answer',
    );
  }
  stage.api.latencyMs = latency;
}

/** Dispatches `count` interactions at `rate` per second; returns them and the rate actually achieved. */
export async function dispatchAtRate(
  rate: number,
  count: number,
  make: (n: number) => DispatchedInteraction,
): Promise<{ dispatched: DispatchedInteraction[]; achievedRate: number }> {
  const dispatched: DispatchedInteraction[] = [];
  const start = performance.now();
  while (dispatched.length < count) {
    const due = Math.min(count, Math.floor(((performance.now() - start) * rate) / 1000) + 1);
    while (dispatched.length < due) dispatched.push(make(dispatched.length));
    if (dispatched.length >= count) break;
    const nextAt = start + (dispatched.length * 1000) / rate;
    await sleep(Math.max(0, nextAt - performance.now()));
  }
  const first = dispatched[0]?.dispatchedAt ?? start;
  const last = dispatched[dispatched.length - 1]?.dispatchedAt ?? start;
  const achievedRate = count > 1 ? ((count - 1) * 1000) / Math.max(1e-6, last - first) : rate;
  return { dispatched, achievedRate };
}

/** Acknowledgement times (ms after dispatch) of those acknowledged; `missing` counts the rest. */
export function ackTimes(
  tracker: Tracker,
  dispatched: readonly DispatchedInteraction[],
): { times: number[]; missing: number } {
  tracker.scan();
  const times: number[] = [];
  let missing = 0;
  for (const i of dispatched) {
    const at = tracker.ackAt(i);
    if (at === undefined) missing++;
    else times.push(at - i.dispatchedAt);
  }
  return { times, missing };
}

export async function waitForAcks(
  tracker: Tracker,
  dispatched: readonly DispatchedInteraction[],
  timeoutMs: number,
): Promise<void> {
  await waitUntil(
    () => {
      tracker.scan();
      return dispatched.every((i) => tracker.ack.has(i.id));
    },
    timeoutMs,
    '',
  );
}

export interface Running {
  kind: BotKind;
  stage: Stage;
  bot: BotProcess;
  tracker: Tracker;
  ready: Ready;
  stop(): Promise<void>;
}

/** A fresh stage with a bot that is ready and warmed up; the caller stops it. */
export async function launch(
  kind: BotKind,
  options: {
    guild?: { memberCount?: number; channelCount?: number };
    spawn?: SpawnOptions;
    warmUp?: number;
  } = {},
): Promise<Running> {
  const stage = await startStage(options.guild);
  const tracker = new Tracker(stage.discord);
  const bot = spawnBot(kind, stage, await withPort(options.spawn));
  const stop = async () => {
    await bot.stop();
    await stage.stop();
  };
  try {
    const ready = await waitReady(stage, bot, tracker);
    await warmUp(stage, tracker, options.warmUp ?? 0);
    return { kind, stage, bot, tracker, ready, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Runs `fn` with a fresh stage and bot, always stopping both. */
export async function withBot<T>(
  kind: BotKind,
  guild: { memberCount?: number; channelCount?: number },
  options: SpawnOptions,
  fn: (ctx: { stage: Stage; bot: BotProcess; tracker: Tracker; ready: Ready }) => Promise<T>,
): Promise<T> {
  const stage = await startStage(guild);
  const tracker = new Tracker(stage.discord);
  const bot = spawnBot(kind, stage, await withPort(options));
  try {
    const ready = await waitReady(stage, bot, tracker);
    return await fn({ stage, bot, tracker, ready });
  } finally {
    await bot.stop();
    await stage.stop();
  }
}

/** Jiffies the whole machine spent idle (idle + iowait) and in all, from the first line of /proc/stat. */
function machineJiffies(): { idle: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
  // user nice system idle iowait irq softirq steal (guest time is already inside user and nice).
  const fields = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { idle, total: fields.reduce((a, b) => a + b, 0) };
}

/**
 * Waits (up to timeoutMs) for a window of windowMs in which the machine's CPUs were at least `minIdle`
 * idle, so a short measurement does not start while another process (a build, a test run) holds the
 * CPUs. Returns how long it waited, the idle share of the last window and whether it was quiet.
 */
export async function waitForQuietMachine(
  minIdle = 0.85,
  windowMs = 500,
  timeoutMs = 15_000,
): Promise<{ waitedMs: number; idle: number; quiet: boolean }> {
  const start = performance.now();
  for (;;) {
    const before = machineJiffies();
    await sleep(windowMs);
    const after = machineJiffies();
    const idle = (after.idle - before.idle) / Math.max(1, after.total - before.total);
    const waitedMs = performance.now() - start - windowMs;
    if (idle >= minIdle || performance.now() - start >= timeoutMs)
      return { waitedMs: Math.max(0, waitedMs), idle, quiet: idle >= minIdle };
  }
}
