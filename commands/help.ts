import {
  type APIApplicationCommandSubcommandOption,
  ApplicationCommandOptionType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import { canRun, channelAllowed } from '../src/access/tiers.js';
import { type CommandContext, defineCommand, GUILD_ONLY } from '../src/discord/CommandModule.js';
import { commandTexts } from '../src/i18n/commandTexts.js';
import type { Translator } from '../src/i18n/Translator.js';
import type { HelpData } from '../src/replies/answerData.js';
import { Colour } from '../src/replies/colours.js';
import type { ReplyBody } from '../src/replies/ReplyBody.js';
import { sandboxDirectory } from '../src/sandbox/sandboxData.js';

export const definition = {
  name: 'help',
  description: 'List HostOps commands and which of them you may run here',
  ...GUILD_ONLY,
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

/** What Discord shows the reader's client for a command path (`watch.add`), else the English definition's. */
function shownAs(path: string, part: 'name' | 'description', english: string, t: Translator): string {
  return (t.locale === 'en' ? undefined : commandTexts[t.locale][path]?.[part]) ?? english;
}

/** Ephemeral: in the invoker's language, with the command descriptions their client shows. */
function respond({ commands, tier, config, interaction, t }: CommandContext): ReplyBody & { data: HelpData } {
  const here = channelAllowed(interaction, config.access);
  const entries = commands.flatMap((module) =>
    Object.entries(module.subcommands).map(([name, subcommand]) => {
      const option = module.definition.options?.find(
        (o): o is APIApplicationCommandSubcommandOption =>
          o.type === ApplicationCommandOptionType.Subcommand && o.name === name,
      );
      const command = module.definition.name;
      const path = name ? `${command}.${name}` : command;
      // As the reader's client lists it: `/domain ablauf` for a German client.
      const label = `/${shownAs(command, 'name', command, t)}${name ? ` ${shownAs(path, 'name', name, t)}` : ''}`;
      const description = shownAs(
        path,
        'description',
        option?.description ?? module.definition.description,
        t,
      );
      const allowed = canRun(subcommand, interaction, config.access);
      return {
        line: `${allowed ? '✅' : '🚫'} \`${label}\` — ${description} · *${subcommand.tier}*`,
        data: { command: name ? `${command} ${name}` : command, tier: subcommand.tier, allowed, description },
      };
    }),
  );
  const lines = entries.map((entry) => entry.line);
  // On the sandbox, what it knows: anything else is answered as not found, which a newcomer cannot guess.
  const sandbox = config.hosting.sandbox ? sandboxDirectory() : undefined;
  const known = sandbox
    ? `\n\n${t('help.sandbox', {
        domains: t.list(sandbox.domains.map((domain) => `\`${domain}\``)),
        servers: t.list(sandbox.servers.map((server) => `\`${server.id}\` (${server.name})`)),
      })}`
    : '';
  return {
    embeds: [
      {
        title: t('help.title'),
        color: Colour.info,
        description: `${lines.join('\n')}\n\n${t('help.confirm_first')}${known}`,
        footer: { text: here ? t('help.footer', { tier }) : t('help.footer_elsewhere', { tier }) },
      },
    ],
    data: { tier, here, commands: entries.map((entry) => entry.data), ...(sandbox ? { sandbox } : {}) },
  };
}

export const help = defineCommand(definition, {
  subcommands: { '': { kind: 'info', tier: 'everyone', anywhere: true, respond } },
});
