import { isIP } from 'node:net';
import { askedOf, type GateAsk } from '../../src/access/AccessGate.js';
import { memberRoleIds } from '../../src/access/tiers.js';
import type { CommandContext, ReadAnswer } from '../../src/discord/CommandModule.js';
import { message } from '../../src/i18n/Translator.js';
import { Colour } from '../../src/replies/colours.js';
import { UserError } from '../../src/replies/UserError.js';
import { grantLine } from './grantParams.js';

export interface ExplainInput {
  userId: string;
  /** From the option's resolved member; undefined: fetched from the guild. */
  roleIds: ReadonlySet<string> | undefined;
  command: string;
  target: string | undefined;
}

/** A target as the values a command's options would give: `server:42`, an address, or a domain. */
export function targetValues(target: string | undefined): Record<string, unknown> {
  if (target === undefined) return {};
  const server = /^server:(\d+)$/i.exec(target);
  if (server) return { serverId: Number(server[1]) };
  if (isIP(target.replace(/^ip:/i, ''))) return { ip: target.replace(/^ip:/i, '') };
  return { domain: target };
}

/** /access explain: the decision the gate would make for that member, and by which grant or what is missing. */
export async function explainAnswer(context: CommandContext, input: ExplainInput): Promise<ReadAnswer> {
  const { commands, gate, t } = context;
  const [name = '', sub = ''] = input.command.split(' ');
  const subcommand = commands.find((m) => m.definition.name === name)?.subcommands[sub];
  if (!subcommand || !gate)
    throw new UserError(message('access.explain.unknown', { command: input.command }));
  const ask: GateAsk = {
    label: `/${input.command}`,
    tier: subcommand.tier,
    kind: subcommand.kind,
    values: targetValues(input.target),
  };
  // The invoker explained: their own roles (the console's `--as USER_ID --roles …` has no guild to ask).
  const own = input.userId === context.interaction.user.id ? memberRoleIds(context.interaction) : undefined;
  const roleIds =
    input.roleIds ??
    own ??
    (await context.interaction.guild?.members
      .fetch(input.userId)
      .then((member) => new Set(member.roles.cache.keys()))
      .catch(() => undefined)) ??
    new Set<string>();
  const decision = await gate.decide({ userId: input.userId, roleIds }, ask);
  const who = `<@${input.userId}>`;
  const on = input.target ? ` \`${input.target}\`` : '';
  const description = decision.allowed
    ? decision.grant
      ? t('access.explain.allowed', { who, command: ask.label, on, grant: grantLine(decision.grant, t) })
      : t('access.explain.allowed_everyone', { who, command: ask.label, on })
    : t('access.explain.denied', {
        who,
        command: ask.label,
        on,
        why: t.render(gate.refusal(ask, askedOf(ask), decision).text),
      });
  return {
    embeds: [
      {
        title: t('access.explain.title'),
        color: decision.allowed ? Colour.success : Colour.danger,
        description,
      },
    ],
    data: {
      allowed: decision.allowed,
      grant: decision.allowed ? (decision.grant?.id ?? null) : null,
      approvers: decision.allowed ? [] : decision.approvers,
    },
  };
}
