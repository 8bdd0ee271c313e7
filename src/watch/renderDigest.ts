import { type APIEmbed, roleMention } from 'discord.js';
import type { MessageKey, Translator } from '../i18n/Translator.js';
import { Colour } from '../replies/colours.js';
import { escapeUserText } from '../replies/escapeUserText.js';
import type { Alert, FlagName } from './alertRules.js';
import { calendarDate, counted } from './formatDate.js';
import { registryAlertLine, registryRank } from './registryAlertLine.js';

/** Discord's limits, with a little room to spare. */
const DESCRIPTION_LIMIT = 4000;
const EMBEDS_PER_MESSAGE = 10;
const MESSAGE_EMBED_BUDGET = 5800;

export interface DigestMessage {
  content?: string;
  embeds: APIEmbed[];
  allowed_mentions: { parse: []; roles: string[] };
}

type FlagWord = Extract<MessageKey, `watch.flag.${string}`>;

const FLAG_WORDS: Record<FlagName, [FlagWord, FlagWord]> = {
  active: ['watch.flag.active', 'watch.flag.inactive'],
  expired: ['watch.flag.not_expired', 'watch.flag.expired'],
  transferredAway: ['watch.flag.with_us', 'watch.flag.transferred_away'],
};

function name(alert: Alert): string {
  const shown = alert.unicode === alert.domain ? alert.domain : `${alert.unicode} (${alert.domain})`;
  return `**${escapeUserText(shown, 200)}**`;
}

function days(n: number, t: Translator): string {
  if (n < 0) return t('watch.alert.expired_ago', counted(t, -n));
  if (n === 0) return t('watch.alert.expires_today');
  return t('watch.alert.expires_in', counted(t, n));
}

/**
 * One line per alert: what happened, in words an on-call person reads at a glance. The digest is
 * public: `t` is the channel's language (BOT_LOCALE).
 */
export function alertLine(alert: Alert, t: Translator): string {
  switch (alert.kind) {
    case 'expiry':
      return t('watch.alert.expiry', {
        ...counted(t, alert.threshold),
        name: name(alert),
        when: days(alert.daysLeft, t),
        date: calendarDate(alert.expiryDate, t),
      });
    case 'renewed':
      return t('watch.alert.renewed', {
        name: name(alert),
        from: calendarDate(alert.from, t),
        to: calendarDate(alert.to, t),
      });
    case 'flag': {
      const [off, on] = FLAG_WORDS[alert.flag];
      const word = (value: boolean) => t(value ? on : off);
      // Flags read naturally: "inactive" is active = false.
      const now = alert.flag === 'active' ? word(!alert.to) : word(alert.to);
      const before = alert.flag === 'active' ? word(!alert.from) : word(alert.from);
      return t('watch.alert.flag', { mark: alert.bad ? '🚩' : 'ℹ️', name: name(alert), now, before });
    }
    case 'not_found':
      return t('watch.alert.not_found', { name: name(alert) });
    case 'known_again':
      return t('watch.alert.known_again', { name: name(alert) });
    case 'failing':
      return t('watch.alert.failing', {
        ...counted(t, alert.failures),
        name: name(alert),
        reason: escapeUserText(t.render(alert.reason), 80),
      });
    default:
      return registryAlertLine(alert, name(alert), t);
  }
}

// Most urgent first: what is about to be lost, then what broke, then information.
function rank(alert: Alert): number {
  switch (alert.kind) {
    case 'expiry':
      return 0;
    case 'flag':
      return alert.bad ? 1 : 4;
    case 'not_found':
      return 2;
    case 'failing':
      return 3;
    case 'renewed':
      return 4;
    case 'known_again':
      return 5;
    default:
      return registryRank(alert);
  }
}

/**
 * One digest per run, in as few messages as Discord's limits allow (a description holds 4,096
 * characters, a message 6,000 across at most 10 embeds). Only the first message pings, and only the
 * configured roles: allowed_mentions names them and nobody else.
 */
export function renderDigest(
  alerts: readonly Alert[],
  mentionRoleIds: readonly string[],
  t: Translator,
): DigestMessage[] {
  if (alerts.length === 0) return [];
  const sorted = [...alerts].sort(
    (a, b) =>
      rank(a) - rank(b) ||
      (a.kind === 'expiry' && b.kind === 'expiry' ? a.daysLeft - b.daysLeft : 0) ||
      (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0),
  );
  const urgent = sorted.some((a) => rank(a) < 4);
  const title = t('watch.digest.title', counted(t, alerts.length));
  const continued = t('watch.digest.continued', { title });
  const color = urgent ? Colour.danger : Colour.info;

  const messages: APIEmbed[][] = [];
  let embeds: APIEmbed[] = [];
  let lines: string[] = [];
  let embedLength = 0;
  let messageLength = 0;
  const embedTitle = () => (messages.length === 0 && embeds.length === 0 ? title : continued);
  const closeEmbed = () => {
    if (lines.length === 0) return;
    embeds.push({ title: embedTitle(), color, description: lines.join('\n') });
    lines = [];
    embedLength = 0;
  };
  const closeMessage = () => {
    closeEmbed();
    if (embeds.length > 0) messages.push(embeds);
    embeds = [];
    messageLength = 0;
  };
  for (const line of sorted.map((alert) => alertLine(alert, t))) {
    const titleCost = lines.length === 0 ? embedTitle().length : 0;
    if (messageLength + titleCost + line.length + 1 > MESSAGE_EMBED_BUDGET) closeMessage();
    else if (embedLength + line.length + 1 > DESCRIPTION_LIMIT) {
      closeEmbed();
      if (embeds.length === EMBEDS_PER_MESSAGE) closeMessage();
    }
    if (lines.length === 0) messageLength += embedTitle().length;
    lines.push(line);
    embedLength += line.length + 1;
    messageLength += line.length + 1;
  }
  closeMessage();

  return messages.map((message, index) =>
    index === 0 && mentionRoleIds.length > 0
      ? {
          content: mentionRoleIds.map(roleMention).join(' '),
          embeds: message,
          allowed_mentions: { parse: [], roles: [...mentionRoleIds] },
        }
      : { embeds: message, allowed_mentions: { parse: [], roles: [] } },
  );
}
