import type { APIActionRowComponent, APIButtonComponent, APIEmbed } from 'discord.js';
import type { Locale } from '../i18n/locales.js';

/** What a handler may send back; mentions are always disabled by the client. */
export interface ReplyBody {
  content?: string;
  embeds?: APIEmbed[];
  /** Buttons (e.g. paging); a custom id `hostops:<action>:<args>` reaches the command's `components`. */
  components?: APIActionRowComponent<APIButtonComponent>[];
}

/** A message the bot posts itself (not an interaction answer). */
export interface MessageBody extends ReplyBody {
  /** Default: nobody. */
  allowed_mentions?: { parse: []; roles?: string[] };
  /**
   * Up to 25 characters; with `enforce_nonce`, Discord returns the message this bot already created with
   * it (within a few minutes) instead of creating a second one.
   */
  nonce?: string;
  enforce_nonce?: boolean;
}

/** Posting and editing messages as the bot, in any channel it can see. */
export interface BotMessages {
  post(channelId: string, body: MessageBody): Promise<string>;
  edit(channelId: string, messageId: string, body: MessageBody): Promise<void>;
}

export interface PreviewField {
  name: string;
  value: string;
  inline?: boolean;
}

/** A text file attached to an answer or a prompt, for what a field cannot hold in full. */
export interface PreviewFile {
  name: string;
  content: string;
}

/** What the prompt shows: exactly what will be sent. */
export interface ChangePreview {
  /** Short title, e.g. "Set reverse DNS". */
  title: string;
  /** One field per parameter (already escaped). */
  fields: PreviewField[];
  /** Attached when the fields cannot show everything; the fields say so. */
  files?: PreviewFile[];
}

/**
 * A change's preview in every language HostOps speaks, made once with the change: the record keeps it,
 * so its prompt, approval request and outcomes are shown in whoever's language without asking the
 * command again.
 */
export type LocalizedPreview = { readonly [L in Locale]: ChangePreview };
