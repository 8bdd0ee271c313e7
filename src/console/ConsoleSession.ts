import { commands as allCommands } from '../../commands/index.js';
import type { CommandOutcome } from '../audit/outcomes.js';
import type { Config } from '../config.js';
import type { RouterObserver } from '../discord/Answers.js';
import type { CommandModule } from '../discord/CommandModule.js';
import { customId } from '../discord/customId.js';
import type { Locale } from '../i18n/locales.js';
import { message, type Translator, translator } from '../i18n/Translator.js';
import type { Logger, SecretRegistry } from '../logger.js';
import type { BotMessages } from '../replies/ReplyBody.js';
import { createRuntime, type Runtime } from '../runtime/createRuntime.js';
import { consoleActor } from '../text/consoleActor.js';
import { InvalidValueError } from '../validation/InvalidValueError.js';
import { type ParsedDomain, parseDomain } from '../validation/parseDomain.js';
import { CommandLineError } from './CommandLineError.js';
import {
  buttonInteraction,
  type ConsoleActor,
  chatInputInteraction,
  modalSubmitInteraction,
  type Sent,
  snowflake,
} from './ConsoleInteraction.js';
import {
  CONSOLE_CHANNEL_ID,
  CONSOLE_GUILD_ID,
  CONSOLE_ROLE_IDS,
  type ConsoleTier,
  isConsoleTier,
} from './consoleConfig.js';
import { parseCommandLine } from './parseCommandLine.js';

/** One exchange with the router: what it sent back, and how the command ended (if it did). */
export interface Exchange {
  sent: Sent[];
  outcome: CommandOutcome | undefined;
  /** The answer's data (the last one given, e.g. a change's outcome after its prompt), for --json. */
  data: object | undefined;
}

/** A message as it ends up: replies edited in place, follow-ups and posts as messages of their own. */
export interface FinalMessage {
  key: string;
  body: Record<string, unknown>;
}

export interface SessionOptions {
  config: Config;
  /** A tier (its console role), or a Discord user id to act as with `roles` alone (to try grants). */
  as: ConsoleTier | string;
  /** Role ids the console user holds besides the tier's (`--roles`). */
  roles?: readonly string[];
  logger: Logger;
  secrets: SecretRegistry;
  osUser: string;
  commands?: readonly CommandModule[];
  /** The terminal's language (default English). */
  locale?: Locale;
}

/**
 * A console session: the shared runtime (src/runtime/createRuntime.ts) with a terminal where Discord
 * would be. Every line becomes an interaction object handed to the router; what the bot would post in
 * a channel (a watch digest) arrives as a `post` of the exchange in progress.
 */
export class ConsoleSession {
  readonly actor: ConsoleActor;
  readonly commands: readonly CommandModule[];
  readonly config: Config;
  readonly runtime: Runtime;
  /** The terminal's language: what the console user's "client" speaks. */
  readonly t: Translator;
  /** Called for every response, as it is sent (interactive mode prints it); `late`: after its exchange. */
  onSent: ((sent: Sent, late: boolean) => void) | undefined;
  #current: Exchange | undefined;
  /** The interaction being handled: a post made meanwhile belongs to its exchange. */
  #currentId = '';
  readonly #active = new Set<string>();
  /** The message each interaction's replies edit (a button edits the message it is on). */
  readonly #messageOf = new Map<string, string>();

  private constructor(runtime: Runtime, actor: ConsoleActor, commands: readonly CommandModule[]) {
    this.runtime = runtime;
    this.actor = actor;
    this.config = runtime.config;
    this.commands = commands;
    this.t = translator(actor.locale);
  }

  static async open(options: SessionOptions): Promise<ConsoleSession> {
    let session: ConsoleSession | undefined;
    const observer: RouterObserver = {
      acknowledged: () => {},
      finished: (_command, outcome) => session?.noteOutcome(outcome),
      answered: (interactionId, data) => session?.noteData(interactionId, data),
    };
    // What the bot would post in a channel is shown in the terminal.
    const messages: BotMessages = {
      post: async (_channelId, body) => {
        session?.posted(body as Record<string, unknown>);
        return snowflake();
      },
      edit: async (_channelId, _messageId, body) => {
        session?.posted(body as Record<string, unknown>);
      },
    };
    const commands = options.commands ?? allCommands;
    const runtime = await createRuntime({
      face: 'console',
      config: options.config,
      logger: options.logger,
      secrets: options.secrets,
      messages,
      // The watch needs no WATCH_CHANNEL_ID here: its digest goes to the terminal.
      watchChannelId: CONSOLE_CHANNEL_ID,
      observer,
      commands,
    });
    const tier = isConsoleTier(options.as) ? options.as : undefined;
    const actor: ConsoleActor = {
      // Acting as a Discord user: their id, so the grants of that user (and of `roles`) decide.
      userId: tier ? consoleActor(options.osUser).id : options.as,
      username: consoleActor(options.osUser).name,
      roleIds: [...(tier ? [CONSOLE_ROLE_IDS[tier]] : []), ...(options.roles ?? [])],
      guildId: CONSOLE_GUILD_ID,
      channelId: CONSOLE_CHANNEL_ID,
      locale: options.locale ?? 'en',
    };
    session = new ConsoleSession(runtime, actor, commands);
    return session;
  }

  #listener = (sent: Sent) => {
    const active = this.#active.has(sent.interactionId);
    if (active) this.#current?.sent.push(sent);
    this.onSent?.(sent, !active);
  };

  /** An answer's data, for the exchange whose interaction it answered. */
  noteData(interactionId: string, data: object): void {
    if (this.#current && this.#active.has(interactionId)) this.#current.data = data;
  }

  /** How the command in progress ended (from the router's observer). */
  noteOutcome(outcome: CommandOutcome): void {
    if (this.#current) this.#current.outcome = outcome;
  }

  /** A message the bot posted in a channel (a watch digest): part of the exchange in progress, if any. */
  posted(body: Record<string, unknown>): void {
    this.#listener({ kind: 'post', body, ephemeral: false, interactionId: this.#currentId });
  }

  async #dispatch(interaction: ReturnType<typeof chatInputInteraction>, message?: string): Promise<Exchange> {
    const exchange: Exchange = { sent: [], outcome: undefined, data: undefined };
    this.#current = exchange;
    this.#currentId = interaction.id;
    this.#active.add(interaction.id);
    this.#messageOf.set(interaction.id, message ?? `${interaction.id}:original`);
    try {
      await this.runtime.router.handle(interaction);
    } finally {
      this.#active.delete(interaction.id);
      if (this.#current === exchange) {
        this.#current = undefined;
        this.#currentId = '';
      }
    }
    return exchange;
  }

  /** Runs a parsed slash command. Throws CommandLineError for what cannot be parsed. */
  run(line: string): Promise<Exchange> {
    const parsed = parseCommandLine(
      line,
      this.commands.map((c) => c.definition),
      this.actor.locale,
    );
    return this.#dispatch(chatInputInteraction(this.actor, this.#listener, parsed));
  }

  /**
   * Presses a button of an earlier answer; its updates edit the message it was on. `ephemeral`: whether
   * that message was only the invoker's (a change prompt is).
   */
  press(customId: string, onMessage?: string, ephemeral = true): Promise<Exchange> {
    return this.#dispatch(buttonInteraction(this.actor, this.#listener, customId, ephemeral), onMessage);
  }

  /**
   * Revert on the public record of the domain's last DNS change, pressed here: an ordinary prompt for the
   * set sent before it (difference, Confirm, approval, journal, audit), under the same gates. Undefined
   * when no set was sent for the domain through HostOps. Throws CommandLineError for a malformed name.
   */
  async revertLast(domain: string): Promise<Exchange | undefined> {
    let name: ParsedDomain;
    try {
      name = parseDomain(domain);
    } catch (error) {
      if (!(error instanceof InvalidValueError)) throw error;
      throw new CommandLineError(
        message('console.line.option', { option: '--revert', problem: error.problem }),
      );
    }
    const last = await this.runtime.store.dnsSets.latest(name.ascii);
    if (!last) return undefined;
    // The public record is in the channel: not the invoker's alone.
    return this.press(customId('revert', last.changeId), undefined, false);
  }

  submitModal(customId: string, values: Record<string, string>): Promise<Exchange> {
    return this.#dispatch(modalSubmitInteraction(this.actor, this.#listener, customId, values));
  }

  /** The message a response shows in: replies and edits share one, follow-ups and posts are new. */
  messageKey(sent: Sent, index: number): string {
    if (sent.kind === 'followUp') return `${sent.interactionId}:followup:${index}`;
    if (sent.kind === 'post') return `post:${index}`;
    return this.#messageOf.get(sent.interactionId) ?? `${sent.interactionId}:original`;
  }

  /** Each message in its last state, in the order they first appeared. */
  finalMessages(sent: readonly Sent[]): FinalMessage[] {
    const messages = new Map<string, FinalMessage>();
    sent.forEach((item, index) => {
      if (item.kind === 'deferReply' || item.kind === 'showModal') return;
      const key = this.messageKey(item, index);
      const existing = messages.get(key);
      if (existing) existing.body = item.body;
      else messages.set(key, { key, body: item.body });
    });
    return [...messages.values()];
  }

  async close(): Promise<void> {
    const drained = await this.runtime.drain(5_000);
    await this.runtime.close(drained);
  }
}
