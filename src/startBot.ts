import { type Client, Events } from 'discord.js';
import { commands } from '../commands/index.js';
import type { Config } from './config.js';
import { createDiscordClient } from './discord/createDiscordClient.js';
import { InteractionRouter, type RouterObserver } from './discord/InteractionRouter.js';
import { generatePassword } from './generatePassword.js';
import { HostingClient, type HostingClientOptions } from './hosting/HostingClient.js';
import type { Logger, SecretRegistry } from './logger.js';

export interface BotDeps {
  config: Config;
  logger: Logger;
  secrets: SecretRegistry;
  observer?: RouterObserver;
  onApiAttempt?: HostingClientOptions['onAttempt'];
  /** Tests pin these. */
  generatePassword?: () => string;
  now?: () => Date;
}

export interface Bot {
  client: Client;
  router: InteractionRouter;
  hosting: HostingClient;
  /** Resolves once the gateway session is ready. */
  ready: Promise<void>;
  /** Stops taking commands, lets those in flight finish (up to graceMs), then closes everything. */
  stop(graceMs: number): Promise<{ drained: boolean }>;
}

/** Wires the hosting client, the router and the Discord client together and logs in. */
export function startBot(deps: BotDeps): Bot {
  const { config, logger } = deps;
  const hosting = new HostingClient({ ...config.hosting, logger, onAttempt: deps.onApiAttempt });
  const router = new InteractionRouter({
    commands,
    hosting,
    config,
    logger,
    secrets: deps.secrets,
    generatePassword: deps.generatePassword ?? generatePassword,
    ...(deps.now ? { now: deps.now } : {}),
    ...(deps.observer ? { observer: deps.observer } : {}),
  });
  const client = createDiscordClient({ apiUrl: config.discord.apiUrl });
  client.on(Events.InteractionCreate, (interaction) => void router.handle(interaction));
  client.on(Events.Error, (error) => logger.error({ err: error }, 'discord client error'));
  client.on(Events.Warn, (message) => logger.warn({ message }, 'discord client warning'));

  const ready = new Promise<void>((resolve) => {
    client.once(Events.ClientReady, (c) => {
      logger.info({ user: c.user.id, guilds: c.guilds.cache.size }, 'gateway ready');
      resolve();
    });
  });
  const login = client.login(config.discord.token);

  return {
    client,
    router,
    hosting,
    ready: Promise.all([ready, login]).then(() => undefined),
    async stop(graceMs) {
      const drained = await router.drain(graceMs);
      await client.destroy();
      await hosting.close();
      return { drained };
    },
  };
}
