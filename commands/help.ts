import {
  type APIApplicationCommandSubcommandOption,
  ApplicationCommandOptionType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import { channelAllowed, tierAllows } from '../src/discord/access.js';
import {
  type CommandContext,
  type CommandModule,
  GUILD_ONLY,
  type ReplyBody,
} from '../src/discord/CommandModule.js';
import { Colour } from '../src/discord/render/colours.js';

export const definition = {
  name: 'help',
  description: 'List HostOps commands and which of them you may run here',
  ...GUILD_ONLY,
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

function respond({ commands, tier, config, interaction }: CommandContext): ReplyBody {
  const here = channelAllowed(interaction, config.access);
  const lines = commands.flatMap((module) =>
    Object.entries(module.subcommands).map(([name, subcommand]) => {
      const option = module.definition.options?.find(
        (o): o is APIApplicationCommandSubcommandOption =>
          o.type === ApplicationCommandOptionType.Subcommand && o.name === name,
      );
      const label = `/${module.definition.name}${name ? ` ${name}` : ''}`;
      const description = option?.description ?? module.definition.description;
      const anywhere = subcommand.kind === 'info' && subcommand.anywhere === true;
      const allowed = tierAllows(tier, subcommand.tier) && (here || anywhere);
      return `${allowed ? '✅' : '🚫'} \`${label}\` — ${description} · *${subcommand.tier}*`;
    }),
  );
  const footer = here
    ? `Your tier: ${tier}.`
    : `Your tier: ${tier}. Commands are only taken in the ops channels.`;
  return {
    embeds: [
      {
        title: 'HostOps commands',
        color: Colour.info,
        description: `${lines.join('\n')}\n\nChanges always ask for confirmation first.`,
        footer: { text: `✅ you may run it here · 🚫 you may not. ${footer}` },
      },
    ],
  };
}

export const help: CommandModule = {
  definition,
  subcommands: { '': { kind: 'info', tier: 'everyone', anywhere: true, respond } },
};
