import { channelMention, type Interaction, roleMention } from 'discord.js';
import type { AccessConfig } from '../config.js';
import { type Message, message } from '../i18n/Translator.js';
import { RefusalError } from '../replies/UserError.js';

/** Cumulative: each tier includes the ones before it. */
export const TIERS = ['everyone', 'viewer', 'operator', 'admin'] as const;
export type Tier = (typeof TIERS)[number];

const ROLE_VARIABLE: Record<
  Exclude<Tier, 'everyone'>,
  'viewerRoleIds' | 'operatorRoleIds' | 'adminRoleIds'
> = {
  viewer: 'viewerRoleIds',
  operator: 'operatorRoleIds',
  admin: 'adminRoleIds',
};

const ENV_NAME: Record<Exclude<Tier, 'everyone'>, string> = {
  viewer: 'VIEWER_ROLE_IDS',
  operator: 'OPERATOR_ROLE_IDS',
  admin: 'ADMIN_ROLE_IDS',
};

/**
 * The highest tier a member holds, from their role ids alone. Discord's Administrator permission
 * deliberately grants nothing here: access is whatever the ops team configured.
 */
export function memberTier(roleIds: ReadonlySet<string>, access: AccessConfig): Tier {
  const has = (ids: readonly string[]) => ids.some((id) => roleIds.has(id));
  if (has(access.adminRoleIds)) return 'admin';
  if (has(access.operatorRoleIds)) return 'operator';
  // No viewer roles configured means every member of the guild may read.
  if (access.viewerRoleIds.length === 0 || has(access.viewerRoleIds)) return 'viewer';
  return 'everyone';
}

export function tierAllows(held: Tier, needed: Tier): boolean {
  return TIERS.indexOf(held) >= TIERS.indexOf(needed);
}

/** Role ids from the interaction payload itself, whether or not the guild is cached. */
export function memberRoleIds(interaction: Pick<Interaction, 'member'>): ReadonlySet<string> {
  const member = interaction.member;
  if (!member) return new Set();
  return new Set(Array.isArray(member.roles) ? member.roles : member.roles.cache.keys());
}

export function channelAllowed(interaction: Pick<Interaction, 'channelId'>, access: AccessConfig): boolean {
  return (
    access.channelIds.length === 0 ||
    (interaction.channelId !== null && access.channelIds.includes(interaction.channelId))
  );
}

/** What the gates read of an interaction (any kind: command, button, form, autocomplete). */
export type Gated = Pick<Interaction, 'member' | 'channelId' | 'authorizingIntegrationOwners' | 'inGuild'>;

/**
 * The gates every command passes, in order, before its options are even read: guild, channel, tier.
 * Throws RefusalError; returns the member's tier.
 */
export function checkGates(
  interaction: Gated,
  needed: Tier,
  access: AccessConfig,
  commandLabel: string,
  options: { anyChannel?: boolean } = {},
): Tier {
  const held = memberTier(memberRoleIds(interaction), access);
  const refusal = refusalOf(interaction, held, needed, access, commandLabel, options.anyChannel === true);
  if (refusal) throw refusal;
  return held;
}

/** Taken outside the ops channels too (/help). */
export function runsAnywhere(subcommand: { kind?: string; anywhere?: boolean }): boolean {
  return subcommand.kind === 'info' && subcommand.anywhere === true;
}

/** Whether this member may run this subcommand here: the router's gates, for /help's list. */
export function canRun(
  subcommand: { tier: Tier; kind?: string; anywhere?: boolean },
  interaction: Gated,
  access: AccessConfig,
): boolean {
  const held = memberTier(memberRoleIds(interaction), access);
  return refusalOf(interaction, held, subcommand.tier, access, '', runsAnywhere(subcommand)) === undefined;
}

/** The gates of place, before any grant: a guild install of ours, and (unless `anyChannel`) an ops channel. */
export function placeRefusal(
  interaction: Gated,
  access: AccessConfig,
  anyChannel: boolean,
): RefusalError | undefined {
  return refusalOf(interaction, 'admin', 'everyone', access, '', anyChannel);
}

/** The refusal of a command whose tier no role or grant of the member reaches. */
export function tierRefusalError(commandLabel: string, needed: Tier, access: AccessConfig): RefusalError {
  return new RefusalError(tierRefusal(commandLabel, needed, access), 'tier');
}

function refusalOf(
  interaction: Gated,
  held: Tier,
  needed: Tier,
  access: AccessConfig,
  commandLabel: string,
  anyChannel: boolean,
): RefusalError | undefined {
  // A user-installed copy of the app can be invoked in any guild; only a guild install is ours to serve.
  const guildInstalled = Boolean(interaction.authorizingIntegrationOwners?.guildId);
  if (!interaction.inGuild() || !guildInstalled)
    return new RefusalError(message('errors.refused.guild'), 'guild');
  if (!anyChannel && !channelAllowed(interaction, access)) {
    return new RefusalError(
      message('errors.refused.channel', { channels: access.channelIds.map(channelMention).join(', ') }),
      'channel',
    );
  }
  if (!tierAllows(held, needed)) return new RefusalError(tierRefusal(commandLabel, needed, access), 'tier');
  return undefined;
}

function tierRefusal(commandLabel: string, needed: Tier, access: AccessConfig): Message {
  if (needed === 'everyone') return message('errors.refused.everyone', { command: commandLabel });
  // Higher tiers include lower ones, so any role of the needed tier or above will do.
  const tiers = TIERS.slice(TIERS.indexOf(needed)).filter(
    (t): t is Exclude<Tier, 'everyone'> => t !== 'everyone',
  );
  const roles = tiers.flatMap((tier) => access[ROLE_VARIABLE[tier]]);
  const roleText =
    access.tierFrom === 'console'
      ? message('errors.refused.tier_console', { tier: needed })
      : roles.length > 0
        ? message('errors.refused.tier_roles', { roles: roles.map(roleMention).join(', ') })
        : message('errors.refused.tier_unconfigured', { variable: ENV_NAME[needed] });
  return message('errors.refused.tier', { command: commandLabel, tier: needed, roles: roleText });
}
