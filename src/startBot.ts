import { type Client, type CloseEvent, Events } from 'discord.js';
import { Housekeeping } from './audit/Housekeeping.js';
import type { Config } from './config.js';
import { botMessages } from './discord/botMessages.js';
import type { CommandModule } from './discord/CommandModule.js';
import { createDiscordClient } from './discord/createDiscordClient.js';
import type { InteractionRouter } from './discord/InteractionRouter.js';
import type { HostingClient } from './hosting/HostingClient.js';
import { translator } from './i18n/Translator.js';
import type { Logger, SecretRegistry } from './logger.js';
import { HealthState } from './observability/HealthState.js';
import { Metrics } from './observability/Metrics.js';
import { registerOperatorGauges } from './observability/operatorGauges.js';
import { type HttpServer, startHttpServer } from './observability/startHttpServer.js';
import { createRuntime, newReplicaId } from './runtime/createRuntime.js';
import type { Store } from './store/index.js';
import type { DomainWatch } from './watch/DomainWatch.js';
import { WatchScheduler } from './watch/WatchScheduler.js';

/**
 * Close codes after which Discord will not take this session or a new one as configured: reconnecting
 * would only loop. (4004 authentication failed, 4010 invalid shard, 4011 sharding required,
 * 4012 invalid API version, 4013 invalid intents, 4014 disallowed intents.)
 */
export const FATAL_CLOSE_CODES = new Map<number, string>([
  [4004, 'the bot token was rejected (4004): check DISCORD_TOKEN'],
  [4010, 'invalid shard (4010)'],
  [4011, 'sharding required (4011)'],
  [4012, 'invalid gateway API version (4012)'],
  [4013, 'invalid intents (4013)'],
  [4014, 'disallowed intents (4014): enable them for the application in the developer portal'],
]);

export interface BotDeps {
  config: Config;
  logger: Logger;
  secrets: SecretRegistry;
  /** Tests pin these. */
  commands?: readonly CommandModule[];
  generatePassword?: () => string;
  now?: () => Date;
  readBackDelaysMs?: readonly number[];
}

export interface Bot {
  client: Client;
  router: InteractionRouter;
  store: Store;
  /** Absent when WATCH_CHANNEL_ID is unset (the watch is off). */
  watch: DomainWatch | undefined;
  hosting: HostingClient;
  health: HealthState;
  metrics: Metrics;
  http: HttpServer | undefined;
  /** Resolves once the gateway session is ready; rejects if it never can be. */
  ready: Promise<void>;
  /** Resolves with the reason if the bot can no longer work and the process should exit non-zero. */
  fatal: Promise<string>;
  /** Stops taking commands, lets those in flight finish (up to graceMs), then closes everything. */
  stop(graceMs: number): Promise<{ drained: boolean }>;
}

/**
 * The Discord adapter: the shared runtime (src/runtime/createRuntime.ts: store, hosting client, router,
 * watch) with a Discord client, the watch's schedule, housekeeping and the health endpoint around it. The
 * store comes first: without it HostOps can keep no promise, so it does not log in.
 */
export async function startBot(deps: BotDeps): Promise<Bot> {
  const { config, logger } = deps;
  const replicaId = newReplicaId('bot');
  const health = new HealthState(replicaId);
  const metrics = new Metrics((error) =>
    logger.warn({ err: error }, 'metrics: could not read the watch list'),
  );
  // Made before the runtime (its bot messages go through it), logged in only once the store is open.
  const client = createDiscordClient({ apiUrl: config.discord.apiUrl });
  const runtime = await createRuntime({
    face: 'bot',
    config,
    logger,
    secrets: deps.secrets,
    replicaId,
    messages: botMessages(client),
    watchChannelId: config.watch.channelId,
    observer: metrics,
    watchObserver: metrics,
    onApiAttempt: (event) => {
      metrics.apiAttempt(event);
      health.apiAttempt(event);
    },
    ...(deps.commands ? { commands: deps.commands } : {}),
    ...(deps.generatePassword ? { generatePassword: deps.generatePassword } : {}),
    ...(deps.now ? { now: deps.now } : {}),
    ...(deps.readBackDelaysMs ? { readBackDelaysMs: deps.readBackDelaysMs } : {}),
  }).catch(async (error: unknown) => {
    await client.destroy();
    throw error;
  });
  const { store, presence, router, watch, hosting } = runtime;
  const housekeeping = new Housekeeping(store, config.audit.retentionDays, replicaId, logger);
  void housekeeping.run();
  presence.onHeartbeat = (ok) => {
    health.store = ok ? 'ok' : 'unreachable';
  };
  if (watch) metrics.observeWatch(watch);
  const scheduler = watch
    ? new WatchScheduler(watch, store, replicaId, config.watch.schedule, config.hosting.timeZone, logger)
    : undefined;
  registerOperatorGauges(metrics.registry, {
    health,
    store,
    approvalTimeoutMs: config.approval.timeoutMs,
    watch,
    scheduler,
    now: deps.now ?? (() => new Date()),
    readStore: (read) => metrics.readStore(read),
  });
  const http =
    config.http.port > 0
      ? await startHttpServer({
          host: config.http.host,
          port: config.http.port,
          health,
          metrics,
          logger,
          calendar:
            watch && config.http.calendarToken
              ? {
                  token: config.http.calendarToken,
                  render: async () => (await watch.calendar(translator(config.botLocale))).ics,
                }
              : undefined,
        })
      : undefined;

  let declareFatal: (reason: string) => void = () => {};
  const fatal = new Promise<string>((resolve) => {
    declareFatal = resolve;
  });

  client.on(Events.InteractionCreate, (interaction) => void router.handle(interaction));
  client.on(Events.Error, (error) => logger.error({ err: error }, 'discord client error'));
  client.on(Events.Warn, (message) => logger.warn({ message }, 'discord client warning'));
  client.on(Events.ShardDisconnect, (event: CloseEvent) => {
    if (health.gateway === 'stopping') return;
    health.gateway = 'reconnecting';
    const reason = FATAL_CLOSE_CODES.get(event.code);
    if (reason) declareFatal(`Discord closed the gateway: ${reason}`);
    else logger.warn({ code: event.code }, 'gateway disconnected');
  });
  client.on(Events.ShardReconnecting, () => {
    if (health.gateway === 'stopping') return;
    health.gateway = 'reconnecting';
    logger.warn('gateway connection lost, reconnecting');
  });
  const backOnline = (how: string) => {
    if (health.gateway === 'reconnecting') {
      metrics.gatewayReconnected();
      logger.info(`gateway ${how}`);
    }
    if (health.gateway !== 'stopping') health.gateway = 'ready';
  };
  client.on(Events.ShardResume, () => backOnline('session resumed'));
  client.on(Events.ShardReady, () => backOnline('session re-identified'));

  const ready = new Promise<void>((resolve) => {
    client.once(Events.ClientReady, (c) => {
      health.gateway = 'ready';
      logger.info({ user: c.user.id, guilds: c.guilds.cache.size }, 'gateway ready');
      resolve();
    });
  });
  const login = client.login(config.discord.token).then(
    () => undefined,
    (error: unknown) => {
      const code = (error as { code?: unknown }).code;
      const reason =
        code === 'TokenInvalid'
          ? 'Discord rejected the bot token: check DISCORD_TOKEN'
          : `cannot log in to Discord: ${error instanceof Error ? error.message : String(error)}`;
      declareFatal(reason);
      throw new Error(reason);
    },
  );

  return {
    client,
    router,
    store,
    watch,
    hosting,
    health,
    metrics,
    http,
    fatal,
    ready: Promise.all([ready, login]).then(() => undefined),
    async stop(graceMs) {
      health.gateway = 'stopping';
      const drained = await runtime.drain(graceMs);
      await client.destroy();
      housekeeping.stop();
      await scheduler?.stop();
      await runtime.close(drained);
      await http?.close();
      return { drained };
    },
  };
}
