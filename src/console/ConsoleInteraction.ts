import { randomInt } from 'node:crypto';
import { ApplicationCommandOptionType, type Interaction, MessageFlags } from 'discord.js';
import type { Locale } from '../i18n/locales.js';
import type { ParsedCommand, ParsedOption } from './parseCommandLine.js';

/**
 * Plain objects standing in for discord.js interactions: exactly the part of their API the router,
 * the change flow, Answers and the command modules use. What would go to Discord is recorded and
 * handed to a listener instead. The casts to discord.js types live in this file only.
 */

/** Who is typing, as the gates see them. */
export interface ConsoleActor {
  userId: string;
  username: string;
  roleIds: readonly string[];
  guildId: string;
  channelId: string;
  /** The language of the terminal (LANG …), sent as a Discord client sends its own. */
  locale: Locale;
}

/** What a Discord client of each language puts in `interaction.locale`. */
const DISCORD_LOCALE: Record<Locale, string> = { en: 'en-US', de: 'de' };

/** `post`: a bot message of its own in a channel (a watch digest), not a response to an interaction. */
export type SentKind = 'reply' | 'deferReply' | 'editReply' | 'followUp' | 'update' | 'showModal' | 'post';

/** One response the interaction would have sent to Discord, or a message the bot would have posted. */
export interface Sent {
  kind: SentKind;
  /** The message body (content, embeds, components, files) or, for showModal, the form's data. */
  body: Record<string, unknown>;
  /** Only the invoker would have seen it. */
  ephemeral: boolean;
  /** The interaction it belongs to (a post: the one in progress when it was posted). */
  interactionId: string;
}

export type SentListener = (sent: Sent) => void;

// Discord's epoch; ids look like snowflakes and never repeat across runs (interaction claims are unique).
const DISCORD_EPOCH = 1_420_070_400_000n;
let sequence = 0n;

export function snowflake(): string {
  sequence = (sequence + 1n) & 0xfffn;
  const time = BigInt(Date.now()) - DISCORD_EPOCH;
  return ((time << 22n) | (BigInt(randomInt(0, 1024)) << 12n) | sequence).toString();
}

class AlreadyAcknowledged extends Error {
  override readonly name = 'InteractionAlreadyReplied';
}
class NotAcknowledged extends Error {
  override readonly name = 'InteractionNotReplied';
}

abstract class ConsoleInteractionBase {
  readonly id = snowflake();
  readonly applicationId = '0';
  readonly user: { id: string; username: string; bot: false; globalName: string };
  readonly member: { roles: string[]; user: { id: string; username: string } };
  readonly guildId: string;
  readonly channelId: string;
  readonly authorizingIntegrationOwners: { guildId: string; '0': string };
  readonly locale: string;
  readonly guildLocale: string;
  readonly createdTimestamp = Date.now();
  deferred = false;
  replied = false;
  ephemeral: boolean | null = null;
  readonly #listener: SentListener;

  constructor(actor: ConsoleActor, listener: SentListener) {
    this.user = { id: actor.userId, username: actor.username, bot: false, globalName: actor.username };
    this.member = { roles: [...actor.roleIds], user: { id: actor.userId, username: actor.username } };
    this.guildId = actor.guildId;
    this.channelId = actor.channelId;
    this.authorizingIntegrationOwners = { guildId: actor.guildId, '0': actor.guildId };
    this.locale = DISCORD_LOCALE[actor.locale];
    this.guildLocale = this.locale;
    this.#listener = listener;
  }

  get createdAt(): Date {
    return new Date(this.createdTimestamp);
  }

  inGuild(): boolean {
    return true;
  }
  inCachedGuild(): boolean {
    return false;
  }
  inRawGuild(): boolean {
    return true;
  }
  isChatInputCommand(): boolean {
    return false;
  }
  isCommand(): boolean {
    return false;
  }
  isButton(): boolean {
    return false;
  }
  isMessageComponent(): boolean {
    return false;
  }
  isModalSubmit(): boolean {
    return false;
  }
  isAutocomplete(): boolean {
    return false;
  }
  isRepliable(): boolean {
    return true;
  }

  protected record(kind: SentKind, body: unknown): void {
    const data = (body ?? {}) as Record<string, unknown>;
    const flags = typeof data.flags === 'number' ? data.flags : 0;
    const ephemeral = (flags & MessageFlags.Ephemeral) !== 0 || data.ephemeral === true;
    this.#listener({ kind, body: data, ephemeral, interactionId: this.id });
  }

  async reply(body: unknown): Promise<undefined> {
    if (this.deferred || this.replied)
      throw new AlreadyAcknowledged('The reply to this interaction has already been sent or deferred.');
    this.replied = true;
    this.record('reply', body);
    this.ephemeral = lastEphemeral(body);
    return undefined;
  }

  async deferReply(options?: unknown): Promise<undefined> {
    if (this.deferred || this.replied)
      throw new AlreadyAcknowledged('The reply to this interaction has already been sent or deferred.');
    this.deferred = true;
    this.ephemeral = lastEphemeral(options);
    this.record('deferReply', options ?? {});
    return undefined;
  }

  async editReply(body: unknown): Promise<undefined> {
    if (!this.deferred && !this.replied)
      throw new NotAcknowledged('The reply to this interaction has not been sent or deferred.');
    this.record('editReply', withFlags(body, this.ephemeral));
    return undefined;
  }

  async followUp(body: unknown): Promise<undefined> {
    if (!this.deferred && !this.replied)
      throw new NotAcknowledged('The reply to this interaction has not been sent or deferred.');
    this.record('followUp', body);
    return undefined;
  }

  async deleteReply(): Promise<void> {}
  async fetchReply(): Promise<undefined> {
    return undefined;
  }

  async showModal(data: unknown): Promise<void> {
    if (this.deferred || this.replied)
      throw new AlreadyAcknowledged('The reply to this interaction has already been sent or deferred.');
    this.replied = true;
    const body = (data as { toJSON?: () => unknown }).toJSON?.() ?? data;
    this.record('showModal', body);
  }
}

function lastEphemeral(body: unknown): boolean {
  const flags = (body as { flags?: unknown } | undefined)?.flags;
  return typeof flags === 'number' && (flags & MessageFlags.Ephemeral) !== 0;
}

/** An edit keeps the visibility of the message it edits. */
function withFlags(body: unknown, ephemeral: boolean | null): unknown {
  if (!ephemeral || typeof body !== 'object' || body === null) return body;
  const flags = (body as { flags?: number }).flags ?? 0;
  return { ...body, flags: flags | MessageFlags.Ephemeral };
}

const TYPE_NAMES: Partial<Record<ApplicationCommandOptionType, string>> = {
  [ApplicationCommandOptionType.String]: 'STRING',
  [ApplicationCommandOptionType.Integer]: 'INTEGER',
  [ApplicationCommandOptionType.Boolean]: 'BOOLEAN',
  [ApplicationCommandOptionType.Number]: 'NUMBER',
  [ApplicationCommandOptionType.User]: 'USER',
  [ApplicationCommandOptionType.Attachment]: 'ATTACHMENT',
};

/** The subset of CommandInteractionOptionResolver the commands use, over parsed console input. */
export class ConsoleOptions {
  readonly #command: ParsedCommand;
  readonly data: ParsedOption[];

  constructor(command: ParsedCommand) {
    this.#command = command;
    this.data = command.options;
  }

  get(name: string, required = false): (ParsedOption & { user?: undefined }) | null {
    const option = this.#command.options.find((o) => o.name === name) ?? null;
    if (!option && required) throw new TypeError(`Required option "${name}" not found.`);
    return option;
  }

  #typed(name: string, types: ApplicationCommandOptionType[], required: boolean): ParsedOption | null {
    const option = this.get(name, required);
    if (option && !types.includes(option.type)) {
      throw new TypeError(
        `Option "${name}" is of type: ${TYPE_NAMES[option.type] ?? option.type}; expected ${types.map((t) => TYPE_NAMES[t]).join(', ')}.`,
      );
    }
    return option;
  }

  getString(name: string, required = false): string | null {
    const option = this.#typed(name, [ApplicationCommandOptionType.String], required);
    return option ? String(option.value) : null;
  }
  getInteger(name: string, required = false): number | null {
    const option = this.#typed(name, [ApplicationCommandOptionType.Integer], required);
    return option ? Number(option.value) : null;
  }
  getNumber(name: string, required = false): number | null {
    const option = this.#typed(name, [ApplicationCommandOptionType.Number], required);
    return option ? Number(option.value) : null;
  }
  getBoolean(name: string, required = false): boolean | null {
    const option = this.#typed(name, [ApplicationCommandOptionType.Boolean], required);
    return option ? Boolean(option.value) : null;
  }
  /** Files cannot be attached in a terminal (the command line refuses a value for them). */
  getAttachment(name: string, required = false): null {
    if (required) throw new TypeError(`Required option "${name}" not found.`);
    return null;
  }
  getUser(name: string, required = false): null {
    if (required) throw new TypeError(`Required option "${name}" not found.`);
    return null;
  }
  getSubcommand(required = true): string | null {
    if (required && !this.#command.subcommand) throw new TypeError('A subcommand was not selected.');
    return this.#command.subcommand;
  }
  getSubcommandGroup(required = false): string | null {
    if (required && !this.#command.group) throw new TypeError('A subcommand group was not selected.');
    return this.#command.group;
  }
}

class ConsoleChatInput extends ConsoleInteractionBase {
  readonly type = 2;
  readonly commandName: string;
  readonly commandType = 1;
  readonly options: ConsoleOptions;

  constructor(actor: ConsoleActor, listener: SentListener, command: ParsedCommand) {
    super(actor, listener);
    this.commandName = command.commandName;
    this.options = new ConsoleOptions(command);
  }
  override isChatInputCommand(): boolean {
    return true;
  }
  override isCommand(): boolean {
    return true;
  }
}

class ConsoleButton extends ConsoleInteractionBase {
  readonly type = 3;
  readonly componentType = 2;
  readonly customId: string;
  /** The message the button is on: only whether it is ephemeral (`message.flags.has('Ephemeral')`). */
  readonly message: { flags: { has(flag: unknown): boolean } };
  readonly #onEphemeral: boolean;

  constructor(actor: ConsoleActor, listener: SentListener, customId: string, ephemeral: boolean) {
    super(actor, listener);
    this.customId = customId;
    this.#onEphemeral = ephemeral;
    this.message = {
      flags: {
        has: (flag: unknown) => ephemeral && (flag === 'Ephemeral' || flag === MessageFlags.Ephemeral),
      },
    };
  }
  override isButton(): boolean {
    return true;
  }
  override isMessageComponent(): boolean {
    return true;
  }
  async update(body: unknown): Promise<undefined> {
    if (this.deferred || this.replied)
      throw new AlreadyAcknowledged('The reply to this interaction has already been sent or deferred.');
    this.replied = true;
    // Updating the message keeps its visibility: a prompt stays the invoker's, a page in the channel public.
    this.ephemeral = this.#onEphemeral;
    this.record('update', withFlags(body, this.#onEphemeral));
    return undefined;
  }
  async deferUpdate(): Promise<undefined> {
    this.deferred = true;
    return undefined;
  }
}

class ConsoleModalSubmit extends ConsoleInteractionBase {
  readonly type = 5;
  readonly customId: string;
  readonly fields: { getTextInputValue(id: string): string; getField(id: string): { value: string } };

  constructor(actor: ConsoleActor, listener: SentListener, customId: string, values: Record<string, string>) {
    super(actor, listener);
    this.customId = customId;
    const field = (id: string) => {
      const value = values[id];
      if (value === undefined) throw new TypeError(`No field with the id "${id}" was found.`);
      return { value };
    };
    // As discord.js reads a submit: by field (a text input's or a radio group's value), or as text.
    this.fields = { getField: field, getTextInputValue: (id) => field(id).value };
  }
  override isModalSubmit(): boolean {
    return true;
  }
}

/** A slash command, as the router receives it. */
export function chatInputInteraction(
  actor: ConsoleActor,
  listener: SentListener,
  command: ParsedCommand,
): Interaction {
  return new ConsoleChatInput(actor, listener, command) as unknown as Interaction;
}

/**
 * A button press on one of the answers (Confirm, Cancel, paging …); `ephemeral`: whether the message
 * it is on was one only the invoker saw (change prompts are).
 */
export function buttonInteraction(
  actor: ConsoleActor,
  listener: SentListener,
  customId: string,
  ephemeral = true,
): Interaction {
  return new ConsoleButton(actor, listener, customId, ephemeral) as unknown as Interaction;
}

/** A submitted form: its values by field id. */
export function modalSubmitInteraction(
  actor: ConsoleActor,
  listener: SentListener,
  customId: string,
  values: Record<string, string>,
): Interaction {
  return new ConsoleModalSubmit(actor, listener, customId, values) as unknown as Interaction;
}
