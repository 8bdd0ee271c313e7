import {
  type APIEmbed,
  ApplicationIntegrationType,
  type ChatInputCommandInteraction,
  InteractionContextType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { Config } from '../config.js';
import type { HostingClient } from '../hosting/HostingClient.js';
import type { Logger, SecretRegistry } from '../logger.js';
import type { Tier } from './access.js';

/** Spread into every definition: guild installs only, never DMs or user installs. */
export const GUILD_ONLY: Required<
  Pick<RESTPostAPIChatInputApplicationCommandsJSONBody, 'contexts' | 'integration_types'>
> = {
  contexts: [InteractionContextType.Guild],
  integration_types: [ApplicationIntegrationType.GuildInstall],
};

/** What a handler may send back; mentions are always disabled by the client. */
export interface ReplyBody {
  content?: string;
  embeds?: APIEmbed[];
}

/** Everything a handler may use: no globals, so tests can pin time, randomness and configuration. */
export interface CommandContext {
  interaction: ChatInputCommandInteraction<'cached' | 'raw'>;
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
}

export interface PreviewField {
  name: string;
  value: string;
  inline?: boolean;
  /** Shown to the invoker in the prompt, but kept out of log lines (e.g. a license key). */
  sensitive?: boolean;
}

/**
 * A change that has been validated but not sent. The router shows `preview` to the invoker and calls
 * `execute` exactly once, only after they press Confirm.
 */
/** A text file attached to the prompt, for what a field cannot hold in full. */
export interface PreviewFile {
  name: string;
  content: string;
}

export interface ChangeRequest {
  /** Short title, e.g. "Set reverse DNS". */
  title: string;
  /** Exactly what will be sent: one field per parameter (already escaped). */
  preview: PreviewField[];
  /** Attached to the prompt when the preview cannot show everything; the preview says so. */
  files?: PreviewFile[];
  execute: (context: ChangeContext) => Promise<ChangeOutcome>;
}

export interface ChangeContext {
  hosting: HostingClient;
  correlationId: string;
  logger: Logger;
  secrets: SecretRegistry;
}

export interface ChangeOutcome {
  /** Shown only to the invoker, in place of the prompt (may carry a generated password). */
  private: ReplyBody;
  /** Posted in the channel as the record of who changed what; must never carry a secret. */
  public: ReplyBody;
}

/** Asks for long text in a modal before a change can be prepared. */
export interface ModalRequest {
  title: string;
  input: { label: string; placeholder?: string; maxLength?: number };
  /** Called with the submitted text; throws InvalidOptionError like any other option parse. */
  submit: (text: string) => ChangeRequest;
}

export type Subcommand =
  /** Reads: options are parsed before the reply is deferred, so input errors stay ephemeral. */
  | {
      kind: 'read';
      tier: Tier;
      parse: (context: CommandContext) => unknown;
      run: (context: CommandContext, input: never) => Promise<ReplyBody | ReplyBody[]>;
    }
  /** Changes: nothing is sent before the invoker confirms. */
  | { kind: 'change'; tier: Tier; prepare: (context: CommandContext) => ChangeRequest | ModalRequest }
  /** Instant ephemeral answers that touch no API; `anywhere` skips the channel gate (for /help). */
  | { kind: 'info'; tier: Tier; anywhere?: boolean; respond: (context: CommandContext) => ReplyBody };

export interface CommandModule {
  definition: RESTPostAPIChatInputApplicationCommandsJSONBody;
  /** Keyed by subcommand name; a command without subcommands uses the key ''. */
  subcommands: Record<string, Subcommand>;
}

/** Lets a read declare its parsed input type while the router stays generic. */
export function read<T>(spec: {
  tier: Tier;
  parse: (context: CommandContext) => T;
  run: (context: CommandContext, input: T) => Promise<ReplyBody | ReplyBody[]>;
}): Subcommand {
  return { kind: 'read', ...spec } as Subcommand;
}
