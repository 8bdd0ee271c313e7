import { userMention } from 'discord.js';
import type { Translator } from '../i18n/Translator.js';
import { actorMention } from '../replies/actorMention.js';
import { escapeUserText } from '../replies/escapeUserText.js';
import type { BotMessages } from '../replies/ReplyBody.js';
import type { NewAuditEntry, PostKind } from '../store/index.js';
import { commandLabel } from '../text/commandLabel.js';
import { isConsoleActor } from '../text/consoleActor.js';
import { outcomeMark } from './outcomes.js';

/**
 * One compact line: outcome, command, target, who, reference. The audit channel is public: `t` is
 * BOT_LOCALE's. The outcome stays as stored (the value /audit's `outcome` option filters by).
 */
export function auditLine(event: NewAuditEntry, t: Translator): string {
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
 * What the sweep tells a change's channel when it ended a change whose sending replica is gone: its
 * prompt still says "Sending…" and only that replica could have edited it, so the channel is told,
 * naming the requester, so that nobody sends it again blindly. From the end's audit row.
 */
export function orphanNotice(entry: NewAuditEntry, t: Translator): string {
  const words = {
    requester: actorMention(entry.userId, entry.userName),
    command: commandLabel(entry.command, entry.subcommand),
    target: entry.target ?? '',
    reference: t('errors.reference', { id: entry.correlationId }),
  };
  return t(entry.outcome === 'unknown' ? 'changes.orphan.unknown' : 'changes.orphan.not_sent', words);
}

/** The messages an audit row can owe Discord (OwedPost), as the bot posts them. */
export interface ChannelPosts {
  /** Whether a change's end owes the audit channel its line: there is one (AUDIT_CHANNEL_ID), or may be. */
  readonly lines: boolean;
  /** Whether this process posts what the store owes Discord (OwedPosts); if not, a bot's sweep does. */
  readonly takes: boolean;
  /** Posts it; with a nonce, Discord creates it once however often it is posted (within its window). */
  post(kind: PostKind, entry: NewAuditEntry, nonce?: string): Promise<void>;
}

/**
 * Lines go to the audit channel, notices to the audit row's own channel, as the bot, pinging nobody
 * (not even the user named), in the channel's language: pass `translator(config.botLocale)`.
 */
export function channelPosts(
  messages: BotMessages,
  auditChannelId: string | undefined,
  t: Translator,
): ChannelPosts {
  return {
    lines: auditChannelId !== undefined,
    takes: true,
    async post(kind, entry, nonce) {
      const channelId = kind === 'line' ? auditChannelId : entry.channelId;
      if (!channelId) return;
      const content = kind === 'line' ? auditLine(entry, t) : orphanNotice(entry, t);
      await messages.post(channelId, {
        content,
        ...(nonce === undefined ? {} : { nonce, enforce_nonce: true }),
      });
    },
  };
}

/**
 * A console's: what it would post reaches only its terminal, so the line of every change it ends is left
 * owed in the store (never taken here), for a bot replica's sweep to post to its audit channel a lease
 * later; a bot without an audit channel drops it there. It posts nothing itself.
 */
export function leftToBots(): ChannelPosts {
  return { lines: true, takes: false, post: async () => {} };
}
