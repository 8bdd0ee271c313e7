// Spawning a bot as a real process against a stage, with the environment `npm start` would give it.
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../test/support/freePort.js';
import {
  BOT_CWD,
  BOT_NODE,
  type BotKind,
  COMPILE_CACHE,
  ENTRY,
  HOSTOPS_ENV,
  HOSTOPS_NODE_ARGS,
  LOG_LEVEL,
  ROLES,
  TMP,
  WATCH_ENV,
} from './botSetup.js';
import type { Stage } from './stage.js';

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
    ...(kind === 'hostops' ? { ...HOSTOPS_ENV, ...WATCH_ENV } : {}),
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
