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
import { figure, type Translator } from '../i18n/Translator.js';
import { Colour } from '../replies/colours.js';
import { escapeUserText } from '../replies/escapeUserText.js';
import { literal } from '../replies/literal.js';
import type { ReplyBody } from '../replies/ReplyBody.js';
import { type AuditEntry, TARGET_SUBSTRING_MIN } from '../store/index.js';
import { commandLabel } from '../text/commandLabel.js';
import { isConsoleActor } from '../text/consoleActor.js';
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
  /** Every match, not just this page; with `capped`, the cap (there are more). */
  total: number;
  capped: boolean;
  /** The end `offset` counts from. */
  from: 'newest' | 'oldest';
  offset: number;
  /** Whether matches lie past this page, away from its end. */
  more: boolean;
  /** Custom ids of the paging buttons (distinct: Discord refuses two equal ids in one message). */
  newestId: string;
  newerId: string;
  olderId: string;
  oldestId: string;
  /** A line about the attached export, on the first answer only. */
  exportNote?: string;
}

/**
 * Text shorter than a trigram is searched as a whole target: no index finds it within targets, and real
 * targets are that short (a music-bot user `al`, an /audit search `7d`).
 */
export function searchesWholeTarget(target: string): boolean {
  return Array.from(target).length < TARGET_SUBSTRING_MIN;
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
    const target = literal(cutText(filter.target, 100));
    parts.push(
      t(searchesWholeTarget(filter.target) ? 'audit.filter.target_whole' : 'audit.filter.target', { target }),
    );
  }
  return parts.join(', ');
}

/** A mention and the name stored with it; a console actor (a made-up id) by its name alone. */
function whoActed(id: string, name: string): string {
  if (isConsoleActor(id, name)) return escapeUserText(name, 40);
  const user = SNOWFLAKE.test(id) ? userMention(id) : escapeUserText(id, 24);
  return `${user} (${escapeUserText(name, 40)})`;
}

/** One entry on one line; every part is bounded, so ten lines always fit the description. */
export function renderAuditLine(entry: AuditEntry): string {
  const when = time(entry.at, TimestampStyles.LongDateShortTime);
  const mark = outcomeMark(entry.outcome);
  const parts = [
    `${when} ${mark} **${escapeUserText(entry.outcome, 16)}**`,
    literal(cutText(commandLabel(entry.command, entry.subcommand).replace(/[\r\n]/g, ' '), 40)),
  ];
  if (entry.target !== null && entry.target !== '') parts.push(escapeUserText(entry.target, 60));
  parts.push(whoActed(entry.userId, entry.userName));
  if (entry.actedById !== null && entry.actedById !== entry.userId) {
    parts.push(`→ ${whoActed(entry.actedById, entry.actedByName ?? '')}`);
  }
  parts.push(literal(cutText(entry.correlationId.replace(/[\r\n]/g, ' '), 20)));
  if (entry.detail !== null && entry.detail !== '') parts.push(escapeUserText(entry.detail, 60));
  return parts.join(' · ');
}

function button(customId: string, label: string, disabled: boolean): APIButtonComponent {
  return { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: customId, label, disabled };
}

/**
 * "Matches 21–30 of 545", counted from the newest; past the count's cap "of more than 10,000", and on a
 * page counted from the oldest end, whose place from the newest is then unknown, from the oldest.
 */
function footer(page: AuditPage, t: Translator): string {
  const { rows, offset, total } = page;
  if (!page.capped) {
    // The count is exact: a page from the oldest end has its place from the newest too.
    const last = page.from === 'newest' ? offset + rows.length : Math.max(rows.length, total - offset);
    return t('audit.footer', {
      first: figure(last - rows.length + 1),
      last: figure(last),
      total: figure(total),
    });
  }
  const numbers = {
    first: figure(offset + 1),
    last: figure(offset + rows.length),
    total: figure(total),
  };
  return t(page.from === 'newest' ? 'audit.footer_more' : 'audit.footer_oldest_more', numbers);
}

/**
 * One page of matches as an embed, with Newest/Newer/Older/Oldest buttons (disabled at either end: Older
 * and Oldest only when no older match is left, so no button leads to an empty page); /audit answers only
 * the invoker, so `t` is their language.
 */
export function renderAuditPage(page: AuditPage, t: Translator): ReplyBody {
  const words = describeAuditFilter(page.filter, t);
  const note = page.exportNote === undefined ? '' : `\n\n${page.exportNote}`;
  if (page.rows.length === 0) {
    const hint =
      page.filter.target !== undefined && searchesWholeTarget(page.filter.target)
        ? `\n\n${t('audit.whole_target_hint', { min: figure(TARGET_SUBSTRING_MIN) })}`
        : '';
    const embed: APIEmbed = {
      title: t('audit.title'),
      color: Colour.neutral,
      description: cutText(`${t('audit.no_match', { filter: words })}${hint}${note}`, DESCRIPTION_LIMIT),
    };
    return { embeds: [embed], components: [] };
  }
  const lines = page.rows.map(renderAuditLine).join('\n');
  const embed: APIEmbed = {
    title: t('audit.title'),
    color: Colour.info,
    description: cutText(`${t('audit.entries', { filter: words })}\n\n${lines}${note}`, DESCRIPTION_LIMIT),
    footer: { text: footer(page, t) },
  };
  // Towards the end a page counts from there is no page before offset 0; the other way, none when
  // nothing lies past this page.
  const newestEnd = page.from === 'newest' ? page.offset === 0 : !page.more;
  const oldestEnd = page.from === 'oldest' ? page.offset === 0 : !page.more;
  const row: APIActionRowComponent<APIButtonComponent> = {
    type: ComponentType.ActionRow,
    components: [
      button(page.newestId, t('audit.newest'), newestEnd),
      button(page.newerId, t('audit.newer'), newestEnd),
      button(page.olderId, t('audit.older'), oldestEnd),
      button(page.oldestId, t('audit.oldest'), oldestEnd),
    ],
  };
  return { embeds: [embed], components: [row] };
}
