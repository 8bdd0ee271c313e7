import { loadConfig } from './config.js';
import { HostingClient } from './hosting/HostingClient.js';
import { createLogger } from './logger.js';

const config = loadConfig();
const { logger } = createLogger({ level: config.logLevel, secrets: [config.hosting.token] });
const hosting = new HostingClient({ ...config.hosting, logger });

logger.info({ timeZone: config.hosting.timeZone }, 'hosting client configured');

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    void hosting.close().finally(() => process.exit(0));
  });
}
