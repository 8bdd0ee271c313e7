import { userMention } from 'discord.js';
import type { Translator } from '../i18n/Translator.js';
import { escapeUserText } from '../replies/escapeUserText.js';
import type { BotMessages } from '../replies/ReplyBody.js';
import { commandLabel } from '../text/commandLabel.js';
import { isConsoleActor } from '../text/consoleActor.js';
import type { AuditEvent } from './AuditTrail.js';
import { outcomeMark } from './outcomes.js';

/**
 * One compact line: outcome, command, target, who, reference. The audit channel is public: `t` is
 * BOT_LOCALE's. The outcome stays as stored (the value /audit's `outcome` option filters by).
 */
export function auditLine(event: AuditEvent, t: Translator): string {
  return t('audit.line', {
    mark: outcomeMark(event.outcome),
    outcome: event.outcome,
    detail: event.detail ? ` (${escapeUserText(event.detail, 60)})` : '',
    command: commandLabel(event.command, event.subcommand),
    target: event.target ? ` · ${escapeUserText(event.target, 200)}` : '',
    // A console actor's id is made up: Discord would show it as an unknown user, so its name alone.
    who: isConsoleActor(event.userId, event.userName)
      ? escapeUserText(event.userName, 40)
      : `${userMention(event.userId)} (${escapeUserText(event.userName, 40)})`,
    reference: event.correlationId,
  });
}

/**
 * Posts the line in the audit channel, as the bot, pinging nobody (not even the user named), in the
 * channel's language: pass `translator(config.botLocale)`.
 */
export async function announce(
  messages: BotMessages,
  channelId: string,
  event: AuditEvent,
  t: Translator,
): Promise<void> {
  await messages.post(channelId, { content: auditLine(event, t) });
}
