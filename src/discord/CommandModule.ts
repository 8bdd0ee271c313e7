import {
  type ApplicationCommandOptionType,
  ApplicationIntegrationType,
  type ButtonInteraction,
  InteractionContextType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { AccessGate, GateAsk } from '../access/AccessGate.js';
import type { AccessOperation } from '../access/accessOperations.js';
import type { Tier } from '../access/tiers.js';
import type { SetToSend } from '../changes/ChangeJournal.js';
import type { Config } from '../config.js';
import type { AddressResolver } from '../dns/AddressResolver.js';
import type { HostingClient } from '../hosting/HostingClient.js';
import type { CallOptions } from '../hosting/HostingClientOptions.js';
import type { ChangeOperation } from '../hosting/operations.js';
import type { Locale } from '../i18n/locales.js';
import type { Message, Translator } from '../i18n/Translator.js';
import type { Logger, SecretRegistry } from '../logger.js';
import type { RegistryCheck } from '../rdap/RegistryCheck.js';
import type { ChangePreview, LocalizedPreview, PreviewFile, ReplyBody } from '../replies/ReplyBody.js';
import type { ChangeRecord, Store } from '../store/index.js';
import type { DomainWatch } from '../watch/DomainWatch.js';
import type { CommandInteraction, NamesOf, OptionNames, OptionsOf } from './typedOptions.js';

/** Spread into every definition: guild installs only, never DMs or user installs. */
export const GUILD_ONLY: Required<
  Pick<RESTPostAPIChatInputApplicationCommandsJSONBody, 'contexts' | 'integration_types'>
> = {
  contexts: [InteractionContextType.Guild],
  integration_types: [ApplicationIntegrationType.GuildInstall],
};

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
  /** Who answers DNS look-ups: the system's resolvers, DNS_SERVERS, or the sandbox's made-up zone. */
  resolver: AddressResolver;
  logger: Logger;
  correlationId: string;
  /**
   * What this command's API calls pass along: its correlation id (and share of the connections), how long
   * its answer can still be delivered, and — for a read — the notice that tells the invoker it waits.
   */
  call: CallOptions;
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
  /** The registry's word (RDAP); absent with RDAP_CHECK=off. */
  registry?: RegistryCheck;
  /** The one access gate: its decisions (/access explain) and the invoker's read scope. */
  gate?: AccessGate;
  /**
   * Words for this command's answer: the invoker's language for what only they see (ephemeral
   * answers, prompts, modals, suggestions), BOT_LOCALE for a read answered in the channel.
   */
  t: Translator;
  /** The invoker's language (for what is stored and shown to them later, e.g. a change's prompt). */
  locale: Locale;
}

/** What making a change (its look-up and preview) may use; `t` is the invoker's language. */
export interface PrepareContext {
  /** The command list, where the context has it: a command's own parse does, a button's check again not. */
  commands?: readonly CommandModule[];
  config: Config;
  resolver: AddressResolver;
  logger: Logger;
  store: Store;
  t: Translator;
}

/** What a change's `revert` may use. */
export interface MemoryContext {
  store: Store;
  now: () => Date;
}

/** What sending a change may use: the record's parameters come separately. */
export interface SendContext {
  hosting: HostingClient;
  /** What an access change writes instead of calling the provider (/access grant, revoke, import). */
  store: Store;
  /** The store's time (the clock grants end by). */
  now: () => Date;
  correlationId: string;
  /** What the change's API call passes along: its correlation id, how long its answer can still be delivered. */
  call: CallOptions;
  /** The change record's id (for buttons on the public record, e.g. Revert). */
  changeId: string;
  logger: Logger;
  secrets: SecretRegistry;
  generatePassword: () => string;
  /** Who asked for the change, as the public record names them (actorMention). */
  requester: string;
  /** The user id of who approved it, where a second person did. */
  approvedBy?: string;
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
  /** A line for the audit trail beside the change's end (an elevation's "in force until …"). */
  note?: string;
  /**
   * What `private` shows, as data for whoever confirmed (a generated password): handed to their answer
   * only (the console's `--json`), never stored, logged or posted.
   */
  privateData?: Record<string, unknown>;
}

/**
 * One input of a form (modal), drawn in a Label of its own. `id` is the option it stands for: an error in
 * it (InvalidOptionError) names the field, and its label is what the answer shows.
 */
export type FormField = {
  id: string;
  /** At most 45 characters (Discord's limit for a Label). */
  label: string;
  /** At most 100 characters. */
  description?: string;
  /** Filled in when the form opens (an option given on the command, a default). */
  value?: string;
} & (
  | {
      kind: 'text';
      paragraph?: boolean;
      placeholder?: string;
      maxLength: number;
      /** Default true. */
      required?: boolean;
    }
  | { kind: 'choice'; choices: readonly { label: string; value: string }[] }
);

/**
 * Asks for a change's parameters in a form (modal) before they can be parsed. The form is kept in the
 * store, so whichever replica receives the submit can finish it: `state` is JSON, and the spec's
 * `submitForm` turns it and the submitted values (by field id) into parameters.
 */
export interface ModalRequest {
  modal: {
    /** At most 45 characters. */
    title: string;
    /** At most 5: Discord draws no more top-level components in a modal. */
    fields: readonly FormField[];
  };
  state: Record<string, unknown>;
}

/** What turning a submitted form into parameters may use. */
export type FormContext = Pick<CommandContext, 'hosting' | 'config' | 'resolver' | 't' | 'logger' | 'store'>;

/**
 * What a changing subcommand declares and the change flow uses as it is: who may run it, what it calls,
 * its secrets, and how it is sent and read back. A ChangeSpec (ChangeSpec.ts) adds how a change is made.
 */
export interface ChangeBasics<P extends object> {
  tier: Tier;
  /** The provider's operation, or an access change (written to the store, not sent to the provider). */
  operation: ChangeOperation | AccessOperation;
  /** Parameters that are secrets: stored only while pending, masked to their last four characters after. */
  secrets?: readonly (keyof P & string)[];
  /**
   * The DNS record set the change sends, which HostOps keeps beyond the record: written as the change is
   * sent, remembered while it may have been applied (the change `done` or `unknown`). A method, so the
   * journal can ask any change for it.
   */
  dnsSet?(parameters: P): SetToSend;
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
  /**
   * Always put up for a second person's approval (whatever APPROVAL_REQUIRED lists), and approved only by
   * someone the access gate allows every one of these asks (an `/access request`: the rights it gives).
   */
  approvedBy?: (parameters: P) => readonly GateAsk[];
}

/** A change as it is made, once: what `send` gets, what the record keeps, and what the prompt shows. */
export interface PreparedChange<P extends object = Record<string, unknown>> {
  /** With what the look-up found (shown, kept; `send` ignores it). */
  parameters: P;
  target: string;
  /** In the invoker's language, exactly as it will be sent, a secret in full: only they see it. */
  preview: ChangePreview;
  /** In every language, every secret masked: what the record keeps and shows from then on. */
  recorded: LocalizedPreview;
}

/** A promise when the change needs a look-up first (the prompt acknowledges before waiting for it). */
export type Preparing<P extends object> = PreparedChange<P> | Promise<PreparedChange<P>>;

/**
 * A changing subcommand as the change flow sees it (`change()`, ChangeSpec.ts, makes it from a ChangeSpec). The command
 * is asked twice about a change: to make it — from options, a form, the change it reverts, or the same
 * parameters again (Try again) — and to send it; everything between is the record.
 */
export interface ChangeHandler<P extends object, N extends OptionNames = OptionNames>
  extends ChangeBasics<P> {
  kind: 'change';
  // A method, so a handler typed by its own options still serves where any options are handled.
  parse(context: CommandContext<N>): Preparing<P> | ModalRequest;
  submitForm?: (
    state: Record<string, unknown>,
    values: Record<string, string>,
    context: FormContext,
  ) => Preparing<P>;
  /** Try again: the same parameters, looked up and shown anew. */
  again: (parameters: P, context: PrepareContext) => Preparing<P>;
  revert?: (
    record: ChangeRecord,
    context: MemoryContext & PrepareContext,
  ) => Promise<PreparedChange<P> | undefined>;
  /** As the spec's, with the new change made (`t`: the requester's language, for their prompt). */
  recheck?: (
    parameters: P,
    context: PrepareContext,
  ) => Promise<{ made: PreparedChange<P>; why: Message } | undefined>;
}

// biome-ignore lint/suspicious/noExplicitAny: the router handles every change through stored JSON parameters.
export type AnyChangeSpec = ChangeHandler<any>;

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
  | ChangeHandler<any, N>
  /** Instant ephemeral answers that touch no API; `anywhere` skips the channel gate (for /help). */
  | {
      kind: 'info';
      tier: Tier;
      anywhere?: boolean;
      respond(
        context: CommandContext<N>,
      ): (ReplyBody & { data?: AnswerData }) | Promise<ReplyBody & { data?: AnswerData }>;
    };

/** A button of a command's own answer (e.g. paging), pressed later by anyone who can see it. */
export interface ComponentHandler {
  /** Checked, with the channel, exactly as for a command before the handler runs. */
  tier: Tier;
  /** Returns the message's new content; `args` is what followed `hostops:<action>:` in the custom id. */
  update: (context: ComponentContext) => Promise<Omit<ReadAnswer, 'followUp'>>;
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
  /**
   * A message of its own that follows the whole answer once it resolves (never rejects; nothing when
   * undefined): what a side source says about an answer of several messages (/domain expiry's registry).
   */
  followUp?: Promise<ReadAnswer | undefined>;
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

export function isModalRequest<P>(value: P | ModalRequest): value is ModalRequest {
  return typeof value === 'object' && value !== null && 'modal' in value;
}
