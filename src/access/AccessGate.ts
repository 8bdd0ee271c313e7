import { roleMention, userMention } from 'discord.js';
import type { AccessConfig } from '../config.js';
import { message } from '../i18n/Translator.js';
import { RefusalError } from '../replies/UserError.js';
import { type Asked, type Asker, type Decision, EVERYTHING, type ReadScope } from './AccessPolicy.js';
import type { GrantCache } from './GrantCache.js';
import { patternResource, type Resource, type ResourceKind, resourceText } from './patterns.js';
import { resourcesOf } from './resourcesOf.js';
import {
  type Gated,
  memberRoleIds,
  memberTier,
  placeRefusal,
  type Tier,
  tierAllows,
  tierRefusalError,
} from './tiers.js';

/** What an entry asks the gate: the command as labelled, its tier and kind, and its resources' values. */
export interface GateAsk {
  label: string;
  tier: Tier;
  kind: Asked['kind'];
  values?: Readonly<Record<string, unknown>>;
  /** The resources themselves, in place of `values` (an `/access request`'s patterns: patternResource). */
  resources?: readonly Resource[];
  anyChannel?: boolean;
}

/**
 * The one gate every entry passes (slash command, button, form, suggestions, console, HTTP): the place,
 * then the decision. A role tier that reaches the command is a grant on `*` and needs no read of the store;
 * anything else is decided on the grants in force now (GrantCache reads their generation first).
 */
export class AccessGate {
  constructor(
    readonly grants: GrantCache,
    private readonly access: AccessConfig,
    private readonly now: () => Date,
  ) {}

  /** Throws RefusalError; returns the member's tier by role (what /help shows). */
  async check(interaction: Gated & { user: { id: string } }, ask: GateAsk): Promise<Tier> {
    const refusal = placeRefusal(interaction, this.access, ask.anyChannel === true);
    if (refusal) throw refusal;
    const roleIds = memberRoleIds(interaction);
    const held = memberTier(roleIds, this.access);
    if (tierAllows(held, ask.tier)) return held;
    const asker = { userId: interaction.user.id, roleIds };
    const asked = askedOf(ask);
    const decision = (await this.grants.policy()).decide(asker, asked, this.now());
    if (!decision.allowed) throw this.refusal(ask, asked, decision);
    return held;
  }

  /**
   * What the invoker may read (the lists and answers that name many resources filter by it). A role tier
   * that reads is a grant on `*`: everything, without a read of the store.
   */
  async readScope(interaction: Pick<Gated, 'member'> & { user: { id: string } }): Promise<ReadScope> {
    const roleIds = memberRoleIds(interaction);
    if (tierAllows(memberTier(roleIds, this.access), 'viewer')) return EVERYTHING;
    const policy = await this.grants.policy();
    return policy.readScope({ userId: interaction.user.id, roleIds }, this.now());
  }

  /**
   * Where the invoker's grants allow each command (/help), the grants read once: pattern texts, `['*']`
   * everywhere, `[]` nowhere. The place (guild, channel) is the caller's to check.
   */
  async reachOf(
    interaction: Pick<Gated, 'member'> & { user: { id: string } },
  ): Promise<(ask: Omit<GateAsk, 'values' | 'anyChannel'>, kinds: ReadonlySet<ResourceKind>) => string[]> {
    const policy = await this.grants.policy();
    const asker = { userId: interaction.user.id, roleIds: memberRoleIds(interaction) };
    const now = this.now();
    return (ask, kinds) => policy.reach(asker, askedOf(ask), kinds, now);
  }

  /** The decision for `asker` alone (/access explain): the same policy, the same clock. */
  async decide(asker: Asker, ask: GateAsk): Promise<Decision> {
    return (await this.grants.policy()).decide(asker, askedOf(ask), this.now());
  }

  refusal(ask: GateAsk, asked: Asked, decision: Extract<Decision, { allowed: false }>): RefusalError {
    if (!decision.commandHeld || decision.uncovered.length === 0)
      return tierRefusalError(ask.label, ask.tier, this.access);
    const approvers = decision.approvers
      .map((s) => (s.kind === 'role' ? roleMention(s.id) : userMention(s.id)))
      .join(', ');
    const params = {
      command: ask.label,
      what: asked.command,
      resources: decision.uncovered.map((r) => `\`${resourceText(r)}\``).join(', '),
    };
    return new RefusalError(
      approvers
        ? message('access.refused.scope', { ...params, approvers })
        : message('access.refused.scope_nobody', params),
      'tier',
    );
  }
}

/**
 * The grants' own administration (every /access subcommand but a request) acts on everything: a grant
 * there names who may do what anywhere, so a grant of `access grant` on `*.acme.example` must not let its
 * holder grant on `*`. Only a grant on `*` (an admin role's, or one naming the command on `*`) covers it.
 */
const ADMINISTRATION = /^\/access (?!request$)/;
const EVERYWHERE = patternResource({ kind: 'any', text: '*' });

export function askedOf(ask: GateAsk): Asked {
  const named = ask.resources ?? (ask.values ? resourcesOf(ask.values) : []);
  return {
    command: ask.label.replace(/^\//, ''),
    tier: ask.tier,
    kind: ask.kind,
    resources: ADMINISTRATION.test(ask.label) ? [EVERYWHERE] : named,
  };
}
