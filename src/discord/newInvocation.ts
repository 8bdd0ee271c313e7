import type {
  AutocompleteInteraction,
  ButtonInteraction,
  ChatInputCommandInteraction,
  ModalSubmitInteraction,
} from 'discord.js';
import type { AccessGate } from '../access/AccessGate.js';
import type { Tier } from '../access/tiers.js';
import type { Config } from '../config.js';
import { newCorrelationId } from '../correlationId.js';
import type { AddressResolver } from '../dns/AddressResolver.js';
import type { HostingClient } from '../hosting/HostingClient.js';
import { pickLocale } from '../i18n/locales.js';
import { translator } from '../i18n/Translator.js';
import type { Logger, SecretRegistry } from '../logger.js';
import type { RegistryCheck } from '../rdap/RegistryCheck.js';
import type { Store } from '../store/index.js';
import type { DomainWatch } from '../watch/DomainWatch.js';
import type { Invocation } from './Answers.js';
import { answerDeadline } from './answerDeadline.js';
import type { CommandContext, CommandModule } from './CommandModule.js';

type Received =
  | ChatInputCommandInteraction
  | ButtonInteraction
  | AutocompleteInteraction
  | ModalSubmitInteraction;

/** One command's run as logs and the audit trail see it; `correlationId` continues a form's command. */
export function newInvocation(
  parent: Logger,
  interaction: Received,
  label: string,
  changing: boolean,
  correlationId = newCorrelationId(),
): Invocation {
  let logger: Logger | undefined;
  return {
    label,
    correlationId,
    userId: interaction.user.id,
    userName: interaction.user.username,
    guildId: interaction.guildId,
    channelId: interaction.channelId,
    startedAt: performance.now(),
    locale: pickLocale(interaction.locale),
    changing,
    // Made on first use, which for most commands comes after the acknowledgement.
    get logger() {
      logger ??= parent.child({
        cid: correlationId,
        command: label,
        user: interaction.user.id,
        guild: interaction.guildId,
        channel: interaction.channelId,
      });
      return logger;
    },
  };
}

export interface ContextDeps {
  commands: readonly CommandModule[];
  hosting: HostingClient;
  store: Store;
  config: Config;
  secrets: SecretRegistry;
  generatePassword: () => string;
  now?: () => Date;
  watch?: DomainWatch;
  registry?: RegistryCheck;
  resolver: AddressResolver;
  gate?: AccessGate;
}

/**
 * What a handler may use. A read answered in the channel speaks the channel's language (`inChannel`);
 * everything else the invoker's.
 */
export function commandContext(
  deps: ContextDeps,
  interaction: ChatInputCommandInteraction | ButtonInteraction | AutocompleteInteraction,
  invocation: Invocation,
  tier: Tier,
  inChannel = false,
): CommandContext {
  const { hosting, config, secrets, commands, generatePassword, store, watch, registry, resolver, gate } =
    deps;
  return {
    ...(gate ? { gate } : {}),
    t: translator(inChannel ? config.botLocale : invocation.locale),
    locale: invocation.locale,
    ...(watch ? { watch } : {}),
    ...(registry ? { registry } : {}),
    interaction: interaction as CommandContext['interaction'],
    hosting,
    config,
    resolver,
    secrets,
    commands,
    store,
    generatePassword,
    tier,
    logger: invocation.logger,
    correlationId: invocation.correlationId,
    call: { correlationId: invocation.correlationId, answerBy: answerDeadline(invocation.startedAt) },
    now: deps.now ?? (() => new Date()),
  };
}
