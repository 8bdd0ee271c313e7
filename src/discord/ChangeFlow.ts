import { setTimeout as sleep } from 'node:timers/promises';
import {
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIEmbed,
  type APIModalInteractionResponseCallbackData,
  type ButtonInteraction,
  ButtonStyle,
  type ChatInputCommandInteraction,
  ComponentType,
  channelMention,
  MessageFlags,
  type ModalSubmitInteraction,
  TextInputStyle,
  TimestampStyles,
  time,
  userMention,
} from 'discord.js';
import type { ApprovalPolicy } from '../changes/ApprovalPolicy.js';
import { type ChangeJournal, masked, type SentState } from '../changes/ChangeJournal.js';
import type { Config } from '../config.js';
import { newCorrelationId } from '../correlationId.js';
import { HostingApiError } from '../hosting/HostingApiError.js';
import type { HostingClient } from '../hosting/HostingClient.js';
import { type Locale, pickLocale } from '../i18n/locales.js';
import { type MessageKey, type Translator, translator } from '../i18n/Translator.js';
import type { Logger, SecretRegistry } from '../logger.js';
import { Colour } from '../replies/colours.js';
import { escapeUserText } from '../replies/escapeUserText.js';
import { literal } from '../replies/literal.js';
import type {
  BotMessages,
  ChangePreview,
  MessageBody,
  PreviewFile,
  ReplyBody,
} from '../replies/ReplyBody.js';
import { approvalNotHere, restarting } from '../replies/UserError.js';
import type { ChangeRecord, Store } from '../store/index.js';
import { type Answers, ephemeral, type Invocation } from './Answers.js';
import { checkGates } from './access.js';
import type { AnyChangeSpec, ChangeOutcome, SendContext } from './CommandModule.js';
import { customId } from './customId.js';
import { describeError, outcomeUnknownReason, seconds } from './describeError.js';
import { actionButton, actionRow } from './render/actionButton.js';
import { fieldValue } from './render/fieldValue.js';
import { withSandboxNotice } from './render/sandboxNotice.js';
import { withAttachments } from './withAttachments.js';

export interface ChangeFlowDeps {
  journal: ChangeJournal;
  approvals: ApprovalPolicy;
  /** False where nobody can approve (the console): a change that needs approval is refused. */
  approvalsHere: boolean;
  /** For what changes keep beyond their records (`remember`, `revert`, `precheck`). */
  store: Store;
  /** The change subcommands, by label (`/domain register`). */
  specs: ReadonlyMap<string, AnyChangeSpec>;
  answers: Answers;
  hosting: HostingClient;
  config: Config;
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
}

/** Who approved a change, for the public record and the audit trail. */
interface Approver {
  id: string;
  name: string;
  /** Their language: the private part of the outcome goes to them. */
  locale: Locale;
}

type Prompted = ChatInputCommandInteraction | ModalSubmitInteraction | ButtonInteraction;

interface Sending {
  interaction: ButtonInteraction;
  record: ChangeRecord;
  spec: AnyChangeSpec;
  invocation: Invocation;
  /** The language of the message the outcome goes into: the prompt's, or the approval request's. */
  t: Translator;
}

/** How long a change's precheck may take before the prompt is acknowledged by a deferral instead. */
const PRECHECK_INLINE_MS = 20;
const DEFAULT_READ_BACK_DELAYS_MS = [5_000, 15_000, 30_000, 70_000];
// Prompts of an earlier run or another replica have no timer here, and a replica that died mid-send
// leaves its changes `sending`: a sweep ends both.
const SWEEP_INTERVAL_MS = 10_000;

/**
 * Prompt → Confirm → send → outcome, on change records: everything a change does between the
 * command and its answer. State lives in the journal, so a prompt outlives a restart and a
 * double click or two replicas send once; what lives here is only this process's view of it
 * (the prompts it showed, for their expiry edits, and the calls it has in flight).
 */
export class ChangeFlow {
  readonly #deps: ChangeFlowDeps;
  readonly #prompts = new Map<string, { timer: NodeJS.Timeout; interaction: Prompted }>();
  readonly #sending = new Map<string, Sending>();
  readonly #sweep: NodeJS.Timeout;
  #draining = false;

  constructor(deps: ChangeFlowDeps, track: (task: Promise<void>) => void) {
    this.#deps = deps;
    this.#track = track;
    this.#sweep = setInterval(() => track(this.sweep()), SWEEP_INTERVAL_MS);
    this.#sweep.unref();
  }

  readonly #track: (task: Promise<void>) => void;

  /** Stores the change and shows the invoker what will be sent, with Confirm and Cancel. */
  async prompt(
    interaction: Prompted,
    invocation: Invocation,
    spec: AnyChangeSpec,
    parameters: object,
  ): Promise<void> {
    const { journal, answers } = this.#deps;
    const checking = spec.precheck?.(parameters, {
      config: this.#deps.config,
      logger: invocation.logger,
      store: this.#deps.store,
    });
    // A look-up first (the store, a DNS query): what answers at once gets the prompt as the first
    // response; anything slower is acknowledged first, so Discord's deadline never waits for it.
    let deferred = false;
    if (checking instanceof Promise) {
      const quick = await Promise.race([
        checking.then(
          () => true,
          () => true,
        ),
        sleep(PRECHECK_INLINE_MS, false),
      ]);
      if (!quick) {
        await answers.acknowledge(invocation, interaction.deferReply({ flags: MessageFlags.Ephemeral }));
        deferred = true;
      }
    }
    const checked = (await checking) ?? parameters;
    const requester = {
      id: invocation.userId,
      name: invocation.userName,
      guildId: invocation.guildId,
      channelId: invocation.channelId,
      locale: invocation.locale,
    };
    const record = await journal.open(invocation.label, spec, checked, requester, invocation.correlationId);
    const t = translator(invocation.locale);
    const preview = spec.preview(checked, t);
    const expires = time(record.expiresAt, TimestampStyles.RelativeTime);
    const body: MessageBody & { files?: PreviewFile[] } = {
      embeds: [
        {
          ...previewEmbed(preview, t, Colour.warning),
          description: t('changes.prompt.description', { expires }),
        },
      ],
      components: [promptButtons(record.id, false, t)],
      ...(preview.files ? { files: preview.files } : {}),
    };
    const shown = withAttachments(this.#sandboxed(body, t));
    if (deferred) await interaction.editReply(shown);
    else await answers.acknowledge(invocation, interaction.reply(ephemeral(shown)));
    const delay = record.expiresAt.getTime() - this.#deps.now().getTime();
    const timer = setTimeout(() => this.#track(this.#expire(record.id)), Math.max(0, delay));
    timer.unref();
    this.#prompts.set(record.id, { timer, interaction });
    invocation.logger.info({ change: record.id, operation: record.operation }, 'change prompted');
  }

  async confirm(interaction: ButtonInteraction, id: string): Promise<void> {
    const found = await this.#load(interaction, id, 'confirm');
    if (!found) return;
    const { record, spec, invocation } = found;
    const t = presserT(interaction);
    if (this.#draining) {
      // The record stays pending: after the restart the same button works.
      await interaction.reply(ephemeral({ content: notSent(t) }));
      return;
    }
    if (record.state !== 'pending') {
      await interaction.reply(ephemeral({ content: closedMessage(record, t) }));
      return;
    }
    if (record.expiresAt.getTime() <= this.#deps.now().getTime()) {
      await this.#expire(record.id);
      await interaction.reply(ephemeral({ content: closedMessage({ ...record, state: 'expired' }, t) }));
      return;
    }
    try {
      // Roles or channel rules may have changed while the prompt was open.
      checkGates(interaction, spec.tier, this.#deps.config.access, record.command);
    } catch (error) {
      await this.#deps.answers.fail(interaction, invocation, error, false);
      return;
    }
    try {
      if (await this.#deps.approvals.requires(record.command)) {
        if (!this.#deps.approvalsHere) throw approvalNotHere(record.command);
        await this.#requestApproval(interaction, record, spec, invocation);
        return;
      }
    } catch (error) {
      await this.#deps.answers.fail(interaction, invocation, error);
      return;
    }
    if (!(await this.#deps.journal.claim(record, spec))) {
      await interaction.reply(ephemeral({ content: closedMessage({ ...record, state: 'sending' }, t) }));
      return;
    }
    this.#forgetPrompt(record.id);
    await this.#send(interaction, record, spec, invocation);
  }

  /**
   * Confirmed, but a second person must approve: the record waits in `awaiting_approval` (secrets
   * still kept: nothing has been sent) and a public request with Approve and Reject is posted.
   */
  async #requestApproval(
    interaction: ButtonInteraction,
    record: ChangeRecord,
    spec: AnyChangeSpec,
    invocation: Invocation,
  ): Promise<void> {
    const { journal, config, messages, answers } = this.#deps;
    const channelId = config.approval.channelId ?? record.channelId ?? interaction.channelId;
    const expiresAt = new Date(this.#deps.now().getTime() + config.approval.timeoutMs);
    if (!(await journal.awaitApproval(record, expiresAt, { channelId }))) {
      await interaction.reply(
        ephemeral({
          content: closedMessage({ ...record, state: 'awaiting_approval' }, presserT(interaction)),
        }),
      );
      return;
    }
    this.#forgetPrompt(record.id);
    const waiting = { ...record, state: 'awaiting_approval' as const, expiresAt };
    // The prompt being edited is the requester's, in their language.
    const t = translator(record.locale);
    await interaction.update({
      embeds: [previewEmbed(shownPreview(waiting, spec, t), t, Colour.info, t('changes.approval.posting'))],
      components: [],
    });
    let messageId: string;
    try {
      messageId = await messages.post(channelId, this.#approvalRequest(waiting, spec));
    } catch (error) {
      // Without a request nobody can approve: withdraw it rather than leave it waiting unseen.
      await journal.decide(waiting, spec, 'rejected', {
        channelId,
        reason: 'approval request could not be posted',
      });
      await answers.fail(interaction, invocation, error);
      return;
    }
    await journal.noteApproval(waiting, { channelId, messageId });
    const link = `https://discord.com/channels/${record.guildId ?? '@me'}/${channelId}/${messageId}`;
    await answers.safely(invocation, () =>
      interaction.editReply({
        embeds: [
          previewEmbed(
            shownPreview(waiting, spec, t),
            t,
            Colour.info,
            t('changes.approval.pending', {
              tier: spec.tier,
              channel: channelMention(channelId),
              link,
              expires: time(expiresAt, TimestampStyles.RelativeTime),
            }),
          ),
        ],
        components: [],
      }),
    );
    invocation.logger.info(
      { change: record.id, channel: channelId, message: messageId },
      'approval requested',
    );
  }

  /** The public approval request (and its later states), in the channel's language. */
  #approvalRequest(record: ChangeRecord, spec: AnyChangeSpec, status?: string, open = true): MessageBody {
    const t = this.#channelT;
    const description =
      status ??
      t('changes.approval.requested', {
        requester: userMention(record.requestedById),
        name: escapeUserText(record.requestedByName, 40),
        tier: spec.tier,
        expires: time(record.expiresAt, TimestampStyles.RelativeTime),
      });
    const shown = shownPreview(record, spec, t);
    return {
      embeds: [
        {
          ...previewEmbed(shown, t, open ? Colour.warning : Colour.neutral, description),
          title: t('changes.approval.title', { title: shown.title }),
          footer: { text: t('changes.approval.footer', { id: record.correlationId }) },
        },
      ],
      components: open
        ? [
            actionRow(
              actionButton('approve', record.id, t('changes.button.approve'), ButtonStyle.Success),
              actionButton('reject', record.id, t('changes.button.reject'), ButtonStyle.Danger),
            ),
          ]
        : [],
    };
  }

  /** BOT_LOCALE: for what the whole channel reads. */
  get #channelT(): Translator {
    return translator(this.#deps.config.botLocale);
  }

  /** Approve: anyone with the command's tier except the requester; one click wins, once. */
  async approve(interaction: ButtonInteraction, id: string): Promise<void> {
    const { journal, specs, config, answers } = this.#deps;
    // Answers only the approver sees are in their language.
    const t = presserT(interaction);
    const record = await journal.get(id);
    const spec = record && specs.get(record.command);
    if (!record || !spec) {
      await interaction.reply(ephemeral({ content: t('changes.unknown_change') }));
      return;
    }
    const invocation = this.#invocation(record);
    if (record.requestedById === interaction.user.id) {
      await interaction.reply(ephemeral({ content: t('changes.approval.own_change') }));
      return;
    }
    if (this.#draining) {
      await interaction.reply(ephemeral({ content: notSent(t) }));
      return;
    }
    if (record.state !== 'awaiting_approval') {
      await interaction.reply(ephemeral({ content: decidedMessage(record, t) }));
      return;
    }
    if (record.expiresAt.getTime() <= this.#deps.now().getTime()) {
      await this.#expire(record.id, record);
      await interaction.reply(ephemeral({ content: decidedMessage({ ...record, state: 'expired' }, t) }));
      return;
    }
    try {
      // The approver's roles as they are now; the request may be anywhere the team chose to post it.
      checkGates(interaction, spec.tier, config.access, record.command, { anyChannel: true });
    } catch (error) {
      await answers.fail(interaction, { ...invocation, locale: t.locale }, error, false);
      return;
    }
    const approver = { id: interaction.user.id, name: interaction.user.username, locale: t.locale };
    if (!(await journal.approve(record, spec, approver))) {
      await interaction.reply(ephemeral({ content: decidedMessage({ ...record, state: 'sending' }, t) }));
      return;
    }
    invocation.logger.info({ change: record.id, approver: approver.id }, 'change approved');
    // Its end is the requester's change and the approver's act: the audit row names both.
    const acted = { ...invocation, actedBy: { id: approver.id, name: approver.name } };
    await this.#send(interaction, { ...record, state: 'sending' }, spec, acted, approver);
  }

  /** Reject: an approver, or the requester withdrawing; the reason comes from a modal (optional). */
  async reject(interaction: ButtonInteraction | ModalSubmitInteraction, id: string): Promise<void> {
    const { journal, specs, config, answers, messages } = this.#deps;
    // The modal and the answers are for the one who pressed; the request's new status is public.
    const t = presserT(interaction);
    const record = await journal.get(id);
    const spec = record && specs.get(record.command);
    if (!record || !spec) {
      await interaction.reply(ephemeral({ content: t('changes.unknown_change') }));
      return;
    }
    const invocation = this.#invocation(record);
    if (record.state !== 'awaiting_approval') {
      await interaction.reply(ephemeral({ content: decidedMessage(record, t) }));
      return;
    }
    const withdrawing = record.requestedById === interaction.user.id;
    if (!withdrawing) {
      try {
        checkGates(interaction, spec.tier, config.access, record.command, { anyChannel: true });
      } catch (error) {
        await answers.fail(interaction, { ...invocation, locale: t.locale }, error, false);
        return;
      }
    }
    if (interaction.isButton()) {
      await interaction.showModal(rejectModal(record.id, t));
      return;
    }
    const reason = interaction.fields.getTextInputValue('reason').trim();
    const by = { id: interaction.user.id, name: interaction.user.username };
    const decision = { ...(record.approval ?? {}), rejectedById: by.id, rejectedByName: by.name, reason };
    if (!(await journal.decide(record, spec, 'rejected', decision))) {
      await interaction.reply(ephemeral({ content: decidedMessage({ ...record, state: 'rejected' }, t) }));
      return;
    }
    const mention = userMention(by.id);
    const status = reason
      ? this.#channelT(
          withdrawing ? 'changes.approval.withdrawn_because' : 'changes.approval.rejected_because',
          {
            by: mention,
            reason: escapeUserText(reason, 300),
          },
        )
      : this.#channelT(withdrawing ? 'changes.approval.withdrawn' : 'changes.approval.rejected', {
          by: mention,
        });
    await answers.safely(invocation, () =>
      interaction.reply(
        ephemeral({
          content: t(withdrawing ? 'changes.approval.withdrawn_reply' : 'changes.approval.rejected_reply'),
        }),
      ),
    );
    await this.#editApproval(record, spec, status, invocation, messages);
    await answers.finish(
      withdrawing ? invocation : { ...invocation, actedBy: by },
      'rejected',
      withdrawing ? 'withdrawn' : `rejected by ${by.name}`,
    );
  }

  async #editApproval(
    record: ChangeRecord,
    spec: AnyChangeSpec,
    status: string,
    invocation: Invocation,
    messages: BotMessages,
  ): Promise<void> {
    const { channelId, messageId } = (record.approval ?? {}) as { channelId?: string; messageId?: string };
    if (!channelId || !messageId) return;
    await this.#deps.answers.safely(invocation, () =>
      messages.edit(channelId, messageId, this.#approvalRequest(record, spec, status, false)),
    );
  }

  async cancel(interaction: ButtonInteraction, id: string): Promise<void> {
    const found = await this.#load(interaction, id, 'cancel');
    if (!found) return;
    const { record, spec, invocation } = found;
    if (record.state !== 'pending' || !(await this.#deps.journal.close(record, spec, 'cancelled'))) {
      await interaction.reply(ephemeral({ content: closedMessage(record, presserT(interaction)) }));
      return;
    }
    this.#forgetPrompt(record.id);
    const t = translator(record.locale);
    await interaction.update({
      embeds: [previewEmbed(shownPreview(record, spec, t), t, Colour.neutral, t('changes.prompt.cancelled'))],
      components: [],
    });
    await this.#deps.answers.finish(invocation, 'cancelled');
  }

  /** Send again: a repeatable change whose outcome was unknown. */
  async sendAgain(interaction: ButtonInteraction, id: string): Promise<void> {
    const found = await this.#load(interaction, id, 'send_again');
    if (!found) return;
    const { record, spec, invocation } = found;
    const t = presserT(interaction);
    if (this.#draining) {
      await interaction.reply(ephemeral({ content: notSent(t) }));
      return;
    }
    try {
      checkGates(interaction, spec.tier, this.#deps.config.access, record.command);
    } catch (error) {
      await this.#deps.answers.fail(interaction, invocation, error, false);
      return;
    }
    if (!spec.repeatable || record.state !== 'unknown' || !(await this.#deps.journal.resend(record))) {
      await interaction.reply(ephemeral({ content: closedMessage(record, t) }));
      return;
    }
    await this.#send(interaction, { ...record, state: 'sending' }, spec, invocation);
  }

  /** Try again: the same change as a new prompt, after a read-back showed it did not happen. */
  async tryAgain(interaction: ButtonInteraction, id: string): Promise<void> {
    const found = await this.#load(interaction, id, 'try_again');
    if (!found) return;
    const { record, spec } = found;
    // A new prompt, in the language the requester uses now.
    const invocation = { ...this.#invocation(record, interaction), locale: presserT(interaction).locale };
    try {
      if (this.#draining) throw restarting();
      checkGates(interaction, spec.tier, this.#deps.config.access, record.command);
      await this.prompt(interaction, invocation, spec, record.parameters);
    } catch (error) {
      await this.#deps.answers.fail(interaction, invocation, error);
    }
  }

  /**
   * Ends every overdue pending change, and every change whose sending replica is gone, once
   * (whichever replica gets there first), and records it.
   */
  async sweep(): Promise<void> {
    try {
      for (const record of await this.#deps.journal.overdue()) await this.#expire(record.id, record);
      const live = await this.#deps.liveReplicas();
      for (const record of await this.#deps.journal.orphans(live)) {
        const invocation = this.#invocation(record);
        invocation.logger.warn(
          { change: record.id },
          'the replica sending this change stopped; outcome unknown',
        );
        await this.#deps.answers.finish(invocation, 'unknown', 'replica stopped');
        // Its prompt still says "Sending…" and only the dead replica could have edited it: the channel
        // is told instead, naming the requester, so nobody sends it again blindly.
        if (record.channelId) {
          const t = this.#channelT;
          await this.#deps.messages
            .post(record.channelId, {
              content: t('changes.orphan.unknown', {
                requester: userMention(record.requestedById),
                command: record.command,
                target: record.target ?? '',
                reference: t('errors.reference', { id: record.correlationId }),
              }),
            })
            .catch((error: unknown) => {
              invocation.logger.warn({ err: error }, 'could not post the unknown outcome');
            });
        }
      }
    } catch (error) {
      this.#deps.logger.warn({ err: error }, 'could not sweep expired changes');
    }
  }

  /**
   * Shutdown: prompts stay open (their records outlive the process); new confirmations are turned
   * away. Returns the changes still waiting for the provider.
   */
  startDraining(): void {
    this.#draining = true;
    clearInterval(this.#sweep);
    for (const { timer } of this.#prompts.values()) clearTimeout(timer);
    this.#prompts.clear();
  }

  /** Out of time: a change still waiting for the provider was sent, so its outcome is unknown. */
  async abandonSending(): Promise<void> {
    const abandoned = [...this.#sending.values()];
    this.#sending.clear();
    await Promise.all(
      abandoned.map(async ({ interaction, record, spec, invocation, t }) => {
        await this.#deps.journal.settle(record, 'sending', 'unknown', { reason: 'shutdown' });
        const status = t('changes.outcome.shutdown', {
          reference: t('errors.reference', { id: record.correlationId }),
        });
        await this.#deps.answers.safely(invocation, () =>
          interaction.editReply({
            embeds: [previewEmbed(shownPreview(record, spec, t), t, Colour.danger, status)],
            components: [],
          }),
        );
        await this.#deps.answers.finish(invocation, 'unknown', 'shutdown');
      }),
    );
  }

  /**
   * Sends a claimed change and answers where it was confirmed: in the invoker's prompt, or — approved —
   * on the public approval request, where the private part (a password, say) goes only to the approver.
   */
  async #send(
    interaction: ButtonInteraction,
    record: ChangeRecord,
    spec: AnyChangeSpec,
    invocation: Invocation,
    approver?: Approver,
  ): Promise<void> {
    const { journal, answers } = this.#deps;
    // Approved, the answers go into the public request; otherwise into the requester's prompt.
    const t = approver ? this.#channelT : translator(record.locale);
    const shown = shownPreview(record, spec, t);
    const sending = approver
      ? t('changes.approval.sending', { approver: userMention(approver.id) })
      : t('changes.prompt.sending');
    try {
      // If Discord no longer accepts this click, the user never saw it confirmed: nothing is sent.
      const body = approver
        ? this.#approvalRequest(record, spec, sending, false)
        : { embeds: [previewEmbed(shown, t, Colour.info, sending)], components: [] };
      await interaction.update(body);
    } catch (error) {
      invocation.logger.warn({ err: error }, 'confirmation could not be acknowledged; change not sent');
      await journal.settle(record, 'sending', 'failed', { reason: 'not acknowledged', sent: false });
      await answers.finish(invocation, 'failed', 'not acknowledged');
      return;
    }
    invocation.logger.info(
      { change: record.id, operation: record.operation, sent: masked(spec, record.parameters) },
      'change confirmed, sending',
    );
    this.#sending.set(record.id, { interaction, record, spec, invocation, t });
    let outcome: ChangeOutcome;
    try {
      // The private part of the outcome goes to whoever confirmed: the requester, or the approver.
      const parameters = journal.sendable(record, spec);
      outcome = await spec.send(parameters, this.#sendContext(record, approver?.locale));
    } catch (error) {
      await this.#failed(interaction, record, spec, invocation, error, t);
      return;
    }
    // Gone from #sending means a forced shutdown already recorded and told the owner.
    if (!this.#sending.delete(record.id)) return;
    if (!(await journal.settle(record, 'sending', 'done', outcome.result ?? {}))) {
      await this.#leaseLost(interaction, record, spec, invocation, t, 'done', outcome.private);
      return;
    }
    invocation.logger.info({ change: record.id }, 'change applied');
    await this.#remember(record, spec, 'done', invocation);
    const channelT = this.#channelT;
    if (approver) {
      const done = channelT('changes.approval.done', {
        requester: userMention(record.requestedById),
        approver: userMention(approver.id),
      });
      await answers.safely(invocation, () =>
        interaction.editReply(this.#approvalRequest(record, spec, done, false)),
      );
      await answers.safely(invocation, () =>
        interaction.followUp(ephemeral(this.#sandboxed(outcome.private, translator(approver.locale)))),
      );
      await answers.safely(invocation, () =>
        interaction.followUp({
          ...this.#sandboxed(outcome.public, channelT),
          content: channelT('changes.approval.public_record', {
            content: outcome.public.content ?? '',
            approver: userMention(approver.id),
          }).trim(),
        }),
      );
    } else {
      await answers.safely(invocation, () =>
        interaction.editReply({ ...this.#sandboxed(outcome.private, t), components: [] }),
      );
      await answers.safely(invocation, () => interaction.followUp(this.#sandboxed(outcome.public, channelT)));
    }
    await answers.finish(invocation, 'done', approver ? `approved by ${approver.name}` : null);
  }

  async #failed(
    interaction: ButtonInteraction,
    record: ChangeRecord,
    spec: AnyChangeSpec,
    invocation: Invocation,
    error: unknown,
    t: Translator,
  ): Promise<void> {
    const { journal, answers } = this.#deps;
    const description = describeError(error, record.correlationId, t);
    answers.log(invocation, error, description.unexpected);
    if (!this.#sending.delete(record.id)) return;
    const state = sentState(error, spec);
    const kind = error instanceof HostingApiError ? error.kind : 'internal';
    const settled = await journal.settle(record, 'sending', state, {
      error: kind,
      status: error instanceof HostingApiError ? (error.status ?? null) : null,
    });
    if (!settled) {
      await this.#leaseLost(interaction, record, spec, invocation, t, state);
      return;
    }
    if (state === 'unknown') await this.#remember(record, spec, 'unknown', invocation);
    const shown = shownPreview(record, spec, t);
    let status = description.message;
    const components: APIActionRowComponent<APIButtonComponent>[] = [];
    if (state === 'unknown' && spec.readBack) {
      status += `\n${t('changes.read_back.checking')}`;
    } else if (state === 'unknown' && spec.repeatable) {
      status = t('changes.outcome.repeatable_unknown', {
        reason: unknownReason(error, t),
        reference: t('errors.reference', { id: record.correlationId }),
      });
      components.push(
        actionRow(actionButton('again', record.id, t('changes.button.send_again'), ButtonStyle.Primary)),
      );
    }
    await answers.safely(invocation, () =>
      interaction.editReply({ embeds: [previewEmbed(shown, t, Colour.danger, status)], components }),
    );
    await answers.finish(invocation, state, kind);
    if (state === 'unknown' && spec.readBack) {
      this.#track(this.#readBack(interaction, record, spec, invocation, t));
    }
  }

  /** What a change keeps beyond its record; never fails the change (it was sent). */
  async #remember(
    record: ChangeRecord,
    spec: AnyChangeSpec,
    outcome: 'done' | 'unknown',
    invocation: Invocation,
  ): Promise<void> {
    if (!spec.remember) return;
    try {
      await spec.remember(record, outcome, { store: this.#deps.store, now: this.#deps.now });
    } catch (error) {
      invocation.logger.error({ err: error, change: record.id }, 'could not remember the sent change');
    }
  }

  /**
   * Revert on a change's public record: a new, ordinary prompt (diff, Confirm, approval, journal, audit)
   * for what undoes it, as whoever pressed — who needs the change's tier.
   */
  async revert(interaction: ButtonInteraction, id: string): Promise<void> {
    const { journal, specs, config, answers } = this.#deps;
    const t = presserT(interaction);
    const record = await journal.get(id);
    const spec = record && specs.get(record.command);
    if (!record || !spec?.revert) {
      await interaction.reply(ephemeral({ content: t('changes.unknown_change') }));
      return;
    }
    const invocation = this.#pressed(interaction, record.command);
    try {
      if (this.#draining) throw restarting();
      checkGates(interaction, spec.tier, config.access, record.command);
      const parameters = await spec.revert(record, { store: this.#deps.store, now: this.#deps.now });
      if (parameters === undefined) {
        await answers.acknowledge(
          invocation,
          interaction.reply(
            ephemeral({ content: t('changes.revert.nothing', { target: literal(record.target ?? '') }) }),
          ),
        );
        await answers.finish(invocation, 'ok', 'nothing to revert to');
        return;
      }
      await this.prompt(interaction, invocation, spec, parameters);
    } catch (error) {
      await answers.fail(interaction, invocation, error);
    }
  }

  /** A new invocation of a change's command by whoever pressed one of its buttons. */
  #pressed(interaction: ButtonInteraction, label: string): Invocation {
    const correlationId = newCorrelationId();
    return {
      label,
      correlationId,
      userId: interaction.user.id,
      userName: interaction.user.username,
      guildId: interaction.guildId,
      channelId: interaction.channelId,
      startedAt: performance.now(),
      locale: presserT(interaction).locale,
      changing: true,
      logger: this.#deps.logger.child({ cid: correlationId, command: label, user: interaction.user.id }),
    };
  }

  /**
   * The provider answered, but this replica no longer held the change's lease: another one found it
   * stalled, recorded `unknown`, audited it and told the channel. That stays the one outcome on record;
   * the prompt says the same, and what only this replica has (a generated password) still reaches the
   * one who confirmed, privately.
   */
  async #leaseLost(
    interaction: ButtonInteraction,
    record: ChangeRecord,
    spec: AnyChangeSpec,
    invocation: Invocation,
    t: Translator,
    answered: SentState,
    privatePart?: ReplyBody,
  ): Promise<void> {
    const { answers } = this.#deps;
    invocation.logger.warn(
      { change: record.id, answered },
      'lease lost while sending: another replica recorded the outcome as unknown',
    );
    const status = t('changes.outcome.lease_lost', {
      reference: t('errors.reference', { id: record.correlationId }),
    });
    await answers.safely(invocation, () =>
      interaction.editReply({
        embeds: [previewEmbed(shownPreview(record, spec, t), t, Colour.danger, status)],
        components: [],
      }),
    );
    if (privatePart) {
      await answers.safely(invocation, () =>
        interaction.followUp(ephemeral(this.#sandboxed(privatePart, t))),
      );
    }
  }

  /** After an unknown outcome: a few reads over up to two minutes, then the answer is edited. */
  async #readBack(
    interaction: ButtonInteraction,
    record: ChangeRecord,
    spec: AnyChangeSpec,
    invocation: Invocation,
    t: Translator,
  ): Promise<void> {
    const readBack = spec.readBack;
    if (!readBack) return;
    const { journal, answers } = this.#deps;
    const shown = shownPreview(record, spec, t);
    const delays = this.#deps.readBackDelaysMs ?? DEFAULT_READ_BACK_DELAYS_MS;
    // Only a read that finds the change settles it early: a registry can take a while to show a new
    // domain, so "not applied" is settled only when the last read of the window still says so.
    let lastRead: boolean | undefined;
    for (const delay of delays) {
      await sleep(delay, undefined, { ref: false });
      if (this.#draining) return;
      try {
        lastRead = await readBack.verify(record.parameters, this.#sendContext(record));
      } catch (error) {
        lastRead = undefined;
        invocation.logger.info({ err: error, change: record.id }, 'read-back could not tell yet');
        continue;
      }
      if (lastRead) break;
      invocation.logger.info({ change: record.id }, 'read-back: not applied yet');
    }
    if (lastRead !== undefined) {
      const applied = lastRead;
      const to: SentState = applied ? 'done' : 'failed';
      if (!(await journal.settle(record, 'unknown', to, { readBack: applied ? 'applied' : 'not applied' }))) {
        return;
      }
      invocation.logger.info({ change: record.id, applied }, 'unknown outcome resolved by read-back');
      const text = applied
        ? readBack.applied(record.parameters, t)
        : readBack.notApplied(record.parameters, t);
      const components = applied
        ? []
        : [actionRow(actionButton('retry', record.id, t('changes.button.try_again'), ButtonStyle.Primary))];
      await answers.safely(invocation, () =>
        interaction.editReply({
          embeds: [previewEmbed(shown, t, applied ? Colour.success : Colour.neutral, `**${text}**`)],
          components,
        }),
      );
      if (applied) {
        // In the channel: its language, whatever the prompt's.
        const channelT = this.#channelT;
        await answers.safely(invocation, () =>
          interaction.followUp({
            content: channelT('changes.read_back.took_effect', {
              requester: userMention(record.requestedById),
              title: TITLE_IN_SENTENCE[channelT.locale](shownPreview(record, spec, channelT).title),
              text: readBack.applied(record.parameters, channelT),
            }),
          }),
        );
      }
      await answers.finish({ ...invocation, startedAt: performance.now() }, to, 'read-back');
      return;
    }
    const status = t('changes.read_back.still_unknown', {
      count: delays.length,
      reference: t('errors.reference', { id: record.correlationId }),
    });
    await answers.safely(invocation, () =>
      interaction.editReply({ embeds: [previewEmbed(shown, t, Colour.danger, status)], components: [] }),
    );
  }

  async #expire(id: string, known?: ChangeRecord): Promise<void> {
    const { journal, answers, specs } = this.#deps;
    const record = known ?? (await journal.get(id));
    const spec = record && specs.get(record.command);
    if (!record || !spec) return;
    if (record.state === 'awaiting_approval') {
      if (!(await journal.decide(record, spec, 'expired', record.approval ?? {}))) return;
      const invocation = this.#invocation(record);
      await this.#editApproval(
        record,
        spec,
        this.#channelT('changes.approval.expired'),
        invocation,
        this.#deps.messages,
      );
      await answers.finish(invocation, 'expired', 'approval timed out');
      return;
    }
    if (record.state !== 'pending') return;
    if (!(await journal.close(record, spec, 'expired'))) return;
    const invocation = this.#invocation(record);
    const prompt = this.#prompts.get(id);
    this.#forgetPrompt(id);
    if (prompt) {
      const t = translator(record.locale);
      await answers.safely(invocation, () =>
        prompt.interaction.editReply({
          embeds: [
            previewEmbed(shownPreview(record, spec, t), t, Colour.neutral, t('changes.prompt.expired')),
          ],
          components: [promptButtons('x', true, t)],
        }),
      );
    }
    await answers.finish(invocation, 'expired');
  }

  /** The record behind a button, if it exists and the presser may use it. */
  async #load(
    interaction: ButtonInteraction,
    id: string,
    action: RequesterAction,
  ): Promise<{ record: ChangeRecord; spec: AnyChangeSpec; invocation: Invocation } | undefined> {
    const record = await this.#deps.journal.get(id);
    const spec = record && this.#deps.specs.get(record.command);
    const t = presserT(interaction);
    if (!record || !spec) {
      await interaction.reply(ephemeral({ content: t('changes.unknown_change.run_again') }));
      return undefined;
    }
    if (record.requestedById !== interaction.user.id) {
      await interaction.reply(
        ephemeral({
          content: t(`changes.only_requester.${action}`, { requester: userMention(record.requestedById) }),
        }),
      );
      return undefined;
    }
    return { record, spec, invocation: this.#invocation(record) };
  }

  /** A change picked up from its record: its requester, its correlation id, its age. */
  #invocation(record: ChangeRecord, interaction?: ButtonInteraction): Invocation {
    const age = this.#deps.now().getTime() - record.createdAt.getTime();
    return {
      label: record.command,
      correlationId: record.correlationId,
      userId: record.requestedById,
      userName: record.requestedByName,
      guildId: record.guildId,
      channelId: interaction?.channelId ?? record.channelId,
      startedAt: performance.now() - Math.max(0, age),
      locale: record.locale,
      logger: this.#deps.logger.child({
        cid: record.correlationId,
        command: record.command,
        change: record.id,
      }),
      changing: true,
      target: record.target,
      parameters: this.#deps.specs.has(record.command)
        ? masked(this.#deps.specs.get(record.command) as AnyChangeSpec, record.parameters)
        : record.parameters,
      changeId: record.id,
    };
  }

  /** `locale`: of whoever gets the private outcome; the requester's unless an approver confirmed. */
  #sendContext(record: ChangeRecord, locale: Locale = record.locale): SendContext {
    const { hosting, logger, secrets, generatePassword } = this.#deps;
    return {
      hosting,
      logger,
      secrets,
      generatePassword,
      correlationId: record.correlationId,
      changeId: record.id,
      requesterId: record.requestedById,
      t: translator(locale),
      channelT: this.#channelT,
    };
  }

  #sandboxed<T extends { content?: string }>(body: T, t: Translator): T {
    return withSandboxNotice(body, this.#deps.config.hosting.sandbox, t);
  }

  #forgetPrompt(id: string): void {
    const prompt = this.#prompts.get(id);
    if (prompt) clearTimeout(prompt.timer);
    this.#prompts.delete(id);
  }
}

/** A sent change's state from its error: unknown only where the request may have been carried out. */
function sentState(error: unknown, spec: AnyChangeSpec): SentState {
  if (!(error instanceof HostingApiError)) return 'failed';
  if (error.kind === 'outcome_unknown') return 'unknown';
  // A PUT that timed out may have been applied; being idempotent, it can simply be sent again.
  if (spec.repeatable && error.kind === 'timeout') return 'unknown';
  return 'failed';
}

/** The buttons only the requester may press, as their catalogue keys name them. */
type RequesterAction = 'confirm' | 'cancel' | 'send_again' | 'try_again';

/** Ephemeral answers to a click are for the one who clicked, in their client's language. */
function presserT(interaction: Prompted): Translator {
  return translator(pickLocale(interaction.locale));
}

/** "Not sent: HostOps is restarting; …" */
function notSent(t: Translator): string {
  return t('changes.not_sent', { reason: restarting().text });
}

/**
 * A preview's title inside a sentence ("… set reverse dns took effect after all"): lower case in
 * English, quoted where nouns keep their capitals. Every language needs an entry.
 */
const TITLE_IN_SENTENCE: Record<Locale, (title: string) => string> = {
  en: (title) => title.toLowerCase(),
  de: (title) => `„${title}“`,
};

/** Why the outcome of a repeatable change is unknown, in the reader's language. */
function unknownReason(error: unknown, t: Translator): string {
  if (!(error instanceof HostingApiError)) return error instanceof Error ? error.message : 'no answer';
  if (error.kind === 'timeout' && error.timeoutMs !== undefined) {
    return t('changes.outcome.no_answer', { seconds: seconds(error.timeoutMs) });
  }
  return outcomeUnknownReason(error, t);
}

const CLOSED: Record<ChangeRecord['state'], MessageKey> = {
  pending: 'changes.closed.confirmed',
  sending: 'changes.closed.confirmed',
  done: 'changes.closed.confirmed',
  failed: 'changes.closed.confirmed',
  unknown: 'changes.closed.confirmed',
  cancelled: 'changes.closed.cancelled',
  expired: 'changes.closed.expired',
  awaiting_approval: 'changes.closed.awaiting_approval',
  rejected: 'changes.closed.rejected',
};

/** Why a prompt's button no longer does anything. */
export function closedMessage(record: Pick<ChangeRecord, 'state'>, t: Translator): string {
  return t.render({ key: CLOSED[record.state] });
}

/** Why an approval request's button no longer does anything. */
export function decidedMessage(record: Pick<ChangeRecord, 'state'>, t: Translator): string {
  switch (record.state) {
    case 'awaiting_approval':
      return t('changes.decided.awaiting_approval');
    case 'expired':
      return t('changes.decided.expired');
    case 'rejected':
    case 'cancelled':
      return t('changes.decided.rejected');
    default:
      return t('changes.decided.approved');
  }
}

function rejectModal(id: string, t: Translator): APIModalInteractionResponseCallbackData {
  return {
    title: t('changes.reject_modal.title'),
    custom_id: customId('reject', id),
    components: [
      {
        type: ComponentType.ActionRow,
        components: [
          {
            type: ComponentType.TextInput,
            custom_id: 'reason',
            label: t('changes.reject_modal.reason'),
            style: TextInputStyle.Paragraph,
            required: false,
            max_length: 300,
          },
        ],
      },
    ],
  };
}

/** What the record shows once it has left `pending`: secrets masked, in the reader's language. */
function shownPreview(record: ChangeRecord, spec: AnyChangeSpec, t: Translator): ChangePreview {
  return spec.preview(masked(spec, record.parameters), t);
}

export function previewEmbed(
  preview: ChangePreview,
  t: Translator,
  color: number,
  status?: string,
): APIEmbed {
  return {
    title: preview.title,
    color,
    fields: preview.fields.slice(0, 25).map(({ name, value, inline }) => ({
      name,
      value: fieldValue(value, t),
      inline: inline ?? false,
    })),
    ...(status ? { description: status } : {}),
  };
}

export function promptButtons(
  id: string,
  disabled: boolean,
  t: Translator,
): APIActionRowComponent<APIButtonComponent> {
  return actionRow(
    actionButton('confirm', id, t('changes.button.confirm'), ButtonStyle.Danger, disabled),
    actionButton('cancel', id, t('changes.button.cancel'), ButtonStyle.Secondary, disabled),
  );
}
