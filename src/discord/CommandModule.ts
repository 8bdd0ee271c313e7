import {
  type ApplicationCommandOptionType,
  ApplicationIntegrationType,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  InteractionContextType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { Config } from '../config.js';
import type { HostingClient } from '../hosting/HostingClient.js';
import type { ChangeOperation } from '../hosting/operations.js';
import type { Locale } from '../i18n/locales.js';
import type { Translator } from '../i18n/Translator.js';
import type { Logger, SecretRegistry } from '../logger.js';
import type { ChangePreview, PreviewFile, ReplyBody } from '../replies/ReplyBody.js';
import type { ChangeRecord, Store } from '../store/index.js';
import type { DomainWatch } from '../watch/DomainWatch.js';
import type { Tier } from './access.js';

/** Spread into every definition: guild installs only, never DMs or user installs. */
export const GUILD_ONLY: Required<
  Pick<RESTPostAPIChatInputApplicationCommandsJSONBody, 'contexts' | 'integration_types'>
> = {
  contexts: [InteractionContextType.Guild],
  integration_types: [ApplicationIntegrationType.GuildInstall],
};

/** The options a definition declares, as its `as const` JSON has them. */
export type OptionList = readonly {
  readonly name: string;
  readonly type: ApplicationCommandOptionType;
  readonly required?: boolean;
}[];

/** The options of subcommand `K` of definition `D` (of the command itself for `''`); none: `[]`. */
export type OptionsOf<
  D extends RESTPostAPIChatInputApplicationCommandsJSONBody,
  K extends string,
> = AsOptionList<
  K extends ''
    ? D['options']
    : Extract<
          NonNullable<D['options']>[number],
          { type: ApplicationCommandOptionType.Subcommand; name: K }
        > extends {
          options?: infer O;
        }
      ? O
      : never
>;
type AsOptionList<O> = O extends OptionList ? O : readonly [];

type Names<O extends OptionList, T extends ApplicationCommandOptionType> = Extract<
  O[number],
  { type: T }
>['name'];
type RequiredNames<O extends OptionList, T extends ApplicationCommandOptionType> = Extract<
  O[number],
  { type: T; required: true }
>['name'];

/** The names a subcommand's options may be read by, per type; required ones apart. */
export interface OptionNames {
  any: string;
  string: string;
  requiredString: string;
  integer: string;
  requiredInteger: string;
  boolean: string;
  requiredBoolean: string;
  attachment: string;
  requiredAttachment: string;
}

/** The names of a definition's options (`OptionsOf`), per type. */
export type NamesOf<O extends OptionList> = {
  any: Names<O, ApplicationCommandOptionType>;
  string: Names<O, ApplicationCommandOptionType.String>;
  requiredString: RequiredNames<O, ApplicationCommandOptionType.String>;
  integer: Names<O, ApplicationCommandOptionType.Integer>;
  requiredInteger: RequiredNames<O, ApplicationCommandOptionType.Integer>;
  boolean: Names<O, ApplicationCommandOptionType.Boolean>;
  requiredBoolean: RequiredNames<O, ApplicationCommandOptionType.Boolean>;
  attachment: Names<O, ApplicationCommandOptionType.Attachment>;
  requiredAttachment: RequiredNames<O, ApplicationCommandOptionType.Attachment>;
};

type Resolver = ChatInputCommandInteraction['options'];

/**
 * An interaction's options as one subcommand's definition declares them: a name that is not declared,
 * of another type, or read as required when it is optional fails the typecheck.
 */
export interface TypedOptions<N extends OptionNames = OptionNames> {
  get(name: N['any']): ReturnType<Resolver['get']>;
  getString(name: N['requiredString'], required: true): string;
  getString(name: N['string']): string | null;
  getInteger(name: N['requiredInteger'], required: true): number;
  getInteger(name: N['integer']): number | null;
  getBoolean(name: N['requiredBoolean'], required: true): boolean;
  getBoolean(name: N['boolean']): boolean | null;
  getAttachment(
    name: N['requiredAttachment'],
    required: true,
  ): NonNullable<ReturnType<Resolver['getAttachment']>>;
  getAttachment(name: N['attachment']): ReturnType<Resolver['getAttachment']>;
}

/** The command's interaction, its options typed by the subcommand's definition. */
export type CommandInteraction<N extends OptionNames = OptionNames> = Omit<
  ChatInputCommandInteraction<'cached' | 'raw'>,
  'options'
> & { options: TypedOptions<N> };

/** The context of subcommand `K` of definition `D`: its options typed by their declared names. */
export type ContextOf<
  D extends RESTPostAPIChatInputApplicationCommandsJSONBody,
  K extends string,
> = CommandContext<NamesOf<OptionsOf<D, K>>>;

/** Everything a handler may use: no globals, so tests can pin time, randomness and configuration. */
export interface CommandContext<N extends OptionNames = OptionNames> {
  interaction: CommandInteraction<N>;
  hosting: HostingClient;
  config: Config;
  logger: Logger;
  correlationId: string;
  secrets: SecretRegistry;
  now: () => Date;
  generatePassword: () => string;
  /** The tier the invoker holds (for /help). */
  tier: Tier;
  /** The full command list (for /help). */
  commands: readonly CommandModule[];
  store: Store;
  /** The domain watch; absent when WATCH_CHANNEL_ID is unset. */
  watch?: DomainWatch;
  /**
   * Words for this command's answer: the invoker's language for what only they see (ephemeral
   * answers, prompts, modals, suggestions), BOT_LOCALE for a read answered in the channel.
   */
  t: Translator;
  /** The invoker's language (for what is stored and shown to them later, e.g. a change's prompt). */
  locale: Locale;
}

/** What a change's precheck may use. */
export interface PrecheckContext {
  config: Config;
  logger: Logger;
  store: Store;
}

/** What a change's `remember` and `revert` may use. */
export interface MemoryContext {
  store: Store;
  now: () => Date;
}

/** What sending a change may use: the record's parameters come separately. */
export interface SendContext {
  hosting: HostingClient;
  correlationId: string;
  /** The change record's id (for buttons on the public record, e.g. Revert). */
  changeId: string;
  logger: Logger;
  secrets: SecretRegistry;
  generatePassword: () => string;
  /** Who asked for the change, for the public record. */
  requesterId: string;
  /** The invoker's language, for the outcome only they see. */
  t: Translator;
  /** BOT_LOCALE, for the public record the whole channel reads. */
  channelT: Translator;
}

export interface ChangeOutcome {
  /** Shown only to the invoker, in place of the prompt (may carry a generated password). */
  private: ReplyBody;
  /** Posted in the channel as the record of who changed what; must never carry a secret. */
  public: ReplyBody;
  /** Kept in the change record (never a secret), e.g. the id the provider gave a new account. */
  result?: Record<string, unknown>;
  /**
   * What `private` shows, as data for whoever confirmed (a generated password): handed to their answer
   * only (the console's `--json`), never stored, logged or posted.
   */
  privateData?: Record<string, unknown>;
}

/**
 * Asks for long text in a form (modal) before a change's parameters can be parsed. The form is kept in
 * the store, so whichever replica receives the submit can finish it: `state` is JSON, and the spec's
 * `submitForm` turns it and the text into parameters.
 */
export interface ModalRequest {
  modal: {
    title: string;
    input: { label: string; placeholder?: string; maxLength?: number };
  };
  state: Record<string, unknown>;
}

/** What turning a submitted form into parameters may use. */
export type FormContext = Pick<CommandContext, 'hosting' | 'config' | 't'>;

/**
 * A changing subcommand. A change is data: `parse` turns options into JSON parameters, which are
 * stored, shown (`preview`), confirmed, and only then sent (`send`) — possibly by another process
 * after a restart, so nothing here may depend on anything but the parameters.
 */
export interface ChangeSpec<P extends object, N extends OptionNames = OptionNames> {
  tier: Tier;
  operation: ChangeOperation;
  /** Parameters that are secrets: stored only while pending, masked to their last four characters after. */
  secrets?: readonly (keyof P & string)[];
  // A method, so a spec typed by its own options still serves where any options are handled.
  parse(context: CommandContext<N>): P | ModalRequest;
  /** The parameters from a form `parse` asked for; throws InvalidOptionError like any option parse. */
  submitForm?: (state: Record<string, unknown>, text: string, context: FormContext) => P;
  /** The domain, server, address or account the change is about (audit trail). */
  target: (parameters: P) => string;
  /** In the language of whoever reads it: the invoker's prompt, or the channel's approval request. */
  preview: (parameters: P, t: Translator) => ChangePreview;
  /**
   * A look-up before the prompt, e.g. whether a host name resolves back to the IP. Returns the
   * parameters with what it found (kept in the record and shown by `preview`; `send` ignores it), or
   * throws a RefusalError; a promise makes the prompt acknowledge first and wait for it.
   */
  precheck?: (parameters: P, context: PrecheckContext) => P | Promise<P>;
  /** After the change ended `done` or `unknown`: what HostOps keeps of it beyond the record (a DNS set). */
  remember?: (record: ChangeRecord, outcome: 'done' | 'unknown', context: MemoryContext) => Promise<void>;
  /**
   * The parameters of a change that undoes this sent one (the public record's Revert button), or
   * undefined when there is nothing to go back to.
   */
  revert?: (record: ChangeRecord, context: MemoryContext) => Promise<P | undefined>;
  send: (parameters: P, context: SendContext) => Promise<ChangeOutcome>;
  /** After an unknown outcome, how to read whether the change took effect after all. */
  readBack?: {
    /** True or false, or a throw when the provider cannot tell yet. */
    verify: (parameters: P, context: SendContext) => Promise<boolean>;
    /** "`example.org` is registered after all." */
    applied: (parameters: P, t: Translator) => string;
    /** "`example.org` is not registered: it is safe to try again." */
    notApplied: (parameters: P, t: Translator) => string;
  };
  /** Idempotent: after an unknown outcome, the same change may simply be sent again. */
  repeatable?: boolean;
  autocomplete?: Autocomplete;
}

// biome-ignore lint/suspicious/noExplicitAny: the router handles every change through stored JSON parameters.
export type AnyChangeSpec = ChangeSpec<any>;

export type Subcommand<N extends OptionNames = OptionNames> =
  /** Reads: options are parsed before the reply is deferred, so input errors stay ephemeral. */
  | {
      kind: 'read';
      tier: Tier;
      // Methods: a read's own input type (`read<T>`) stands where the router handles any input.
      parse(context: CommandContext<N>): unknown;
      run(context: CommandContext<N>, input: unknown): Promise<ReadAnswer | ReadAnswer[]>;
      target?(input: unknown): string;
      /** Answered only to the invoker (deferred ephemerally) instead of in the channel. */
      ephemeral?: true;
      autocomplete?: Autocomplete;
    }
  /** Changes: nothing is sent before the invoker confirms. */
  // biome-ignore lint/suspicious/noExplicitAny: the router handles every change through stored JSON parameters.
  | ({ kind: 'change' } & ChangeSpec<any, N>)
  /** Instant ephemeral answers that touch no API; `anywhere` skips the channel gate (for /help). */
  | {
      kind: 'info';
      tier: Tier;
      anywhere?: boolean;
      respond(context: CommandContext<N>): ReplyBody & { data?: AnswerData };
    };

/** A button of a command's own answer (e.g. paging), pressed later by anyone who can see it. */
export interface ComponentHandler {
  /** Checked, with the channel, exactly as for a command before the handler runs. */
  tier: Tier;
  /** Returns the message's new content; `args` is what followed `hostops:<action>:` in the custom id. */
  update: (context: ComponentContext) => Promise<Omit<ReadAnswer, 'later'>>;
}

export interface ComponentContext extends Omit<CommandContext, 'interaction'> {
  interaction: ButtonInteraction<'cached' | 'raw'>;
  args: string;
}

export interface CommandModule {
  definition: RESTPostAPIChatInputApplicationCommandsJSONBody;
  /** Keyed by subcommand name; a command without subcommands uses the key ''. */
  subcommands: Record<string, Subcommand>;
  /**
   * Buttons of this command's answers, keyed by action: custom id `hostops:<action>:<args>`, at most
   * 100 characters in all (Discord's limit).
   */
  components?: Record<string, ComponentHandler>;
}

/** The names of a definition's subcommands, or `''` for a command without any. */
export type SubcommandNames<D extends RESTPostAPIChatInputApplicationCommandsJSONBody> = [
  Extract<NonNullable<D['options']>[number], { type: ApplicationCommandOptionType.Subcommand }>,
] extends [never]
  ? ''
  : Extract<NonNullable<D['options']>[number], { type: ApplicationCommandOptionType.Subcommand }>['name'];

/**
 * A command module as `defineCommand` made it: its definition and handlers keep their own types (what
 * commands/index.ts derives the command paths from); it serves wherever a CommandModule is expected.
 */
export type DefinedCommand<D extends RESTPostAPIChatInputApplicationCommandsJSONBody, H> = {
  readonly definition: D;
  readonly subcommands: H;
  readonly components?: Record<string, ComponentHandler>;
};

/**
 * A command module whose handlers match its definition: one per subcommand the definition declares,
 * no more and no fewer (the typecheck says which is missing or extra), each reading its options by the
 * names and types it declares. Option limits (`min_value`, `max_length`, …) are written in the definition
 * only: the router checks them before any handler.
 */
export function defineCommand<
  const D extends RESTPostAPIChatInputApplicationCommandsJSONBody,
  const H extends { [K in SubcommandNames<D>]: Subcommand<NamesOf<OptionsOf<D, K>>> },
>(
  definition: D,
  handlers: {
    subcommands: H;
    components?: Record<string, ComponentHandler>;
  },
): DefinedCommand<D, H> {
  return { definition, ...handlers };
}

/**
 * What an answer is rendered from, as plain data: ISO dates, booleans as booleans, numbers as numbers, no
 * Discord markup. Each command declares its own shape; the console's `--json` prints it.
 */
export type AnswerData = object;

/** A read's answer; `files` become attachments, `data` is what the embeds show, as data. */
export type ReadAnswer = ReplyBody & {
  files?: PreviewFile[];
  data?: AnswerData;
  /** Work the answer says is under way; the answer is edited to what it resolves to (never rejects). */
  later?: Promise<ReadAnswer>;
};

/** Suggestions for the option being typed: at most 25 are shown. */
export type Autocomplete = (
  context: CommandContext & { focused: { name: string; value: string } },
) => Promise<{ name: string; value: string | number }[]>;

/**
 * Lets a read declare its parsed input type while the router stays generic; its options are typed by
 * the subcommand it is given for (`defineCommand`), so an undeclared option fails the typecheck.
 */
export function read<T, N extends OptionNames = OptionNames>(spec: {
  tier: Tier;
  parse: (context: CommandContext<N>) => T;
  run: (context: CommandContext<N>, input: T) => Promise<ReadAnswer | ReadAnswer[]>;
  target?: (input: T) => string;
  ephemeral?: true;
  autocomplete?: Autocomplete;
}): Extract<Subcommand<N>, { kind: 'read' }> {
  return { kind: 'read', ...spec };
}

/** Lets a change declare its parameter type while the router stays generic; options as for `read`. */
export function change<P extends object, N extends OptionNames = OptionNames>(
  spec: ChangeSpec<P, N>,
): Extract<Subcommand<N>, { kind: 'change' }> {
  return { kind: 'change', ...spec };
}

export function isModalRequest<P>(value: P | ModalRequest): value is ModalRequest {
  return typeof value === 'object' && value !== null && 'modal' in value;
}
