import {
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIEmbed,
  ButtonStyle,
  ComponentType,
  TimestampStyles,
  time,
  userMention,
} from 'discord.js';
import type { Translator } from '../i18n/Translator.js';
import { Colour } from '../replies/colours.js';
import { escapeUserText } from '../replies/escapeUserText.js';
import { literal } from '../replies/literal.js';
import type { ReplyBody } from '../replies/ReplyBody.js';
import type { AuditEntry } from '../store/index.js';
import { commandLabel } from '../text/commandLabel.js';
import { cutText } from '../text/cutText.js';
import { outcomeMark } from './outcomes.js';

export const AUDIT_PAGE_SIZE = 10;
const DESCRIPTION_LIMIT = 4096;
const SNOWFLAKE = /^\d{1,20}$/;

/** What /audit was asked for, in the terms it is shown in. */
export interface AuditFilterView {
  since: Date;
  userId?: string;
  /** `domain register`, or `help` for a command without subcommands. */
  command?: string;
  outcome?: string;
  target?: string;
}

export interface AuditPage {
  filter: AuditFilterView;
  /** At most AUDIT_PAGE_SIZE entries, newest first. */
  rows: readonly AuditEntry[];
  /** Every match, not just this page. */
  total: number;
  offset: number;
  /** Custom ids of the paging buttons (distinct: Discord refuses two equal ids in one message). */
  newerId: string;
  olderId: string;
  /** A line about the attached export, on the first answer only. */
  exportNote?: string;
}

/** The filter as a phrase: "since …, by @someone, command `/domain register`, outcome ok, target containing `x`". */
export function describeAuditFilter(filter: AuditFilterView, t: Translator): string {
  const parts = [t('audit.filter.since', { when: time(filter.since, TimestampStyles.LongDateShortTime) })];
  if (filter.userId !== undefined) parts.push(t('audit.filter.by', { user: userMention(filter.userId) }));
  if (filter.command !== undefined) {
    parts.push(t('audit.filter.command', { command: literal(`/${filter.command}`) }));
  }
  if (filter.outcome !== undefined) {
    parts.push(t('audit.filter.outcome', { outcome: escapeUserText(filter.outcome, 20) }));
  }
  // Exactly as searched for: the target passed the option rules (no hidden characters, one line).
  if (filter.target !== undefined) {
    parts.push(t('audit.filter.target', { target: literal(cutText(filter.target, 100)) }));
  }
  return parts.join(', ');
}

/** One entry on one line; every part is bounded, so ten lines always fit the description. */
export function renderAuditLine(entry: AuditEntry): string {
  const when = time(entry.at, TimestampStyles.LongDateShortTime);
  const mark = outcomeMark(entry.outcome);
  const user = SNOWFLAKE.test(entry.userId) ? userMention(entry.userId) : escapeUserText(entry.userId, 24);
  const parts = [
    `${when} ${mark} **${escapeUserText(entry.outcome, 16)}**`,
    literal(cutText(commandLabel(entry.command, entry.subcommand).replace(/[\r\n]/g, ' '), 40)),
  ];
  if (entry.target !== null && entry.target !== '') parts.push(escapeUserText(entry.target, 60));
  parts.push(`${user} (${escapeUserText(entry.userName, 40)})`);
  if (entry.actedById !== null && entry.actedById !== entry.userId) {
    const actor = SNOWFLAKE.test(entry.actedById)
      ? userMention(entry.actedById)
      : escapeUserText(entry.actedById, 24);
    parts.push(`→ ${actor} (${escapeUserText(entry.actedByName ?? '', 40)})`);
  }
  parts.push(literal(cutText(entry.correlationId.replace(/[\r\n]/g, ' '), 20)));
  if (entry.detail !== null && entry.detail !== '') parts.push(escapeUserText(entry.detail, 60));
  return parts.join(' · ');
}

function button(customId: string, label: string, disabled: boolean): APIButtonComponent {
  return { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: customId, label, disabled };
}

/**
 * One page of matches as an embed, with Newer/Older buttons (disabled at either end); /audit answers
 * only the invoker, so `t` is their language.
 */
export function renderAuditPage(page: AuditPage, t: Translator): ReplyBody {
  const words = describeAuditFilter(page.filter, t);
  const note = page.exportNote === undefined ? '' : `\n\n${page.exportNote}`;
  if (page.rows.length === 0) {
    const embed: APIEmbed = {
      title: t('audit.title'),
      color: Colour.neutral,
      description: cutText(`${t('audit.no_match', { filter: words })}${note}`, DESCRIPTION_LIMIT),
    };
    return { embeds: [embed], components: [] };
  }
  const first = page.offset + 1;
  const last = page.offset + page.rows.length;
  const lines = page.rows.map(renderAuditLine).join('\n');
  const embed: APIEmbed = {
    title: t('audit.title'),
    color: Colour.info,
    description: cutText(`${t('audit.entries', { filter: words })}\n\n${lines}${note}`, DESCRIPTION_LIMIT),
    footer: { text: t('audit.footer', { first, last, total: page.total }) },
  };
  const row: APIActionRowComponent<APIButtonComponent> = {
    type: ComponentType.ActionRow,
    components: [
      button(page.newerId, t('audit.newer'), page.offset === 0),
      button(page.olderId, t('audit.older'), last >= page.total),
    ],
  };
  return { embeds: [embed], components: [row] };
}
