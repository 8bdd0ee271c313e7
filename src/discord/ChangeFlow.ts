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
  type ModalSubmitInteraction,
  TextInputStyle,
  TimestampStyles,
  time,
  userMention,
} from 'discord.js';
import { type ChangeJournal, masked, type SentState } from '../changes/ChangeJournal.js';
import type { Config } from '../config.js';
import { HostingApiError } from '../hosting/HostingApiError.js';
import type { HostingClient } from '../hosting/HostingClient.js';
import type { Logger, SecretRegistry } from '../logger.js';
import type { ChangeRecord } from '../store/index.js';
import { type Answers, ephemeral, type Invocation } from './Answers.js';
import { checkGates } from './access.js';
import type {
  AnyChangeSpec,
  ChangeOutcome,
  ChangePreview,
  PreviewFile,
  SendContext,
} from './CommandModule.js';
import { describeError } from './describeError.js';
import { Colour } from './render/colours.js';
import { escapeUserText } from './render/escapeUserText.js';
import { fieldValue } from './render/fieldValue.js';
import { withSandboxNotice } from './render/sandboxNotice.js';
import { RefusalError } from './UserError.js';
import { withAttachments } from './withAttachments.js';

export interface ChangeFlowDeps {
  journal: ChangeJournal;
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

/** Posting and editing messages as the bot, in any channel it can see. */
export interface BotMessages {
  post(channelId: string, body: MessageBody): Promise<string>;
  edit(channelId: string, messageId: string, body: MessageBody): Promise<void>;
}

export interface MessageBody {
  content?: string;
  embeds?: APIEmbed[];
  components?: APIActionRowComponent<APIButtonComponent>[];
  /** Default: nobody. */
  allowed_mentions?: { parse: []; roles?: string[] };
}

/** Who approved a change, for the public record and the audit trail. */
interface Approver {
  id: string;
  name: string;
}

type Prompted = ChatInputCommandInteraction | ModalSubmitInteraction | ButtonInteraction;

interface Sending {
  interaction: ButtonInteraction;
  record: ChangeRecord;
  spec: AnyChangeSpec;
  invocation: Invocation;
}

export const RESTARTING = 'HostOps is restarting; try again in a minute.';
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
    const requester = {
      id: invocation.userId,
      name: invocation.userName,
      guildId: invocation.guildId,
      channelId: invocation.channelId,
    };
    const record = await journal.open(
      invocation.label,
      spec,
      parameters,
      requester,
      invocation.correlationId,
    );
    const preview = spec.preview(parameters);
    const expires = time(record.expiresAt, TimestampStyles.RelativeTime);
    const body: MessageBody & { files?: PreviewFile[] } = {
      embeds: [
        {
          ...previewEmbed(preview, Colour.warning),
          description: `Nothing is sent until you press **Confirm**. This prompt expires ${expires}.`,
        },
      ],
      components: [promptButtons(record.id, false)],
      ...(preview.files ? { files: preview.files } : {}),
    };
    await answers.acknowledge(
      invocation,
      interaction.reply(ephemeral(withAttachments(this.#sandboxed(body)))),
    );
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
    if (this.#draining) {
      // The record stays pending: after the restart the same button works.
      await interaction.reply(ephemeral({ content: `Not sent: ${RESTARTING}` }));
      return;
    }
    if (record.state !== 'pending') {
      await interaction.reply(ephemeral({ content: closedMessage(record) }));
      return;
    }
    if (record.expiresAt.getTime() <= this.#deps.now().getTime()) {
      await this.#expire(record.id);
      await interaction.reply(ephemeral({ content: closedMessage({ ...record, state: 'expired' }) }));
      return;
    }
    try {
      // Roles or channel rules may have changed while the prompt was open.
      checkGates(interaction, spec.tier, this.#deps.config.access, record.command);
    } catch (error) {
      await this.#deps.answers.fail(interaction, invocation, error, false);
      return;
    }
    if (this.#deps.config.approval.required.includes(record.command)) {
      await this.#requestApproval(interaction, record, spec, invocation);
      return;
    }
    if (!(await this.#deps.journal.claim(record, spec))) {
      await interaction.reply(ephemeral({ content: closedMessage({ ...record, state: 'sending' }) }));
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
        ephemeral({ content: closedMessage({ ...record, state: 'awaiting_approval' }) }),
      );
      return;
    }
    this.#forgetPrompt(record.id);
    const waiting = { ...record, state: 'awaiting_approval' as const, expiresAt };
    await interaction.update({
      embeds: [previewEmbed(shownPreview(waiting, spec), Colour.info, 'Posting the approval request…')],
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
            shownPreview(waiting, spec),
            Colour.info,
            `**Approval pending** — nothing is sent until someone else with the **${spec.tier}** tier approves ` +
              `the request in ${channelMention(channelId)}: ${link}. It expires ${time(expiresAt, TimestampStyles.RelativeTime)}.`,
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

  #approvalRequest(record: ChangeRecord, spec: AnyChangeSpec, status?: string, open = true): MessageBody {
    const expires = time(record.expiresAt, TimestampStyles.RelativeTime);
    const description =
      status ??
      `Requested by ${userMention(record.requestedById)} (${escapeUserText(record.requestedByName, 40)}). ` +
        `Any member with the **${spec.tier}** tier except them may approve; it expires ${expires}.`;
    return {
      embeds: [
        {
          ...previewEmbed(shownPreview(record, spec), open ? Colour.warning : Colour.neutral, description),
          title: `Approval needed: ${shownPreview(record, spec).title}`,
          footer: { text: `Reference ${record.correlationId}` },
        },
      ],
      components: open
        ? [
            row(
              button('approve', record.id, 'Approve', ButtonStyle.Success),
              button('reject', record.id, 'Reject', ButtonStyle.Danger),
            ),
          ]
        : [],
    };
  }

  /** Approve: anyone with the command's tier except the requester; one click wins, once. */
  async approve(interaction: ButtonInteraction, id: string): Promise<void> {
    const { journal, specs, config, answers } = this.#deps;
    const record = await journal.get(id);
    const spec = record && specs.get(record.command);
    if (!record || !spec) {
      await interaction.reply(ephemeral({ content: 'This change is no longer known.' }));
      return;
    }
    const invocation = this.#invocation(record);
    if (record.requestedById === interaction.user.id) {
      await interaction.reply(
        ephemeral({
          content: 'You asked for this change: someone else has to approve it. Nothing was sent.',
        }),
      );
      return;
    }
    if (this.#draining) {
      await interaction.reply(ephemeral({ content: `Not sent: ${RESTARTING}` }));
      return;
    }
    if (record.state !== 'awaiting_approval') {
      await interaction.reply(ephemeral({ content: decidedMessage(record) }));
      return;
    }
    if (record.expiresAt.getTime() <= this.#deps.now().getTime()) {
      await this.#expire(record.id, record);
      await interaction.reply(ephemeral({ content: decidedMessage({ ...record, state: 'expired' }) }));
      return;
    }
    try {
      // The approver's roles as they are now; the request may be anywhere the team chose to post it.
      checkGates(interaction, spec.tier, config.access, record.command, { anyChannel: true });
    } catch (error) {
      await answers.fail(interaction, invocation, error, false);
      return;
    }
    const approver = { id: interaction.user.id, name: interaction.user.username };
    if (!(await journal.approve(record, spec, approver))) {
      await interaction.reply(ephemeral({ content: decidedMessage({ ...record, state: 'sending' }) }));
      return;
    }
    invocation.logger.info({ change: record.id, approver: approver.id }, 'change approved');
    await this.#send(interaction, { ...record, state: 'sending' }, spec, invocation, approver);
  }

  /** Reject: an approver, or the requester withdrawing; the reason comes from a modal (optional). */
  async reject(interaction: ButtonInteraction | ModalSubmitInteraction, id: string): Promise<void> {
    const { journal, specs, config, answers, messages } = this.#deps;
    const record = await journal.get(id);
    const spec = record && specs.get(record.command);
    if (!record || !spec) {
      await interaction.reply(ephemeral({ content: 'This change is no longer known.' }));
      return;
    }
    const invocation = this.#invocation(record);
    if (record.state !== 'awaiting_approval') {
      await interaction.reply(ephemeral({ content: decidedMessage(record) }));
      return;
    }
    const withdrawing = record.requestedById === interaction.user.id;
    if (!withdrawing) {
      try {
        checkGates(interaction, spec.tier, config.access, record.command, { anyChannel: true });
      } catch (error) {
        await answers.fail(interaction, invocation, error, false);
        return;
      }
    }
    if (interaction.isButton()) {
      await interaction.showModal(rejectModal(record.id));
      return;
    }
    const reason = interaction.fields.getTextInputValue('reason').trim();
    const by = { id: interaction.user.id, name: interaction.user.username };
    const decision = { ...(record.approval ?? {}), rejectedById: by.id, rejectedByName: by.name, reason };
    if (!(await journal.decide(record, spec, 'rejected', decision))) {
      await interaction.reply(ephemeral({ content: decidedMessage({ ...record, state: 'rejected' }) }));
      return;
    }
    const verb = withdrawing ? 'Withdrawn' : 'Rejected';
    const why = reason ? `: ${escapeUserText(reason, 300)}` : '';
    const status = `**${verb}** by ${userMention(by.id)}${why}. Nothing was sent.`;
    await answers.safely(invocation, () =>
      interaction.reply(ephemeral({ content: `${verb}. Nothing was sent.` })),
    );
    await this.#editApproval(record, spec, status, invocation, messages);
    await answers.finish(invocation, 'rejected', withdrawing ? 'withdrawn' : `rejected by ${by.name}`);
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
      await interaction.reply(ephemeral({ content: closedMessage(record) }));
      return;
    }
    this.#forgetPrompt(record.id);
    await interaction.update({
      embeds: [previewEmbed(shownPreview(record, spec), Colour.neutral, 'Cancelled — nothing was sent.')],
      components: [],
    });
    await this.#deps.answers.finish(invocation, 'cancelled');
  }

  /** Send again: a repeatable change whose outcome was unknown. */
  async sendAgain(interaction: ButtonInteraction, id: string): Promise<void> {
    const found = await this.#load(interaction, id, 'send again');
    if (!found) return;
    const { record, spec, invocation } = found;
    if (this.#draining) {
      await interaction.reply(ephemeral({ content: `Not sent: ${RESTARTING}` }));
      return;
    }
    try {
      checkGates(interaction, spec.tier, this.#deps.config.access, record.command);
    } catch (error) {
      await this.#deps.answers.fail(interaction, invocation, error, false);
      return;
    }
    if (!spec.repeatable || record.state !== 'unknown' || !(await this.#deps.journal.resend(record))) {
      await interaction.reply(ephemeral({ content: closedMessage(record) }));
      return;
    }
    await this.#send(interaction, { ...record, state: 'sending' }, spec, invocation);
  }

  /** Try again: the same change as a new prompt, after a read-back showed it did not happen. */
  async tryAgain(interaction: ButtonInteraction, id: string): Promise<void> {
    const found = await this.#load(interaction, id, 'try again');
    if (!found) return;
    const { record, spec } = found;
    const invocation = this.#invocation(record, interaction);
    try {
      if (this.#draining) throw new RefusalError(RESTARTING, 'shutting_down');
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
      abandoned.map(async ({ interaction, record, spec, invocation }) => {
        await this.#deps.journal.settle(record, 'sending', 'unknown', { reason: 'shutdown' });
        const status =
          '**Outcome unknown** — HostOps had to restart before the provider answered; the request was sent. ' +
          `Check before trying again. Reference: \`${record.correlationId}\`.`;
        await this.#deps.answers.safely(invocation, () =>
          interaction.editReply({
            embeds: [previewEmbed(shownPreview(record, spec), Colour.danger, status)],
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
    const shown = shownPreview(record, spec);
    const sending = approver ? `Approved by ${userMention(approver.id)} — sending…` : 'Sending…';
    try {
      // If Discord no longer accepts this click, the user never saw it confirmed: nothing is sent.
      const body = approver
        ? this.#approvalRequest(record, spec, sending, false)
        : { embeds: [previewEmbed(shown, Colour.info, sending)], components: [] };
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
    this.#sending.set(record.id, { interaction, record, spec, invocation });
    let outcome: ChangeOutcome;
    try {
      outcome = await spec.send(record.parameters, this.#sendContext(record));
    } catch (error) {
      await this.#failed(interaction, record, spec, invocation, error);
      return;
    }
    // Gone from #sending means a forced shutdown already recorded and told the owner.
    if (!this.#sending.delete(record.id)) return;
    await journal.settle(record, 'sending', 'done', outcome.result ?? {});
    invocation.logger.info({ change: record.id }, 'change applied');
    if (approver) {
      const done = `**Done** — requested by ${userMention(record.requestedById)}, approved by ${userMention(approver.id)}.`;
      await answers.safely(invocation, () =>
        interaction.editReply(this.#approvalRequest(record, spec, done, false)),
      );
      await answers.safely(invocation, () =>
        interaction.followUp(ephemeral(this.#sandboxed(outcome.private))),
      );
      await answers.safely(invocation, () =>
        interaction.followUp({
          ...this.#sandboxed(outcome.public),
          content: `${outcome.public.content ?? ''} (approved by ${userMention(approver.id)})`.trim(),
        }),
      );
    } else {
      await answers.safely(invocation, () =>
        interaction.editReply({ ...this.#sandboxed(outcome.private), components: [] }),
      );
      await answers.safely(invocation, () => interaction.followUp(this.#sandboxed(outcome.public)));
    }
    await answers.finish(invocation, 'done', approver ? `approved by ${approver.name}` : null);
  }

  async #failed(
    interaction: ButtonInteraction,
    record: ChangeRecord,
    spec: AnyChangeSpec,
    invocation: Invocation,
    error: unknown,
  ): Promise<void> {
    const { journal, answers } = this.#deps;
    const description = describeError(error, record.correlationId);
    answers.log(invocation, error, description.unexpected);
    if (!this.#sending.delete(record.id)) return;
    const state = sentState(error, spec);
    const kind = error instanceof HostingApiError ? error.kind : 'internal';
    await journal.settle(record, 'sending', state, {
      error: kind,
      status: error instanceof HostingApiError ? (error.status ?? null) : null,
    });
    const shown = shownPreview(record, spec);
    let status = description.message;
    const components: APIActionRowComponent<APIButtonComponent>[] = [];
    if (state === 'unknown' && spec.readBack) {
      status += '\nChecking with the provider whether it took effect…';
    } else if (state === 'unknown' && spec.repeatable) {
      status = `**Outcome unknown** — ${error instanceof Error ? error.message : 'no answer'}. This change is safe to send again. Reference: \`${record.correlationId}\`.`;
      components.push(row(button('again', record.id, 'Send again', ButtonStyle.Primary)));
    }
    await answers.safely(invocation, () =>
      interaction.editReply({ embeds: [previewEmbed(shown, Colour.danger, status)], components }),
    );
    await answers.finish(invocation, state, kind);
    if (state === 'unknown' && spec.readBack) {
      this.#track(this.#readBack(interaction, record, spec, invocation));
    }
  }

  /** After an unknown outcome: a few reads over up to two minutes, then the answer is edited. */
  async #readBack(
    interaction: ButtonInteraction,
    record: ChangeRecord,
    spec: AnyChangeSpec,
    invocation: Invocation,
  ): Promise<void> {
    const readBack = spec.readBack;
    if (!readBack) return;
    const { journal, answers } = this.#deps;
    const shown = shownPreview(record, spec);
    for (const delay of this.#deps.readBackDelaysMs ?? DEFAULT_READ_BACK_DELAYS_MS) {
      await sleep(delay, undefined, { ref: false });
      if (this.#draining) return;
      let applied: boolean;
      try {
        applied = await readBack.verify(record.parameters, this.#sendContext(record));
      } catch (error) {
        invocation.logger.info({ err: error, change: record.id }, 'read-back could not tell yet');
        continue;
      }
      const to: SentState = applied ? 'done' : 'failed';
      if (!(await journal.settle(record, 'unknown', to, { readBack: applied ? 'applied' : 'not applied' }))) {
        return;
      }
      invocation.logger.info({ change: record.id, applied }, 'unknown outcome resolved by read-back');
      const text = applied ? readBack.applied(record.parameters) : readBack.notApplied(record.parameters);
      const components = applied ? [] : [row(button('retry', record.id, 'Try again', ButtonStyle.Primary))];
      await answers.safely(invocation, () =>
        interaction.editReply({
          embeds: [previewEmbed(shown, applied ? Colour.success : Colour.neutral, `**${text}**`)],
          components,
        }),
      );
      if (applied) {
        await answers.safely(invocation, () =>
          interaction.followUp({
            content: `${userMention(record.requestedById)}: ${shown.title.toLowerCase()} took effect after all — ${text}`,
          }),
        );
      }
      await answers.finish({ ...invocation, startedAt: performance.now() }, to, 'read-back');
      return;
    }
    const status =
      `**Outcome still unknown** after ${(this.#deps.readBackDelaysMs ?? DEFAULT_READ_BACK_DELAYS_MS).length} checks. ` +
      `Check before trying again; \`/audit outcome:unknown\` lists it. Reference: \`${record.correlationId}\`.`;
    await answers.safely(invocation, () =>
      interaction.editReply({ embeds: [previewEmbed(shown, Colour.danger, status)], components: [] }),
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
        '**Expired** — nobody approved it in time. Nothing was sent.',
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
      await answers.safely(invocation, () =>
        prompt.interaction.editReply({
          embeds: [
            previewEmbed(
              shownPreview(record, spec),
              Colour.neutral,
              'Expired — nothing was sent. Run the command again.',
            ),
          ],
          components: [promptButtons('x', true)],
        }),
      );
    }
    await answers.finish(invocation, 'expired');
  }

  /** The record behind a button, if it exists and the presser may use it. */
  async #load(
    interaction: ButtonInteraction,
    id: string,
    action: string,
  ): Promise<{ record: ChangeRecord; spec: AnyChangeSpec; invocation: Invocation } | undefined> {
    const record = await this.#deps.journal.get(id);
    const spec = record && this.#deps.specs.get(record.command);
    if (!record || !spec) {
      await interaction.reply(
        ephemeral({ content: 'This change is no longer known. Run the command again.' }),
      );
      return undefined;
    }
    if (record.requestedById !== interaction.user.id) {
      await interaction.reply(
        ephemeral({ content: `Only ${userMention(record.requestedById)} can ${action} this change.` }),
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

  #sendContext(record: ChangeRecord): SendContext {
    const { hosting, logger, secrets, generatePassword } = this.#deps;
    return {
      hosting,
      logger,
      secrets,
      generatePassword,
      correlationId: record.correlationId,
      requesterId: record.requestedById,
    };
  }

  #sandboxed<T extends { content?: string }>(body: T): T {
    return withSandboxNotice(body, this.#deps.config.hosting.sandbox);
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

function closedMessage(record: Pick<ChangeRecord, 'state'>): string {
  switch (record.state) {
    case 'pending':
    case 'sending':
    case 'done':
    case 'failed':
    case 'unknown':
      return 'This confirmation is no longer open: the change was already confirmed.';
    case 'cancelled':
      return 'This confirmation is no longer open: it was cancelled; nothing was sent.';
    case 'expired':
      return 'This confirmation is no longer open: it expired; nothing was sent. Run the command again.';
    case 'awaiting_approval':
      return 'This change was already confirmed and waits for approval.';
    case 'rejected':
      return 'This change was rejected; nothing was sent.';
  }
}

function decidedMessage(record: Pick<ChangeRecord, 'state'>): string {
  switch (record.state) {
    case 'awaiting_approval':
      return 'This change still waits for approval.';
    case 'expired':
      return 'This approval request expired; nothing was sent.';
    case 'rejected':
    case 'cancelled':
      return 'This change was rejected or withdrawn; nothing was sent.';
    default:
      return 'This change was already approved.';
  }
}

function rejectModal(id: string): APIModalInteractionResponseCallbackData {
  return {
    title: 'Reject this change',
    custom_id: `hostops:reject:${id}`,
    components: [
      {
        type: ComponentType.ActionRow,
        components: [
          {
            type: ComponentType.TextInput,
            custom_id: 'reason',
            label: 'Reason (optional)',
            style: TextInputStyle.Paragraph,
            required: false,
            max_length: 300,
          },
        ],
      },
    ],
  };
}

/** What the record shows once it has left `pending`: secrets masked. */
function shownPreview(record: ChangeRecord, spec: AnyChangeSpec): ChangePreview {
  return spec.preview(masked(spec, record.parameters));
}

export function previewEmbed(preview: ChangePreview, color: number, status?: string): APIEmbed {
  return {
    title: preview.title,
    color,
    fields: preview.fields.slice(0, 25).map(({ name, value, inline }) => ({
      name,
      value: fieldValue(value),
      inline: inline ?? false,
    })),
    ...(status ? { description: status } : {}),
  };
}

type ActionStyle = ButtonStyle.Primary | ButtonStyle.Secondary | ButtonStyle.Success | ButtonStyle.Danger;

function button(action: string, id: string, label: string, style: ActionStyle, disabled = false) {
  return {
    type: ComponentType.Button,
    style,
    label,
    custom_id: `hostops:${action}:${id}`,
    disabled,
  } as const satisfies APIButtonComponent;
}

function row(...components: APIButtonComponent[]): APIActionRowComponent<APIButtonComponent> {
  return { type: ComponentType.ActionRow, components };
}

function promptButtons(id: string, disabled: boolean): APIActionRowComponent<APIButtonComponent> {
  return row(
    button('confirm', id, 'Confirm', ButtonStyle.Danger, disabled),
    button('cancel', id, 'Cancel', ButtonStyle.Secondary, disabled),
  );
}
