// /access request: a time-limited elevation. A change like /access grant, but always put up for a second
// person's approval (the change flow's approval request, Approve and Reject), approved only by someone who
// holds every right it asks for (ClickGuard asks the gate with `approvedBy`), never by the requester. The
// approval's send writes the grant, `until` = the store's time of the approval + the hours asked for.
import type { GateAsk } from '../../src/access/AccessGate.js';
import { isGrantTier } from '../../src/access/Grant.js';
import { parsePattern, patternResource } from '../../src/access/patterns.js';
import type { Tier } from '../../src/access/tiers.js';
import { change } from '../../src/discord/ChangeSpec.js';
import type { CommandModule } from '../../src/discord/CommandModule.js';
import { validated } from '../../src/discord/options.js';
import { message, type Translator } from '../../src/i18n/Translator.js';
import { Colour } from '../../src/replies/colours.js';
import { escapeUserText } from '../../src/replies/escapeUserText.js';
import { InvalidValueError } from '../../src/validation/InvalidValueError.js';
import { commandPaths, grantLine, newGrantId, parsePatterns, parseWhat, subjectText } from './grantParams.js';

const HOUR_MS = 3_600_000;

/** A right asked for, with the tier and kind its command has (what an approver must hold themselves). */
interface Right {
  what: string;
  tier: Tier;
  kind: GateAsk['kind'];
}

/** An elevation asked for, as a change's parameters (JSON). */
export interface RequestParams {
  /** The grant's id once approved. */
  id: string;
  what: string[];
  patterns: string[];
  hours: number;
  reason: string;
  /** The requester, who the grant is for. */
  by: string;
  rights: Right[];
}

/** The tier and kind of each command path or tier asked for, from the one command list. */
function rightsOf(what: readonly string[], commands: readonly CommandModule[]): Right[] {
  return what.map((item) => {
    if (isGrantTier(item)) return { what: item, tier: item, kind: 'change' };
    const [name = '', sub = ''] = item.split(' ');
    const subcommand = commands.find((m) => m.definition.name === name)?.subcommands[sub];
    return { what: item, tier: subcommand?.tier ?? 'admin', kind: subcommand?.kind ?? 'change' };
  });
}

/** What an approver must be allowed, each right on each pattern: the gate decides it (AccessPolicy). */
export function approverAsks(params: RequestParams): GateAsk[] {
  return params.rights.flatMap((right) =>
    params.patterns.map((pattern) => ({
      label: isGrantTier(right.what) ? right.what : `/${right.what}`,
      tier: right.tier,
      kind: right.kind,
      resources: [patternResource(parsePattern(pattern))],
    })),
  );
}

/** Whole hours, 1 to ACCESS_MAX_ELEVATION_H. */
export function parseHours(raw: number, maxHours: number): number {
  if (!Number.isInteger(raw) || raw < 1 || raw > maxHours) {
    throw new InvalidValueError(
      message('access.request.hours_invalid', { input: String(raw), max: String(maxHours) }),
      message('access.request.hours_expected', { max: String(maxHours) }),
    );
  }
  return raw;
}

function requestFields(params: RequestParams, t: Translator) {
  return [
    { name: t('access.field.id'), value: `\`${params.id}\``, inline: true },
    { name: t('access.field.who'), value: subjectText({ kind: 'user', id: params.by }), inline: true },
    { name: t('access.field.what'), value: params.what.map((w) => `\`${w}\``).join(', ') },
    { name: t('access.field.on'), value: params.patterns.map((p) => `\`${p}\``).join(', ') },
    { name: t('access.field.until'), value: t('access.request.for_hours', { hours: String(params.hours) }) },
    { name: t('access.field.reason'), value: escapeUserText(params.reason, 300) },
    { name: t('access.field.effect'), value: t('access.request.in_force', { id: params.id }) },
  ];
}

export const request = change({
  // Anyone may ask; what they ask for is decided when someone approves it.
  tier: 'everyone',
  operation: 'accessRequest',
  parse: ({ interaction, commands, config }): RequestParams => {
    const what = validated('what', interaction.options.getString('what', true), (value) =>
      parseWhat(value, commandPaths(commands)),
    );
    return {
      id: newGrantId(),
      what,
      patterns: validated('on', interaction.options.getString('on', true), parsePatterns),
      hours: validated('hours', String(interaction.options.getInteger('hours', true)), (value) =>
        parseHours(Number(value), config.elevation.maxHours),
      ),
      reason: validated('why', interaction.options.getString('why', true), (value) => {
        if (value.trim() === '')
          throw new InvalidValueError(
            message('access.request.why_empty'),
            message('access.request.why_expected'),
          );
        return value.trim();
      }),
      by: interaction.user.id,
      rights: rightsOf(what, commands),
    };
  },
  target: ({ id }) => id,
  preview: (params, t) => ({ title: t('access.request.title'), fields: requestFields(params, t) }),
  approvedBy: approverAsks,
  send: async (params, { store, now, t, channelT, requester, approvedBy, changeId }) => {
    const at = now();
    const grant = {
      id: params.id,
      subject: { kind: 'user' as const, id: params.by },
      what: params.what,
      patterns: params.patterns,
      until: new Date(at.getTime() + params.hours * HOUR_MS),
      createdBy: approvedBy ?? params.by,
      createdAt: at,
      requestId: changeId,
    };
    await store.grants.add(grant);
    const until = grant.until.toISOString();
    return {
      private: {
        embeds: [
          { title: t('access.request.done'), color: Colour.success, description: grantLine(grant, t) },
        ],
      },
      public: { content: channelT('access.record', { requester, line: grantLine(grant, channelT) }) },
      result: { grant: params.id, until },
      note: `in force until ${until}`,
    };
  },
});
