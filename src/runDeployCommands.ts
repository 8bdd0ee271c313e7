import { commands } from '../commands/index.js';
import { deployConfigSchema, loadConfig } from './config.js';
import { deployCommands } from './discord/deployCommands.js';
import { deployFailure } from './discord/deployFailure.js';
import { createLogger } from './logger.js';

/** `npm run deploy-commands`: the command set to DISCORD_GUILD_ID, global ones removed; exit code 1 on failure. */
export async function runDeployCommands(): Promise<void> {
  const config = loadConfig(deployConfigSchema);
  const { logger } = createLogger({ level: config.logLevel, secrets: [config.discord.token] });
  try {
    await deployCommands(config, logger, commands);
  } catch (error) {
    // discord.js REST errors name the status and Discord's message; the token is never part of them.
    process.stderr.write(`${deployFailure(error, config.discord.apiUrl)}\n`);
    process.exitCode = 1;
  }
}
