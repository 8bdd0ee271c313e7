import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { type Client, type CloseEvent, Events } from 'discord.js';
import { commands as allCommands } from '../commands/index.js';
import type { AuditEvent } from './audit/AuditTrail.js';
import { announce } from './audit/announce.js';
import { Housekeeping } from './audit/Housekeeping.js';
import { ApprovalPolicy } from './changes/ApprovalPolicy.js';
import type { Config } from './config.js';
import { botMessages } from './discord/botMessages.js';
import type { CommandModule } from './discord/CommandModule.js';
import { createDiscordClient } from './discord/createDiscordClient.js';
import { InteractionRouter } from './discord/InteractionRouter.js';
import { generatePassword } from './generatePassword.js';
import { HostingClient } from './hosting/HostingClient.js';
import { translator } from './i18n/Translator.js';
import type { Logger, SecretRegistry } from './logger.js';
import { HealthState } from './observability/HealthState.js';
import { Metrics } from './observability/Metrics.js';
import { type HttpServer, startHttpServer } from './observability/startHttpServer.js';
import { openHostingEndpoint } from './sandbox/hostingEndpoint.js';
import { openStore, Presence, redactDatabaseUrl, type Store } from './store/index.js';
import { DomainWatch } from './watch/DomainWatch.js';
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
 * Wires configuration, store, hosting client, router, Discord client and the health endpoint
 * together. The store comes first: without it HostOps can keep no promise, so it does not log in.
 */
export async function startBot(deps: BotDeps): Promise<Bot> {
  const { config, logger } = deps;
  const store = await openStore(config.databaseUrl, { logger });
  const replicaId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const presence = await Presence.start(
    store,
    replicaId,
    logger,
    redactDatabaseUrl(config.databaseUrl),
  ).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  const housekeeping = new Housekeeping(store, config.audit.retentionDays, replicaId, logger);
  void housekeeping.run();
  const health = new HealthState(replicaId);
  presence.onHeartbeat = (ok) => {
    health.store = ok ? 'ok' : 'unreachable';
  };
  const metrics = new Metrics((error) =>
    logger.warn({ err: error }, 'metrics: could not read the watch list'),
  );
  // HOSTING_API_URL=sandbox: a made-up API in this process, with a token of its own.
  const endpoint = await openHostingEndpoint(config.hosting, deps.now ? { now: deps.now } : {});
  if (endpoint.sandbox) {
    deps.secrets.add(endpoint.token);
    logger.warn('hosting API: SANDBOX (no real changes)');
  }
  const hosting = new HostingClient({
    ...config.hosting,
    baseUrl: endpoint.baseUrl,
    token: endpoint.token,
    logger,
    onAttempt: (event) => {
      metrics.apiAttempt(event);
      health.apiAttempt(event);
    },
  });
  const client = createDiscordClient({ apiUrl: config.discord.apiUrl });
  const auditChannelId = config.audit.channelId;
  const messages = botMessages(client);
  const watchChannelId = config.watch.channelId;
  const watch = watchChannelId
    ? new DomainWatch(
        store,
        hosting,
        messages,
        {
          ...config.watch,
          channelId: watchChannelId,
          timeZone: config.hosting.timeZone,
          locale: config.botLocale,
        },
        logger,
        metrics,
      )
    : undefined;
  if (watch) metrics.observeWatch(watch);
  const scheduler = watch
    ? new WatchScheduler(watch, store, replicaId, config.watch.schedule, config.hosting.timeZone, logger)
    : undefined;
  // Audit lines and digests are read by the whole channel: BOT_LOCALE.
  const channelT = translator(config.botLocale);
  const router = new InteractionRouter({
    commands: deps.commands ?? allCommands,
    hosting,
    store,
    ...(watch ? { watch } : {}),
    replicaId,
    liveReplicas: () => presence.live(),
    peerBots: () => presence.peerBots(),
    approvals: await ApprovalPolicy.publish(store, config.approval.required, new Date()),
    messages,
    config,
    logger,
    ...(auditChannelId
      ? { announce: (event: AuditEvent) => announce(messages, auditChannelId, event, channelT) }
      : {}),
    ...(deps.readBackDelaysMs ? { readBackDelaysMs: deps.readBackDelaysMs } : {}),
    secrets: deps.secrets,
    generatePassword: deps.generatePassword ?? generatePassword,
    observer: metrics,
    ...(deps.now ? { now: deps.now } : {}),
  });
  const http =
    config.http.port > 0
      ? await startHttpServer({ host: config.http.host, port: config.http.port, health, metrics, logger })
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
      const drained = await router.drain(graceMs);
      await client.destroy();
      housekeeping.stop();
      await scheduler?.stop();
      await presence.stop();
      await hosting.close(!drained);
      await endpoint.close();
      await store.close();
      await http?.close();
      return { drained };
    },
  };
}
