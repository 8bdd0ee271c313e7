import type { ButtonInteraction, ChatInputCommandInteraction, ModalSubmitInteraction } from 'discord.js';
import type { AccessGate } from '../../access/AccessGate.js';
import type { ApprovalPolicy } from '../../changes/ApprovalPolicy.js';
import type { ChangeJournal } from '../../changes/ChangeJournal.js';
import { masked } from '../../changes/masked.js';
import type { Config } from '../../config.js';
import type { AddressResolver } from '../../dns/AddressResolver.js';
import type { HostingClient } from '../../hosting/HostingClient.js';
import type { Locale } from '../../i18n/locales.js';
import { type Translator, translator } from '../../i18n/Translator.js';
import type { Logger, SecretRegistry } from '../../logger.js';
import { actorMention } from '../../replies/actorMention.js';
import type { BotMessages } from '../../replies/ReplyBody.js';
import type { ChangeRecord, Store } from '../../store/index.js';
import type { Answers, Invocation } from '../Answers.js';
import type { AnyChangeSpec, PrepareContext, SendContext } from '../CommandModule.js';
import { newInvocation } from '../newInvocation.js';
import { withSandboxNotice } from '../render/sandboxNotice.js';

export interface ChangeFlowDeps {
  journal: ChangeJournal;
  approvals: ApprovalPolicy;
  /** False where nobody can approve (the console): a change that needs approval is refused. */
  approvalsHere: boolean;
  /** For what changes keep beyond their records (`revert`, `precheck`). */
  store: Store;
  /** The change subcommands, by label (`/domain register`). */
  specs: ReadonlyMap<string, AnyChangeSpec>;
  answers: Answers;
  hosting: HostingClient;
  config: Config;
  resolver: AddressResolver;
  /** The one gate: a press is decided again on the grants in force now. */
  gate: AccessGate;
  logger: Logger;
  secrets: SecretRegistry;
  generatePassword: () => string;
  now: () => Date;
  /** Waits between the read-backs after an unknown outcome: a few tries over up to two minutes. */
  readBackDelaysMs?: readonly number[];
  /** Replica ids whose lease is current, this one included. */
  liveReplicas: () => Promise<readonly string[]>;
  /** Bot messages (not interaction tokens): approval requests stay editable for days. */
  messages: BotMessages;
  /**
   * Whether this process settles what others left behind — prompts and approval requests that ran out,
   * sends whose replica is gone — by sweeping the store: a bot replica, whose notices reach Discord. A
   * console settles only what it sent itself.
   */
  settlesOthers: boolean;
}

/** An interaction a prompt was shown in: a command, a form's submit, or a button (Try again, Revert). */
export type Prompted = ChatInputCommandInteraction | ModalSubmitInteraction | ButtonInteraction;

/** Who approved a change, for the public record and the audit trail. */
export interface Approver {
  id: string;
  name: string;
  /** Their language: the private part of the outcome goes to them. */
  locale: Locale;
}

/** A change this process is sending: what a forced shutdown needs to record and tell. */
export interface Sending {
  interaction: ButtonInteraction;
  record: ChangeRecord;
  spec: AnyChangeSpec;
  invocation: Invocation;
  /** The language of the message the outcome goes into: the prompt's, or the approval request's. */
  t: Translator;
  /**
   * Handed to the connection (ChangeJournal.handOver recorded it): from here on it is "possibly sent".
   * Before (its recheck, its acknowledgement), a give-up records it `failed`, never sent.
   */
  handed: boolean;
}

/**
 * What the parts of the change flow share: their dependencies, and this process's own view of the
 * changes (the prompts it showed, the calls it has in flight, whether it is stopping). Everything
 * else about a change lives in its record.
 */
export class ChangeFlowState {
  readonly prompts = new Map<string, { timer: NodeJS.Timeout; interaction: Prompted }>();
  /** Every change this process holds in `sending`, from its claim to its settling (or a give-up). */
  readonly sending = new Map<string, Sending>();
  /** Stopping: new confirmations and approvals are turned away; records stay as they are. */
  draining = false;
  /** Given up at shutdown: settles still retrying stop and leave their changes to the sweep. */
  stopped = false;

  constructor(
    readonly deps: ChangeFlowDeps,
    /** Work that outlives the click (expiry edits, read-backs): a draining process waits for it. */
    readonly track: (task: Promise<void>) => void,
  ) {}

  /** BOT_LOCALE: for what the whole channel reads. */
  get channelT(): Translator {
    return translator(this.deps.config.botLocale);
  }

  /** A change picked up from its record: its requester, its correlation id, its age. */
  invocationOf(record: ChangeRecord, interaction?: ButtonInteraction): Invocation {
    const age = this.deps.now().getTime() - record.createdAt.getTime();
    const spec = this.deps.specs.get(record.command);
    return {
      label: record.command,
      correlationId: record.correlationId,
      userId: record.requestedById,
      userName: record.requestedByName,
      guildId: record.guildId,
      channelId: interaction?.channelId ?? record.channelId,
      startedAt: performance.now() - Math.max(0, age),
      locale: record.locale,
      logger: this.deps.logger.child({
        cid: record.correlationId,
        command: record.command,
        change: record.id,
      }),
      changing: true,
      target: record.target,
      parameters: spec ? masked(spec, record.parameters) : record.parameters,
      changeId: record.id,
    };
  }

  /** A new invocation of a change's command by whoever pressed one of its buttons (Revert). */
  pressed(interaction: ButtonInteraction, label: string): Invocation {
    return newInvocation(this.deps.logger, interaction, label, true);
  }

  /** What a command making (or checking again) a change for `invocation` may use: its language. */
  prepareContext(invocation: Invocation): PrepareContext {
    const { config, resolver, store } = this.deps;
    return { config, resolver, store, logger: invocation.logger, t: translator(invocation.locale) };
  }

  /** `locale`: of whoever gets the private outcome; the requester's unless an approver confirmed. */
  /** `answerBy`: when the interaction that will carry the outcome can no longer be answered (performance.now()). */
  sendContext(
    record: ChangeRecord,
    locale: Locale = record.locale,
    answerBy?: number,
    approvedBy?: string,
  ): SendContext {
    const { hosting, logger, secrets, generatePassword, store, now } = this.deps;
    return {
      hosting,
      store,
      now,
      logger,
      secrets,
      generatePassword,
      correlationId: record.correlationId,
      call: { correlationId: record.correlationId, ...(answerBy === undefined ? {} : { answerBy }) },
      changeId: record.id,
      requester: actorMention(record.requestedById, record.requestedByName),
      ...(approvedBy === undefined ? {} : { approvedBy }),
      t: translator(locale),
      channelT: this.channelT,
    };
  }

  sandboxed<T extends { content?: string }>(body: T, t: Translator): T {
    return withSandboxNotice(body, this.deps.config.hosting.sandbox, t);
  }

  forgetPrompt(id: string): void {
    const prompt = this.prompts.get(id);
    if (prompt) clearTimeout(prompt.timer);
    this.prompts.delete(id);
  }
}
