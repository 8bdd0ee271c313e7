import { REST, Routes } from 'discord.js';
import { commands } from '../../commands/index.js';
import type { DeployConfig } from '../config.js';
import type { Logger } from '../logger.js';

/**
 * Registers the whole command set with one bulk PUT (guild-scoped when DISCORD_GUILD_ID is set, which
 * applies at once). Run on deploys, never on every start: registration is rate limited.
 */
export async function deployCommands(config: DeployConfig, logger: Logger): Promise<number> {
  const rest = new REST({ api: config.discord.apiUrl }).setToken(config.discord.token);
  const applicationId =
    config.discord.applicationId ?? ((await rest.get(Routes.currentApplication())) as { id: string }).id;
  const route = config.discord.guildId
    ? Routes.applicationGuildCommands(applicationId, config.discord.guildId)
    : Routes.applicationCommands(applicationId);
  const registered = (await rest.put(route, {
    body: commands.map((command) => command.definition),
  })) as unknown[];
  logger.info(
    { applicationId, guildId: config.discord.guildId ?? null, count: registered.length },
    config.discord.guildId ? 'commands registered to the guild' : 'commands registered globally',
  );
  return registered.length;
}
