// Runs the real HostOps process — the build of src/index.ts under plain node, as `npm start` and the
// container run it (see built.ts) — against a FakeDiscord and a FakeHostingApi owned by the test, and reads back what it logs, serves on /healthz and /metrics, and how
// it exits. Every child is killed (SIGKILL) by `killSpawned()`, which test files call in afterEach/afterAll.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { builtEntryArgs } from './built.js';
import {
  type DispatchedInteraction,
  FakeDiscord,
  type FakeDiscordOptions,
  type HttpResponse,
  type RecordedRequest,
} from './FakeDiscord.js';
import { FakeHostingApi } from './FakeHostingApi.js';
import { freePort } from './freePort.js';
import { hangLimit } from './hangLimit.js';
import { sourceEntryArgs } from './runSource.js';

export { freePort };

/** Role ids of the test guild (snowflake-shaped, as the config schema wants); same as startTestBot's. */
export const PROCESS_ROLES = {
  viewer: '200000000000000001',
  operator: '200000000000000002',
  admin: '200000000000000003',
} as const;

export type Json = Record<string, unknown>;

export interface Fakes {
  discord: FakeDiscord;
  api: FakeHostingApi;
  stop(): Promise<void>;
}

/** A fake Discord whose guild knows the configured roles, and a fake hosting API. */
export async function startFakes(options: FakeDiscordOptions = {}): Promise<Fakes> {
  const discord = await FakeDiscord.start({
    guilds: [{ roles: Object.entries(PROCESS_ROLES).map(([name, id]) => ({ id, name })) }],
    // Discord's 3 s for a first answer is judged by order where a test is about it (the acknowledgement
    // before the provider's answer), never by the clock of a machine two other suites share.
    callbackDeadlineMs: false,
    ...options,
  });
  const api = await FakeHostingApi.start();
  return {
    discord,
    api,
    stop: async () => {
      await Promise.all([discord.stop(), api.stop()]);
    },
  };
}

export interface LogLine {
  stream: 'stdout' | 'stderr';
  raw: string;
  /** The parsed pino line; `{}` for anything that is not JSON. */
  json: Json;
  /** performance.now() when the line arrived. */
  at: number;
}

export type LogPredicate = string | ((line: LogLine) => boolean);

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Milliseconds from the last signal sent with `kill()` (from the spawn when none was sent) to the exit. */
  ms: number;
}

export interface SpawnedBot {
  child: ChildProcess;
  /** The port /healthz and /metrics are served on. */
  port: number;
  /** INTERACTIONS_MODE=http: the Interactions Endpoint URL (POST /interactions); '' in gateway mode. */
  interactionsUrl: string;
  /** The exact environment the process got (tokens included), for assertions. */
  env: Record<string, string>;
  readonly lines: LogLine[];
  /** Everything the process wrote on stdout and stderr. */
  readonly output: string;
  /** Resolves once the process has exited and its output is fully read. */
  exited: Promise<Exit>;
  readonly exit: Exit | undefined;
  /** `exited`, or a rejection naming the last log lines when the process is still running after timeoutMs. */
  exitWithin(timeoutMs: number): Promise<Exit>;
  waitForLog(predicate: LogPredicate, timeoutMs?: number): Promise<LogLine>;
  /** Sends a signal; returns performance.now() at that moment. */
  kill(signal: NodeJS.Signals): number;
  get(path: string): Promise<{ status: number; text: string; json: () => Json }>;
}

export interface SpawnOptions {
  discord: FakeDiscord;
  api: FakeHostingApi;
  /** Added to (and overriding) the default environment. */
  env?: Record<string, string>;
  /** A TypeScript fixture run from source through tsx instead of the built product (src/index.ts). */
  entry?: string;
  /** Files to put in the (otherwise empty) working directory first, e.g. `{ '.env': '…' }`. */
  files?: Record<string, string>;
}

const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();

/** SIGKILLs every child still running and removes their working directories. */
export async function killSpawned(): Promise<void> {
  const waits: Promise<unknown>[] = [];
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      waits.push(new Promise((resolve) => child.once('close', resolve)));
      child.kill('SIGKILL');
    }
  }
  children.clear();
  await Promise.race([Promise.all(waits), sleep(3_000)]);
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

// Last resort when a test file is torn down abruptly: never leave a bot running.
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/** The environment a production deployment would set, pointed at the fakes. */
export function baseEnv(discord: FakeDiscord, api: FakeHostingApi, port: number): Record<string, string> {
  return {
    DISCORD_TOKEN: discord.token,
    DISCORD_API_URL: discord.apiUrl,
    DISCORD_APPLICATION_ID: discord.applicationId,
    DISCORD_GUILD_ID: discord.guildId,
    HOSTING_API_URL: api.url,
    HOSTING_API_TOKEN: api.token,
    HOSTING_API_TIMEOUT_MS: '5000',
    VIEWER_ROLE_IDS: PROCESS_ROLES.viewer,
    OPERATOR_ROLE_IDS: PROCESS_ROLES.operator,
    ADMIN_ROLE_IDS: PROCESS_ROLES.admin,
    DEFAULT_OWNER_C: 'OWN-1',
    DEFAULT_ADMIN_C: 'ADM-1',
    DEFAULT_TECH_C: 'TEC-1',
    DEFAULT_ZONE_C: 'ZON-1',
    HTTP_PORT: String(port),
    HTTP_HOST: '127.0.0.1',
    LOG_LEVEL: 'debug',
    // Off unless a test asks for it (with test/support/FakeDnsServer.ts): no test depends on the
    // machine's resolvers, and the /server rdns prompt is the first response.
    RDNS_FORWARD_CHECK: 'off',
    // Off unless a test asks for it (with test/support/FakeRdapServer.ts): nothing leaves for a registry.
    RDAP_CHECK: 'off',
  };
}

export async function spawnBot(options: SpawnOptions): Promise<SpawnedBot> {
  const port = await freePort();
  // http mode: the endpoint on a port of its own, verified with the fake Discord's application key.
  const overHttp = options.env?.INTERACTIONS_MODE === 'http';
  const interactionsPort = overHttp ? await freePort() : 0;
  const env = {
    ...baseEnv(options.discord, options.api, port),
    ...(overHttp
      ? {
          INTERACTIONS_PORT: String(interactionsPort),
          INTERACTIONS_HOST: '127.0.0.1',
          DISCORD_PUBLIC_KEY: options.discord.signer.publicKey,
        }
      : {}),
    ...options.env,
  };
  // An empty working directory, so no developer .env is loaded.
  const cwd = mkdtempSync(join(tmpdir(), 'hostops-process-'));
  tempDirs.add(cwd);
  for (const [name, text] of Object.entries(options.files ?? {})) writeFileSync(join(cwd, name), text);
  const args = options.entry ? sourceEntryArgs(options.entry) : builtEntryArgs('src/index.ts');
  const child = spawn(process.execPath, args, {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);

  const lines: LogLine[] = [];
  const chunks: string[] = [];
  const listeners = new Set<() => void>();
  let signalledAt = performance.now();
  let exitedAt: number | undefined;
  let exit: Exit | undefined;

  const collect = (stream: 'stdout' | 'stderr') => {
    let partial = '';
    const source = stream === 'stdout' ? child.stdout : child.stderr;
    source?.setEncoding('utf8');
    source?.on('data', (data: string) => {
      chunks.push(data);
      const parts = (partial + data).split('\n');
      partial = parts.pop() ?? '';
      for (const raw of parts) if (raw.trim() !== '') push(stream, raw);
    });
    source?.on('end', () => {
      if (partial.trim() !== '') push(stream, partial);
      partial = '';
    });
  };
  const push = (stream: 'stdout' | 'stderr', raw: string) => {
    let json: Json = {};
    try {
      const parsed: unknown = JSON.parse(raw);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) json = parsed as Json;
    } catch {
      // Not a log line (a Node warning, a stack trace): kept raw.
    }
    lines.push({ stream, raw, json, at: performance.now() });
    for (const listener of [...listeners]) listener();
  };
  collect('stdout');
  collect('stderr');

  child.once('exit', () => {
    exitedAt = performance.now();
  });
  const exited = new Promise<Exit>((resolve) => {
    child.once('close', (code, signal) => {
      exit = { code, signal, ms: (exitedAt ?? performance.now()) - signalledAt };
      children.delete(child);
      for (const listener of [...listeners]) listener();
      resolve(exit);
    });
  });

  const describe = () => {
    const tail = lines
      .slice(-15)
      .map((l) => l.raw.slice(0, 300))
      .join('\n');
    return `${exit ? `process exited (${exit.code ?? exit.signal})` : 'process running'}; last lines:\n${tail}`;
  };

  const waitForLog = (predicate: LogPredicate, askedMs = 10_000): Promise<LogLine> => {
    const timeoutMs = hangLimit(askedMs);
    const test = typeof predicate === 'string' ? (l: LogLine) => l.raw.includes(predicate) : predicate;
    const found = lines.find(test);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        listeners.delete(check);
      };
      const check = () => {
        const line = lines.find(test);
        if (line) {
          done();
          resolve(line);
        } else if (exit) {
          done();
          reject(new Error(`waitForLog(${String(predicate)}): ${describe()}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`waitForLog(${String(predicate)}) timed out after ${timeoutMs} ms; ${describe()}`));
      }, timeoutMs);
      listeners.add(check);
    });
  };

  return {
    child,
    port,
    interactionsUrl: overHttp ? `http://127.0.0.1:${interactionsPort}/interactions` : '',
    env,
    lines,
    get output() {
      return chunks.join('');
    },
    exited,
    get exit() {
      return exit;
    },
    exitWithin(askedMs) {
      const timeoutMs = hangLimit(askedMs);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`still running ${timeoutMs} ms later; ${describe()}`)),
          timeoutMs,
        );
      });
      return Promise.race([exited, timeout]).finally(() => clearTimeout(timer));
    },
    waitForLog,
    kill(signal) {
      signalledAt = performance.now();
      child.kill(signal);
      return signalledAt;
    },
    async get(path) {
      const response = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(3_000) });
      const text = await response.text();
      return { status: response.status, text, json: () => JSON.parse(text) as Json };
    },
  };
}

/** Predicate for a pino line by message, optionally with some of its fields. */
export function logged(msg: string, fields: Json = {}): (line: LogLine) => boolean {
  return (line) =>
    line.json.msg === msg && Object.entries(fields).every(([key, value]) => line.json[key] === value);
}

export async function until<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  what: string,
  askedMs = 10_000,
  stepMs = 10,
): Promise<T> {
  const timeoutMs = hangLimit(askedMs);
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(stepMs);
  }
}

/** The n-th request (0-based) Discord received for an interaction: callback, edits, follow-ups. */
export function nth(
  discord: FakeDiscord,
  interaction: DispatchedInteraction,
  n: number,
  timeoutMs = 10_000,
): Promise<RecordedRequest> {
  return until(
    () => discord.requestsFor(interaction)[n],
    `request #${n} for interaction ${interaction.id} (saw ${discord.requestsFor(interaction).length}: ${discord
      .requestsFor(interaction)
      .map((r) => `${r.method} ${r.path.split('/').slice(0, 2).join('/')}`)
      .join(', ')})`,
    timeoutMs,
    5,
  );
}

/** How the endpoint answered an interaction delivered over HTTP (FakeDiscord.deliverOverHttp). */
export function responseOf(i: DispatchedInteraction): Promise<HttpResponse> {
  if (!i.response) throw new Error(`interaction ${i.id} was not delivered over HTTP`);
  return i.response;
}

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The message a Discord request carries: callback `data` (reply/update) or a webhook message body. */
export function messageOf(request: RecordedRequest): Json {
  const body = isJson(request.body) ? request.body : {};
  if (request.path.endsWith('/callback')) return isJson(body.data) ? body.data : {};
  return body;
}

export function callbackType(request: RecordedRequest): number | undefined {
  const body = isJson(request.body) ? request.body : {};
  return typeof body.type === 'number' ? body.type : undefined;
}

/** Content plus every embed's title, description and fields. */
export function textOf(message: Json): string {
  const parts: string[] = [];
  if (typeof message.content === 'string') parts.push(message.content);
  for (const embed of Array.isArray(message.embeds) ? message.embeds.filter(isJson) : []) {
    if (typeof embed.title === 'string') parts.push(embed.title);
    if (typeof embed.description === 'string') parts.push(embed.description);
    for (const field of Array.isArray(embed.fields) ? embed.fields.filter(isJson) : []) {
      parts.push(`${String(field.name)}: ${String(field.value)}`);
    }
  }
  return parts.join('\n');
}

export const EPHEMERAL = 64;

export function isEphemeral(message: Json): boolean {
  return typeof message.flags === 'number' && (message.flags & EPHEMERAL) !== 0;
}

/** The Confirm button's custom id in a prompt (`hostops:confirm:<nonce>`). */
export function confirmIdOf(prompt: RecordedRequest): string {
  const rows = messageOf(prompt).components;
  for (const row of Array.isArray(rows) ? rows.filter(isJson) : []) {
    for (const button of Array.isArray(row.components) ? row.components.filter(isJson) : []) {
      if (typeof button.custom_id === 'string' && button.custom_id.startsWith('hostops:confirm:')) {
        return button.custom_id;
      }
    }
  }
  throw new Error(`no Confirm button in ${JSON.stringify(prompt.body)}`);
}

/** Dispatches a change command, waits for its prompt and presses Confirm as the same member. */
export async function confirmChange(
  discord: FakeDiscord,
  command: Parameters<FakeDiscord['dispatchInteraction']>[0],
): Promise<{ command: DispatchedInteraction; click: DispatchedInteraction }> {
  const roles = command.roles ?? [PROCESS_ROLES.operator];
  const dispatched = discord.dispatchInteraction({ ...command, roles });
  const prompt = await nth(discord, dispatched, 0);
  const message = discord.originalMessage(dispatched);
  if (!message) throw new Error(`no prompt message for ${JSON.stringify(prompt.body)}`);
  const click = discord.dispatchComponent({
    customId: confirmIdOf(prompt),
    message: { id: message.id },
    roles,
    ...(command.userId === undefined ? {} : { userId: command.userId }),
  });
  return { command: dispatched, click };
}

/** Neither token may appear anywhere in what the process wrote. */
export function leakedTokens(bot: SpawnedBot): string[] {
  const secrets: [string, string | undefined][] = [
    ['DISCORD_TOKEN', bot.env.DISCORD_TOKEN],
    ['HOSTING_API_TOKEN', bot.env.HOSTING_API_TOKEN],
  ];
  return secrets
    .filter(([, value]) => value !== undefined && value !== '' && bot.output.includes(value))
    .map(([name]) => name);
}
