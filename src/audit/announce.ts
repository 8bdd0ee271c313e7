import { userMention } from 'discord.js';
import type { BotMessages } from '../discord/ChangeFlow.js';
import { escapeUserText } from '../discord/render/escapeUserText.js';
import type { AuditEvent } from './AuditTrail.js';
import { OUTCOME_MARK } from './renderAudit.js';

/** One compact line: outcome, command, target, who, reference. */
export function auditLine(event: AuditEvent): string {
  const command = `/${event.command}${event.subcommand ? ` ${event.subcommand}` : ''}`;
  const target = event.target ? ` · ${escapeUserText(event.target, 200)}` : '';
  const detail = event.detail ? ` (${escapeUserText(event.detail, 60)})` : '';
  const who = `${userMention(event.userId)} (${escapeUserText(event.userName, 40)})`;
  return `${OUTCOME_MARK[event.outcome] ?? '•'} **${event.outcome}**${detail} · \`${command}\`${target} · by ${who} · ref \`${event.correlationId}\``;
}

/** Posts the line in the audit channel, as the bot, pinging nobody (not even the user named). */
export async function announce(messages: BotMessages, channelId: string, event: AuditEvent): Promise<void> {
  await messages.post(channelId, { content: auditLine(event) });
}
