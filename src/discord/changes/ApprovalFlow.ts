import {
  type ButtonInteraction,
  channelMention,
  type ModalSubmitInteraction,
  TimestampStyles,
  time,
  userMention,
} from 'discord.js';
import { type Message, translator } from '../../i18n/Translator.js';
import { Colour } from '../../replies/colours.js';
import { escapeUserText } from '../../replies/escapeUserText.js';
import type { ChangeRecord } from '../../store/index.js';
import { ephemeral, type Invocation } from '../Answers.js';
import type { AnyChangeSpec, PreparedChange } from '../CommandModule.js';
import type { ChangeFlowState } from './ChangeFlowState.js';
import type { ChangeSender } from './ChangeSender.js';
import type { ClickGuard } from './ClickGuard.js';
import {
  approvalRequest,
  closedMessage,
  decidedMessage,
  notClaimed,
  presserT,
  previewEmbed,
  rejectModal,
  requestedLine,
  shownPreview,
} from './renderChange.js';

/**
 * Two-person approval: a confirmed change that APPROVAL_REQUIRED lists waits in `awaiting_approval`
 * (secrets still sealed: nothing has been sent) behind a public request with Approve and Reject;
 * anyone with the command's tier but the requester approves, once, and the approval sends it.
 */
export class ApprovalFlow {
  constructor(
    private readonly state: ChangeFlowState,
    private readonly guard: ClickGuard,
    private readonly sender: ChangeSender,
  ) {}

  /** Confirmed, but a second person must approve: the request is posted, the prompt says where. */
  async request(
    interaction: ButtonInteraction,
    record: ChangeRecord,
    spec: AnyChangeSpec,
    invocation: Invocation,
  ): Promise<void> {
    const { state } = this;
    const { journal, config, messages, answers } = state.deps;
    const channelId = config.approval.channelId ?? record.channelId ?? interaction.channelId;
    const expiresAt = new Date(state.deps.now().getTime() + config.approval.timeoutMs);
    let waitsNow: boolean;
    try {
      waitsNow = await journal.awaitApproval(record, expiresAt, { channelId });
    } catch (error) {
      // Undecided: not taken as confirmed; nothing is done and the requester may press Confirm again.
      invocation.logger.warn({ err: error, change: record.id }, 'could not put the change up for approval');
      const t = presserT(interaction);
      await interaction.reply(
        ephemeral({
          content: t('changes.undecided', {
            pressAgain: t('changes.press_again', { button: t('changes.button.confirm') }),
          }),
        }),
      );
      return;
    }
    if (!waitsNow) {
      await interaction.reply(
        ephemeral({
          content: closedMessage({ ...record, state: 'awaiting_approval' }, presserT(interaction)),
        }),
      );
      return;
    }
    state.forgetPrompt(record.id);
    const waiting = { ...record, state: 'awaiting_approval' as const, expiresAt };
    // The prompt being edited is the requester's, in their language.
    const t = translator(record.locale);
    const shown = shownPreview(waiting, t);
    await interaction.update({
      embeds: [previewEmbed(shown, t, Colour.info, t('changes.approval.posting'))],
      components: [],
    });
    let messageId: string;
    try {
      messageId = await messages.post(channelId, approvalRequest(waiting, spec, state.channelT));
    } catch (error) {
      // Without a request nobody can approve: withdraw it rather than leave it waiting unseen. It ends
      // `rejected`, in the journal and the audit trail alike; the requester is told why.
      const reason = 'approval request could not be posted';
      const ended = answers.ending(invocation, 'rejected', reason);
      const withdrawn = await journal.ends.decide(waiting, spec, 'rejected', { channelId, reason }, ended);
      await answers.fail(interaction, invocation, error, false);
      if (withdrawn) await answers.finish(invocation, 'rejected', reason, true);
      return;
    }
    // Where the request is serves its later edits only: a store that refuses it loses nothing else.
    await journal.noteApproval(waiting, { channelId, messageId }).catch((error: unknown) => {
      invocation.logger.warn(
        { err: error, change: record.id },
        'could not note where the approval request is',
      );
    });
    const link = `https://discord.com/channels/${record.guildId ?? '@me'}/${channelId}/${messageId}`;
    const where = {
      channel: channelMention(channelId),
      link,
      expires: time(expiresAt, TimestampStyles.RelativeTime),
    };
    const pending = spec.approvedBy
      ? t('changes.approval.pending_holder', where)
      : t('changes.approval.pending', { ...where, tier: spec.tier });
    await answers.safely(invocation, () =>
      interaction.editReply({ embeds: [previewEmbed(shown, t, Colour.info, pending)], components: [] }),
    );
    invocation.logger.info(
      { change: record.id, channel: channelId, message: messageId },
      'approval requested',
    );
    // An elevation's life is in the audit trail from its request on (its approval or rejection ends it).
    if (spec.approvedBy) await answers.note(invocation, 'requested');
  }

  /** Approve: anyone with the command's tier except the requester; one click wins, once. */
  async approve(interaction: ButtonInteraction, id: string): Promise<void> {
    const click = await this.guard.check(interaction, id, 'approve');
    if (!click) return;
    const { record, spec, invocation, t } = click;
    const approver = { id: interaction.user.id, name: interaction.user.username, locale: t.locale };
    const claim = await this.state.deps.journal.approve(record, spec, approver);
    if (claim !== 'claimed') {
      const sending = { ...record, state: 'sending' as const };
      const content = notClaimed(claim, sending, 'changes.button.approve', decidedMessage, t);
      await interaction.reply(ephemeral({ content }));
      return;
    }
    invocation.logger.info({ change: record.id, approver: approver.id }, 'change approved');
    // Its end is the requester's change and the approver's act: the audit row names both.
    const acted = { ...invocation, actedBy: { id: approver.id, name: approver.name } };
    await this.sender.send(interaction, { ...record, state: 'sending' }, spec, acted, { approver });
  }

  /**
   * Approved, but what the request showed no longer held (the sender's recheck): that change ended with
   * nothing sent. The same request message now shows the change made against what holds now, with `why`
   * above it: a new change, from the same requester, waiting for an approval of its own until the old
   * request's deadline.
   */
  async reoffer(
    interaction: ButtonInteraction,
    old: ChangeRecord,
    spec: AnyChangeSpec,
    invocation: Invocation,
    { made, why }: { made: PreparedChange<object>; why: Message },
  ): Promise<void> {
    const { journal, answers } = this.state.deps;
    const t = this.state.channelT;
    const requester = {
      id: old.requestedById,
      name: old.requestedByName,
      guildId: old.guildId,
      channelId: old.channelId,
      locale: old.locale,
    };
    const record = await journal.open(old.command, spec, made, requester, old.correlationId);
    const { channelId, messageId } = (old.approval ?? {}) as { channelId?: string; messageId?: string };
    const approval = { channelId, messageId };
    const waiting = { ...record, state: 'awaiting_approval' as const, expiresAt: old.expiresAt, approval };
    const open = await journal.awaitApproval(record, old.expiresAt, approval);
    const status = open
      ? `${t.render(why)}\n\n${requestedLine(waiting, spec, t)}`
      : `${t.render(why)}\n\n${t('changes.approval.expired')}`;
    await answers.safely(invocation, () =>
      interaction.editReply(approvalRequest(waiting, spec, t, status, open)),
    );
    invocation.logger.info({ change: record.id, replaces: old.id }, 'approval requested anew');
  }

  /** Reject: an approver, or the requester withdrawing; the reason comes from a form (optional). */
  async reject(interaction: ButtonInteraction | ModalSubmitInteraction, id: string): Promise<void> {
    const click = await this.guard.check(interaction, id, 'reject');
    if (!click) return;
    const { record, spec, invocation, t } = click;
    if (interaction.isButton()) {
      await interaction.showModal(rejectModal(record.id, t));
      return;
    }
    const { journal, answers } = this.state.deps;
    const withdrawing = record.requestedById === interaction.user.id;
    const reason = interaction.fields.getTextInputValue('reason').trim();
    const by = { id: interaction.user.id, name: interaction.user.username };
    const decision = { ...(record.approval ?? {}), rejectedById: by.id, rejectedByName: by.name, reason };
    const acted = withdrawing ? invocation : { ...invocation, actedBy: by };
    const detail = withdrawing ? 'withdrawn' : `rejected by ${by.name}`;
    const ended = answers.ending(acted, 'rejected', detail);
    if (!(await journal.ends.decide(record, spec, 'rejected', decision, ended))) {
      await interaction.reply(ephemeral({ content: decidedMessage({ ...record, state: 'rejected' }, t) }));
      return;
    }
    const channelT = this.state.channelT;
    const mention = userMention(by.id);
    const status = reason
      ? channelT(withdrawing ? 'changes.approval.withdrawn_because' : 'changes.approval.rejected_because', {
          by: mention,
          reason: escapeUserText(reason, 300),
        })
      : channelT(withdrawing ? 'changes.approval.withdrawn' : 'changes.approval.rejected', { by: mention });
    await answers.safely(invocation, () =>
      interaction.reply(
        ephemeral({
          content: t(withdrawing ? 'changes.approval.withdrawn_reply' : 'changes.approval.rejected_reply'),
        }),
      ),
    );
    await this.editRequest(record, spec, status, invocation);
    await answers.finish(acted, 'rejected', detail, true);
  }

  /** The request, closed, with what became of it. */
  async editRequest(
    record: ChangeRecord,
    spec: AnyChangeSpec,
    status: string,
    invocation: Invocation,
  ): Promise<void> {
    const { channelId, messageId } = (record.approval ?? {}) as { channelId?: string; messageId?: string };
    if (!channelId || !messageId) return;
    const { answers, messages } = this.state.deps;
    await answers.safely(invocation, () =>
      messages.edit(channelId, messageId, approvalRequest(record, spec, this.state.channelT, status, false)),
    );
  }
}
