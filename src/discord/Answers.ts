import {
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  DiscordAPIError,
  MessageFlags,
  type ModalSubmitInteraction,
} from 'discord.js';
import type { AuditEvent, AuditTrail } from '../audit/AuditTrail.js';
import type { AuditOutcome, CommandOutcome } from '../audit/outcomes.js';
import type { Ended, EndState } from '../changes/ChangeEnds.js';
import type { Locale } from '../i18n/locales.js';
import { type Translator, translator } from '../i18n/Translator.js';
import type { Logger } from '../logger.js';
import type { RouterObserver } from '../observability/RouterObserver.js';
import { InvalidOptionError, RefusalError } from '../replies/UserError.js';
import type { PostKind } from '../store/index.js';
import { labelParts } from '../text/commandLabel.js';
import { describeError } from './describeError.js';

/** One command as it travels: a slash command, or a change picked up again from its record. */
export interface Invocation {
  /** `/domain register` */
  label: string;
  correlationId: string;
  userId: string;
  userName: string;
  guildId: string | null;
  channelId: string | null;
  /** performance.now() at receipt, or its equivalent for a change created before a restart. */
  startedAt: number;
  /** The invoker's language: what only they see is written in it. */
  locale: Locale;
  logger: Logger;
  /** Changes something: its endings and refusals go to the audit channel too. */
  changing: boolean;
  target?: string | null;
  parameters?: Record<string, unknown> | null;
  changeId?: string | null;
  /** Who acted on the requester's change, when not the requester: the approver. */
  actedBy?: { id: string; name: string };
}

// What the router reports to observability: its interface lives there (observability knows nothing of Discord).
export type { RouterObserver } from '../observability/RouterObserver.js';

/** A command's end: a read or answer's outcome, or the final state of a change. */
export type Ending = AuditOutcome;

type Answerable = ChatInputCommandInteraction | ModalSubmitInteraction | ButtonInteraction;

const METRIC_OUTCOME: Record<Ending, CommandOutcome> = {
  ok: 'ok',
  refused: 'refused',
  invalid: 'invalid',
  failed: 'failed',
  cancelled: 'cancelled',
  expired: 'expired',
  done: 'ok',
  unknown: 'failed',
  rejected: 'cancelled',
};

export function ephemeral<T extends object>(body: T): T & { flags: MessageFlags.Ephemeral } {
  return { ...body, flags: MessageFlags.Ephemeral };
}

/**
 * How every answer goes out: the one place an error becomes a reply, the one place a command's end is
 * counted, logged and written to the audit trail.
 */
export class Answers {
  readonly #audit: AuditTrail;
  readonly #channel: Translator;
  readonly #observer: RouterObserver | undefined;
  readonly #now: () => Date;

  /**
   * `channel`: BOT_LOCALE's translator, for answers the whole channel sees. `now`: the store's clock
   * (StoreClock), which audit rows are stamped with, as change records and deadlines are: rows of replicas
   * whose local clocks disagree are ordered, and purged, alike.
   */
  constructor(audit: AuditTrail, channel: Translator, now: () => Date, observer?: RouterObserver) {
    this.#audit = audit;
    this.#channel = channel;
    this.#now = now;
    this.#observer = observer;
  }

  /**
   * The language of an answer to this interaction: the channel's once it has answered in the channel
   * (a public deferral), else the invoker's.
   */
  translatorFor(interaction: Answerable, invocation: Pick<Invocation, 'locale'>): Translator {
    const inChannel = (interaction.deferred || interaction.replied) && interaction.ephemeral === false;
    return inChannel ? this.#channel : translator(invocation.locale);
  }

  /** The one place an error becomes an answer. */
  async fail(interaction: Answerable, invocation: Invocation, error: unknown, finish = true): Promise<void> {
    const t = this.translatorFor(interaction, invocation);
    const description = describeError(error, invocation.correlationId, t);
    this.log(invocation, error, description.unexpected);
    const body = { content: description.message, embeds: [], components: [] };
    await this.safely(invocation, async () => {
      if (interaction.deferred || interaction.replied) await interaction.editReply(body);
      else await this.acknowledge(invocation, interaction.reply(ephemeral(body)));
    });
    if (!finish) return;
    const detail =
      error instanceof RefusalError
        ? error.reason
        : error instanceof InvalidOptionError
          ? error.option
          : (error as { kind?: string })?.kind;
    await this.finish(invocation, description.outcome, detail ?? null);
  }

  log(invocation: Invocation, error: unknown, unexpected: boolean): void {
    if (unexpected) invocation.logger.error({ err: error }, 'command failed unexpectedly');
    else invocation.logger.info({ err: error }, 'command answered with an error');
  }

  /** Discord refusing a late answer (10062 unknown interaction, 40060 already acknowledged) is not fatal. */
  async safely(invocation: Invocation, send: () => Promise<unknown>): Promise<boolean> {
    try {
      await send();
      return true;
    } catch (error) {
      const code = error instanceof DiscordAPIError ? error.code : undefined;
      invocation.logger.warn({ err: error, discordCode: code }, 'could not deliver the answer to Discord');
      return false;
    }
  }

  async acknowledge(invocation: Invocation, response: Promise<unknown>): Promise<void> {
    await response;
    this.#observer?.acknowledged(invocation.label, performance.now() - invocation.startedAt);
  }

  /** Hands an answer's data to the observer (nothing when there is none). */
  data(interaction: { id: string }, data: object | undefined): void {
    if (data !== undefined) this.#observer?.answered?.(interaction.id, data);
  }

  /**
   * The command's end: counted, logged, written to the audit trail and (a change's end or a refusal)
   * posted in the audit channel. `audited`: its row was written with the change's end (`ending`), and
   * only its line is left to post.
   */
  async finish(
    invocation: Invocation,
    outcome: Ending,
    detail: string | null = null,
    audited = false,
  ): Promise<void> {
    const ms = Math.max(0, performance.now() - invocation.startedAt);
    this.#observer?.finished(invocation.label, METRIC_OUTCOME[outcome], ms);
    invocation.logger.info({ outcome, ms: Math.round(ms) }, 'command finished');
    const event = auditEvent(invocation, outcome, detail, this.#now());
    if (audited) await this.#audit.announceWritten(event);
    else await this.#audit.record(event);
  }

  /**
   * A step of a change that is not its end, as an `ok` row of its own in the audit trail (an elevation
   * requested, in force): neither counted as a command nor posted to the audit channel.
   */
  async note(invocation: Invocation, detail: string): Promise<void> {
    await this.#audit.record({ ...auditEvent(invocation, 'ok', detail, this.#now()), changing: false });
  }

  /** The posts owed past their time (the sweep's: their taker did not post them within a lease). */
  announceDue(): Promise<void> {
    return this.#audit.announceDue();
  }

  /**
   * A change's end as its audit row, for the store to write with the end itself (ChangeEnds), with its
   * audit-channel line and (`notice`: a change the sweep ended) the notice in its channel owed. Its caller
   * then calls `finish(…, audited)`, which posts what this process takes of it.
   */
  ending(invocation: Invocation, outcome: EndState, detail: string | null, notice = false): Ended {
    const event = auditEvent(invocation, outcome, detail, this.#now());
    const { changing: _, ...rest } = event;
    const entry = { ...rest, outcome };
    const posts: PostKind[] = [];
    if (this.#audit.announces(event)) posts.push('line');
    if (notice && this.#audit.notices(event)) posts.push('notice');
    return { entry, posts };
  }
}

function auditEvent(invocation: Invocation, outcome: Ending, detail: string | null, at: Date): AuditEvent {
  const { command, subcommand } = labelParts(invocation.label);
  return {
    changing: invocation.changing,
    at,
    userId: invocation.userId,
    userName: invocation.userName,
    guildId: invocation.guildId,
    channelId: invocation.channelId,
    command,
    subcommand,
    target: invocation.target ?? null,
    outcome,
    detail,
    correlationId: invocation.correlationId,
    durationMs: Math.round(Math.max(0, performance.now() - invocation.startedAt)),
    parameters: invocation.parameters ?? null,
    changeId: invocation.changeId ?? null,
    actedById: invocation.actedBy?.id ?? null,
    actedByName: invocation.actedBy?.name ?? null,
  };
}
