import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseConfig } from '../../src/config.js';
import type { Bot } from '../../src/startBot.js';
import type { Store } from '../../src/store/index.js';
import { builtEntry, ensureBuilt } from './built.js';
import { captureLogs } from './captureLogs.js';
import {
  type DispatchedInteraction,
  FakeDiscord,
  type InteractionOptions,
  type RecordedRequest,
} from './FakeDiscord.js';
import { FakeHostingApi } from './FakeHostingApi.js';
import { hangLimit } from './hangLimit.js';

/** Role and channel ids of the test guild; snowflake-shaped so the config schema accepts them. */
export const ROLES = {
  viewer: '200000000000000001',
  operator: '200000000000000002',
  admin: '200000000000000003',
  unrelated: '200000000000000009',
} as const;

export const FIXED_PASSWORD = 'Gen3ratedPassw0rdXyzAbCd';

export interface TestBot {
  discord: FakeDiscord;
  api: FakeHostingApi;
  bot: Bot;
  logs: ReturnType<typeof captureLogs>;
  /** Dispatches a slash command as a member with the given roles (operator by default). */
  command(options: InteractionOptions): DispatchedInteraction;
  /** The n-th request Discord received for this interaction (callback, edits, follow-ups), waiting for it. */
  nth(interaction: DispatchedInteraction, n: number, timeoutMs?: number): Promise<RecordedRequest>;
  stop(): Promise<void>;
}

/** A fresh SQLite file in its own temporary folder. */
export function tempDatabaseUrl(): string {
  return `sqlite:${join(mkdtempSync(join(tmpdir(), 'hostops-test-')), 'hostops.db')}`;
}

type StartBot = typeof import('../../src/startBot.js').startBot;

/**
 * startBot from the production build (the very chunks `npm start` runs: a build change that breaks a
 * feature fails these tests), or from the sources when HOSTOPS_TEST_SOURCES=1 (for a debugger).
 */
let bundleLoaded = false;

async function loadStartBot(): Promise<StartBot> {
  if (process.env.HOSTOPS_TEST_SOURCES === '1') return (await import('../../src/startBot.js')).startBot;
  await ensureBuilt();
  // undici keeps one global dispatcher per process, shared by every copy of it: the first copy loaded makes
  // it. In `npm start` that is one of the bundle's; in this worker the test's own imports have made it
  // already, and a dispatcher of another undici hid the broken file uploads of issue 21. The bundle, loaded
  // once per worker, makes its own as in a fresh process.
  const dispatcher = Symbol.for('undici.globalDispatcher.1');
  if (!bundleLoaded) Reflect.set(globalThis, dispatcher, undefined);
  bundleLoaded = true;
  const built: { startBot: StartBot } = await import(pathToFileURL(builtEntry('src/startBot.ts')).href);
  return built.startBot;
}

export interface SharedFakes {
  /** Fakes of an earlier TestBot (e.g. to start a second bot after the first stopped); `stop()` leaves them running. */
  discord?: FakeDiscord;
  api?: FakeHostingApi;
  /** Deadlines of the operator and calendar listeners, shorter than the shipped ones. */
  sendDeadlinesMs?: { scrape: number; calendar: number };
}

export async function startTestBot(
  env: Record<string, string> = {},
  shared: SharedFakes = {},
  /** Tests of faults wrap the store (test/support/FaultyStore.ts). */
  deps: { wrapStore?: (store: Store) => Store; monotonic?: () => number } = {},
): Promise<TestBot> {
  const discord =
    shared.discord ??
    (await FakeDiscord.start({
      guilds: [{ roles: Object.entries(ROLES).map(([name, id]) => ({ id, name })) }],
      // Discord's 3 s for a first answer is judged by order where a test is about it (the
      // acknowledgement before the provider's answer), never by the clock of a loaded machine.
      callbackDeadlineMs: false,
    }));
  const api = shared.api ?? (await FakeHostingApi.start());
  const logs = captureLogs({ level: 'debug' });
  const config = parseConfig({
    DISCORD_TOKEN: discord.token,
    DISCORD_API_URL: discord.apiUrl,
    DISCORD_APPLICATION_ID: discord.applicationId,
    DISCORD_GUILD_ID: discord.guildId,
    DATABASE_URL: tempDatabaseUrl(),
    HOSTING_API_URL: api.url,
    HOSTING_API_TOKEN: api.token,
    HOSTING_API_TIMEOUT_MS: '3000',
    VIEWER_ROLE_IDS: ROLES.viewer,
    OPERATOR_ROLE_IDS: ROLES.operator,
    ADMIN_ROLE_IDS: ROLES.admin,
    DEFAULT_OWNER_C: 'OWN-1',
    DEFAULT_ADMIN_C: 'ADM-1',
    DEFAULT_TECH_C: 'TEC-1',
    DEFAULT_ZONE_C: 'ZON-1',
    // Off unless a test asks for it: parallel test files would fight over one port.
    HTTP_PORT: '0',
    // Off unless a test asks for it (with a local DNS server: test/support/FakeDnsServer.ts), so the
    // /server rdns prompt is a plain reply and no test depends on the machine's resolvers.
    RDNS_FORWARD_CHECK: 'off',
    // Off unless a test asks for it (with test/support/FakeRdapServer.ts): nothing leaves for a registry.
    RDAP_CHECK: 'off',
    ...env,
  });
  for (const secret of [config.hosting.token, config.discord.token]) logs.secrets.add(secret);
  const startBot = await loadStartBot();
  const bot = await startBot({
    config,
    logger: logs.logger,
    secrets: logs.secrets,
    generatePassword: () => FIXED_PASSWORD,
    now: () => new Date('2026-11-22T10:00:00Z'),
    readBackDelaysMs: [50, 100, 150],
    ...(shared.sendDeadlinesMs ? { sendDeadlinesMs: shared.sendDeadlinesMs } : {}),
    ...deps,
  });
  await bot.ready;

  return {
    discord,
    api,
    bot,
    logs,
    command: (options) => discord.dispatchInteraction({ roles: [ROLES.operator], ...options }),
    async nth(interaction, n, askedMs = 10_000) {
      const timeoutMs = hangLimit(askedMs);
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = discord.requestsFor(interaction)[n];
        if (found) return found;
        if (Date.now() > deadline) {
          throw new Error(
            `timed out waiting for request #${n} of interaction ${interaction.id}; saw ${discord.requestsFor(interaction).length}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    async stop() {
      await bot.stop(1_000);
      await Promise.all([shared.discord ? undefined : discord.stop(), shared.api ? undefined : api.stop()]);
    },
  };
}
