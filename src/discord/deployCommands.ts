import { REST, Routes } from 'discord.js';
import type { DeployConfig } from '../config.js';
import { localizeCommand } from '../i18n/localizeCommand.js';
import type { Logger } from '../logger.js';
import type { CommandModule } from './CommandModule.js';

export interface DeployResult {
  /** Commands now registered to DISCORD_GUILD_ID. */
  registered: number;
  /** Global commands of the application that were removed (0 when there were none). */
  removedGlobal: number;
}

/**
 * Registers the command set to the one guild HostOps serves (one bulk PUT, applies at once), then
 * removes any global commands of the application (one bulk PUT of `[]`, only when there are some), so
 * the commands never show up anywhere else. Run on deploys, never on every start: registration is
 * rate limited. The guild set is written first, so a failure never leaves the guild without commands.
 */
export async function deployCommands(
  config: DeployConfig,
  logger: Logger,
  commands: readonly Pick<CommandModule, 'definition'>[],
): Promise<DeployResult> {
  const { apiUrl, token, guildId } = config.discord;
  const rest = new REST({ api: apiUrl }).setToken(token);
  const applicationId =
    config.discord.applicationId ?? ((await rest.get(Routes.currentApplication())) as { id: string }).id;

  const registered = (await rest.put(Routes.applicationGuildCommands(applicationId, guildId), {
    body: commands.map((command) => localizeCommand(command.definition)),
  })) as unknown[];
  logger.info({ applicationId, guildId, count: registered.length }, 'commands registered to the guild');

  const global = (await rest.get(Routes.applicationCommands(applicationId))) as unknown[];
  if (global.length > 0) {
    await rest.put(Routes.applicationCommands(applicationId), { body: [] });
    logger.info({ applicationId, count: global.length }, 'global commands removed');
  } else {
    logger.info({ applicationId, count: 0 }, 'no global commands to remove');
  }
  return { registered: registered.length, removedGlobal: global.length };
}
