import { loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { startBot } from './startBot.js';

const config = loadConfig();
const { logger, secrets } = createLogger({
  level: config.logLevel,
  secrets: [config.hosting.token, config.discord.token],
});
const bot = startBot({ config, logger, secrets });

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    logger.info({ signal }, 'shutting down');
    void bot.stop(8_000).finally(() => process.exit(0));
  });
}
