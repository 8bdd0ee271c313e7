import { type Client, type CloseEvent, Events } from 'discord.js';
import type { Logger } from '../logger.js';
import type { HealthState } from '../observability/HealthState.js';
import type { Metrics } from '../observability/Metrics.js';
import type { Delivery } from './Delivery.js';
import type { InteractionRouter } from './InteractionRouter.js';

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

export interface GatewayDeps {
  client: Client;
  router: InteractionRouter;
  health: HealthState;
  metrics: Metrics;
  logger: Logger;
  token: string;
}

/** Interactions over the gateway: logs the client in and hands every INTERACTION_CREATE to the router. */
export function connectGateway({ client, router, health, metrics, logger, token }: GatewayDeps): Delivery {
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
  const login = client.login(token).then(
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
    ready: Promise.all([ready, login]).then(() => undefined),
    fatal,
    // New interactions still arrive while the router drains: it leaves them to a peer or says "restarting".
    async stopAccepting() {
      health.gateway = 'stopping';
    },
    close: () => client.destroy(),
  };
}
