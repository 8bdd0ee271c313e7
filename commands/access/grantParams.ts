import { randomBytes } from 'node:crypto';
import { roleMention, userMention } from 'discord.js';

export { parsePatterns, parseWhat } from '../../src/access/grantInput.js';

import type { CommandModule } from '../../src/discord/CommandModule.js';
import { message, type Translator } from '../../src/i18n/Translator.js';
import type { Grant, GrantSubject } from '../../src/store/index.js';
import { InvalidValueError } from '../../src/validation/InvalidValueError.js';
import { quoteInput } from '../../src/validation/quote.js';

/** A grant as a change's parameters (JSON): what the prompt shows and the send writes. */
export interface GrantParams {
  id: string;
  subject: GrantSubject;
  what: string[];
  patterns: string[];
  /** ISO; null: until revoked. */
  until: string | null;
  by: string;
}

export const newGrantId = () => `g${randomBytes(4).toString('hex')}`;

/** `role:1…`, `user:1…`, a mention (`<@&1…>`, `<@1…>`) or a bare id (a role of the guild, else a user). */
export function parseSubject(raw: string, isRole: (id: string) => boolean): GrantSubject {
  const value = raw.trim();
  const match = /^(?:(role|user):|<@(&?)!?)?(\d{17,20})>?$/.exec(value);
  if (!match?.[3]) {
    throw new InvalidValueError(
      message('access.who.invalid', { input: quoteInput(value) }),
      message('access.who.expected'),
    );
  }
  const id = match[3];
  const kind = match[1] ?? (match[2] === '&' ? 'role' : match[2] === '' ? 'user' : undefined);
  return { kind: kind === 'role' || kind === 'user' ? kind : isRole(id) ? 'role' : 'user', id };
}

/** Every command path HostOps has (`domain dns`), from the one command list. */
export function commandPaths(commands: readonly CommandModule[]): string[] {
  return commands.flatMap((module) =>
    Object.keys(module.subcommands).map((name) =>
      name ? `${module.definition.name} ${name}` : module.definition.name,
    ),
  );
}

/** `8h`, `30m`, `2d`, or a date and time (`2026-12-01T18:00Z`), in the future. */
export function parseUntil(raw: string, now: Date): string {
  const value = raw.trim();
  const duration = /^(\d{1,4})\s*([mhd])$/i.exec(value);
  const unitMs = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
  const at = duration?.[1]
    ? new Date(
        now.getTime() + Number(duration[1]) * unitMs[(duration[2] ?? 'h').toLowerCase() as 'm' | 'h' | 'd'],
      )
    : new Date(value);
  if (Number.isNaN(at.getTime()) || at.getTime() <= now.getTime()) {
    throw new InvalidValueError(
      message('access.until.invalid', { input: quoteInput(value) }),
      message('access.until.expected'),
    );
  }
  return at.toISOString();
}

export const subjectText = (subject: GrantSubject) =>
  subject.kind === 'role' ? roleMention(subject.id) : userMention(subject.id);

/** One grant on one line: id, who, what, on, until. */
export function grantLine(
  grant: Pick<Grant, 'id' | 'subject' | 'what' | 'patterns' | 'until'>,
  t: Translator,
): string {
  return t('access.grant.line', {
    id: grant.id,
    who: subjectText(grant.subject),
    what: grant.what.map((w) => `\`${w}\``).join(', '),
    on: grant.patterns.map((p) => `\`${p}\``).join(', '),
    until: grant.until ? `<t:${Math.floor(grant.until.getTime() / 1000)}:f>` : t('access.grant.forever'),
  });
}

/** A grant's preview fields: exactly what will be in force (or end), and when. */
export function grantFields(params: GrantParams, t: Translator, effect: string) {
  const grant = grantOf(params, new Date(0));
  return [
    { name: t('access.field.id'), value: `\`${grant.id}\``, inline: true },
    { name: t('access.field.who'), value: subjectText(grant.subject), inline: true },
    { name: t('access.field.what'), value: grant.what.map((w) => `\`${w}\``).join(', ') },
    { name: t('access.field.on'), value: grant.patterns.map((p) => `\`${p}\``).join(', ') },
    {
      name: t('access.field.until'),
      value: grant.until ? `<t:${Math.floor(grant.until.getTime() / 1000)}:f>` : t('access.grant.forever'),
    },
    { name: t('access.field.effect'), value: effect },
  ];
}

/** A grant of the store as parameters (what a revoke shows of it). */
export function paramsOf(grant: Grant): GrantParams {
  return {
    id: grant.id,
    subject: grant.subject,
    what: [...grant.what],
    patterns: [...grant.patterns],
    until: grant.until?.toISOString() ?? null,
    by: grant.createdBy,
  };
}

export function grantOf(params: GrantParams, createdAt: Date): Grant {
  return {
    id: params.id,
    subject: params.subject,
    what: params.what,
    patterns: params.patterns,
    until: params.until === null ? null : new Date(params.until),
    createdBy: params.by,
    createdAt,
    requestId: null,
  };
}
