import {
  type APIApplicationCommandSubcommandOption,
  ApplicationCommandOptionType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { AccessGate } from '../src/access/AccessGate.js';
import { resourceKindsOf } from '../src/access/resourcesOf.js';
import { canRun, channelAllowed, placeRefusal, runsAnywhere } from '../src/access/tiers.js';
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

type Reach = Awaited<ReturnType<AccessGate['reachOf']>>;

/**
 * Where the invoker's grants let them run what their roles do not (`undefined`: no grant to ask, as in a
 * setup without any, or a store that cannot say now — then the roles alone decide, as before grants).
 */
async function reachOf(context: CommandContext): Promise<Reach | undefined> {
  const { gate, commands, config, interaction } = context;
  const belowTier = commands.some((m) =>
    Object.values(m.subcommands).some((sub) => !canRun(sub, interaction, config.access)),
  );
  if (!gate || !belowTier) return undefined;
  return gate.reachOf(interaction).catch(() => undefined);
}

/**
 * Ephemeral: in the invoker's language, with the command descriptions their client shows. A command the
 * member's roles do not allow is marked ✅ where a grant of theirs does, with the patterns it holds on.
 */
async function respond(context: CommandContext): Promise<ReplyBody & { data: HelpData }> {
  const { commands, tier, config, interaction, t } = context;
  const here = channelAllowed(interaction, config.access);
  const reach = await reachOf(context);
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
      const english = `/${command}${name ? ` ${name}` : ''}`;
      const where = canRun(subcommand, interaction, config.access)
        ? ['*']
        : reach && !placeRefusal(interaction, config.access, runsAnywhere(subcommand))
          ? reach(
              { label: english, tier: subcommand.tier, kind: subcommand.kind },
              resourceKindsOf(
                english,
                (option?.options ?? []).map((o) => o.name),
              ),
            )
          : [];
      const allowed = where.length > 0;
      const on =
        allowed && where[0] !== '*'
          ? ` · ${t('help.where', { patterns: where.map((p) => `\`${p}\``).join(', ') })}`
          : '';
      return {
        line: `${allowed ? '✅' : '🚫'} \`${label}\` — ${description} · *${subcommand.tier}*${on}`,
        data: {
          command: name ? `${command} ${name}` : command,
          tier: subcommand.tier,
          allowed,
          description,
          ...(on ? { where } : {}),
        },
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
