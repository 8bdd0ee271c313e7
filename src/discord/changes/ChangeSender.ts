import {
  type APIActionRowComponent,
  type APIButtonComponent,
  type ButtonInteraction,
  ButtonStyle,
  userMention,
} from 'discord.js';
import type { SentState } from '../../changes/ChangeEnds.js';
import { changeData } from '../../changes/changeData.js';
import { masked } from '../../changes/masked.js';
import { HostingApiError } from '../../hosting/HostingApiError.js';
import { type Message, type Translator, translator } from '../../i18n/Translator.js';
import { Colour } from '../../replies/colours.js';
import { approvalNotHere, RefusalError } from '../../replies/UserError.js';
import type { ChangeRecord } from '../../store/index.js';
import { ephemeral, type Invocation } from '../Answers.js';
import { answerDeadline } from '../answerDeadline.js';
import type { AnyChangeSpec, ChangeOutcome, PreparedChange } from '../CommandModule.js';
import { describeError } from '../describeError.js';
import { actionButton, actionRow } from '../render/actionButton.js';
import { abandonSending } from './abandonSending.js';
import type { Approver, ChangeFlowState, Sending } from './ChangeFlowState.js';
import type { ClickGuard } from './ClickGuard.js';
import { readBackChange } from './readBackChange.js';
import {
  approvalRequest,
  closedMessage,
  notClaimed,
  notSent,
  statusBody,
  unknownReason,
} from './renderChange.js';
import { NOT_SENT, settleOutcome } from './settleOutcome.js';
import { tellNotRecorded } from './tellNotRecorded.js';

/**
 * A sent change's state from its error: unknown wherever the request may have been carried out (the
 * client says so of any attempt that may have reached the provider, a PUT's retries included).
 */
function sentState(error: unknown): SentState {
  return error instanceof HostingApiError && error.kind === 'outcome_unknown' ? 'unknown' : 'failed';
}

/** Confirmed, but a second person must approve (ApprovalFlow): nothing is sent yet. */
type RequestApproval = (
  interaction: ButtonInteraction,
  record: ChangeRecord,
  spec: AnyChangeSpec,
  invocation: Invocation,
) => Promise<void>;

/**
 * What a change's recheck found no longer holds: the change made anew against what does, offered where it
 * was confirmed — a new prompt for the requester, or (approved) an updated approval request.
 */
type OfferAnew = (
  interaction: ButtonInteraction,
  record: ChangeRecord,
  spec: AnyChangeSpec,
  invocation: Invocation,
  outdated: { made: PreparedChange<object>; why: Message },
  approver?: Approver,
) => Promise<void>;

/** The audit detail and journal reason of a change not sent because what it was made against changed. */
const OUTDATED = 'outdated';

/**
 * Confirm, and what follows it: claims the change, sends it, and settles its outcome — done, failed, or
 * unknown (then read back, or offered to be sent again) — each told where it was confirmed, once.
 */
export class ChangeSender {
  constructor(
    private readonly state: ChangeFlowState,
    private readonly guard: ClickGuard,
    private readonly requestApproval: RequestApproval,
    private readonly offerAnew: OfferAnew,
  ) {}

  /** The requester's Confirm: sent at once, or — where APPROVAL_REQUIRED lists it — put up for approval. */
  async confirm(interaction: ButtonInteraction, id: string): Promise<void> {
    const click = await this.guard.check(interaction, id, 'confirm');
    if (!click) return;
    const { record, spec, invocation, t } = click;
    const { approvals, approvalsHere, answers, journal } = this.state.deps;
    try {
      if (spec.approvedBy || (await approvals.requires(record.command))) {
        if (!approvalsHere) throw approvalNotHere(record.command, spec.approvedBy !== undefined);
        await this.requestApproval(interaction, record, spec, invocation);
        return;
      }
    } catch (error) {
      await answers.fail(interaction, invocation, error);
      return;
    }
    const claim = await journal.claim(record, spec);
    if (claim !== 'claimed') {
      const sending = { ...record, state: 'sending' as const };
      const content = notClaimed(claim, sending, 'changes.button.confirm', closedMessage, t);
      await interaction.reply(ephemeral({ content }));
      return;
    }
    this.state.forgetPrompt(record.id);
    await this.send(interaction, record, spec, invocation);
  }

  /**
   * Answers where the change was confirmed: in the invoker's prompt, or — approved — on the public
   * approval request, where the private part (a password, say) goes only to the approver. Unless
   * `recheck` is false (Send again: the same change once more), what the prompt showed is checked again
   * first (`spec.recheck`).
   */
  async send(
    interaction: ButtonInteraction,
    record: ChangeRecord,
    spec: AnyChangeSpec,
    invocation: Invocation,
    { approver, recheck = true }: { approver?: Approver; recheck?: boolean } = {},
  ): Promise<void> {
    const { state } = this;
    const { journal, answers } = state.deps;
    const pressedAt = performance.now();
    // Approved, the answers go into the public request; otherwise into the requester's prompt.
    const t = approver ? state.channelT : translator(record.locale);
    const sending = approver
      ? t('changes.approval.sending', { approver: userMention(approver.id) })
      : t('changes.prompt.sending');
    // Held from here until it is settled: a give-up at shutdown, and this replica's sweep, judge it by
    // whether it was handed to the connection.
    const held: Sending = { interaction, record, spec, invocation, t, handed: false };
    state.sending.set(record.id, held);
    try {
      // If Discord no longer accepts this click, the user never saw it confirmed: nothing is sent.
      await interaction.update(
        approver
          ? approvalRequest(record, spec, t, sending, false)
          : statusBody(record, t, Colour.info, sending),
      );
    } catch (error) {
      invocation.logger.warn({ err: error }, 'confirmation could not be acknowledged; change not sent');
      if (!state.sending.delete(record.id)) return;
      // Refused: this replica stalled, and another one has recorded (and told) the change's one outcome.
      const why = { reason: 'not acknowledged', sent: false };
      const settled = await settleOutcome(this.state, record, NOT_SENT, why, invocation, why.reason);
      if (settled === true) await answers.finish(invocation, NOT_SENT, 'not acknowledged', true);
      return;
    }
    if (recheck && !(await this.#stillHolds(interaction, record, spec, invocation, t, approver))) return;
    // Given up (shutdown) while it was checked again: recorded and told there, never sent.
    if (state.sending.get(record.id) !== held) return;
    if (!(await this.#handOver(interaction, record, spec, invocation, t, approver))) return;
    held.handed = true;
    invocation.logger.info(
      { change: record.id, operation: record.operation, sent: masked(spec, record.parameters) },
      'change confirmed, sending',
    );
    let outcome: ChangeOutcome;
    try {
      // The private part of the outcome goes to whoever confirmed: the requester, or the approver.
      const parameters = journal.sendable(record, spec);
      // The press's own token carries the outcome: a change waits for a connection only while it can.
      const answerBy = answerDeadline(pressedAt);
      const context = state.sendContext(record, approver?.locale, answerBy, approver?.id);
      outcome = await spec.send(parameters, context);
    } catch (error) {
      await this.#failed(interaction, record, spec, invocation, error, t);
      return;
    }
    // Gone from `sending` means a forced shutdown already recorded and told the owner.
    if (!state.sending.delete(record.id)) return;
    const detail = approver ? `approved by ${approver.name}` : null;
    const settled = await settleOutcome(this.state, record, 'done', outcome.result ?? {}, invocation, detail);
    if (settled !== true) {
      await tellNotRecorded(this.state, interaction, record, invocation, t, 'done', outcome.private, settled);
      return;
    }
    invocation.logger.info({ change: record.id }, 'change applied');
    // Its data goes with the private part: to whoever confirmed, the requester or the approver.
    answers.data(
      interaction,
      changeData(record, spec, 'done', { result: outcome.result ?? null, private: outcome.privateData }),
    );
    await this.#tellDone(interaction, record, spec, invocation, outcome, t, approver);
    await answers.finish(invocation, 'done', detail, true);
    if (outcome.note) await answers.note(invocation, outcome.note);
  }

  /**
   * Records that the request is about to be handed to the connection — the one boundary of "possibly
   * sent". If the store cannot record it (or another replica already ended the change), nothing is
   * sent: the change ends `failed`, never sent, and says so where it was confirmed.
   */
  async #handOver(
    interaction: ButtonInteraction,
    record: ChangeRecord,
    spec: AnyChangeSpec,
    invocation: Invocation,
    t: Translator,
    approver: Approver | undefined,
  ): Promise<boolean> {
    const { state } = this;
    const { journal, answers } = state.deps;
    let lost = false;
    try {
      if (await journal.handOver(record)) return true;
      // Another replica ended it meanwhile (its sweep found this one's lease gone): nothing to hold.
      lost = true;
      journal.release(record.id);
    } catch (error) {
      invocation.logger.warn({ err: error, change: record.id }, 'could not record the hand-over; not sent');
    }
    if (!state.sending.delete(record.id)) return false;
    const status = notSent(t, t('errors.store_undecided'));
    const settled = lost
      ? false
      : await settleOutcome(
          this.state,
          record,
          NOT_SENT,
          { reason: 'store', sent: false },
          invocation,
          'store',
        );
    await answers.safely(invocation, () =>
      interaction.editReply(
        approver
          ? approvalRequest(record, spec, t, status, false)
          : statusBody(record, t, Colour.danger, status),
      ),
    );
    if (settled === true) await answers.finish(invocation, NOT_SENT, 'store', true);
    return false;
  }

  async #tellDone(
    interaction: ButtonInteraction,
    record: ChangeRecord,
    spec: AnyChangeSpec,
    invocation: Invocation,
    outcome: ChangeOutcome,
    t: Translator,
    approver?: Approver,
  ): Promise<void> {
    const { state } = this;
    const { answers } = state.deps;
    const channelT = state.channelT;
    if (!approver) {
      await answers.safely(invocation, () =>
        interaction.editReply({ ...state.sandboxed(outcome.private, t), components: [] }),
      );
      await answers.safely(invocation, () => interaction.followUp(state.sandboxed(outcome.public, channelT)));
      return;
    }
    const done = channelT('changes.approval.done', {
      requester: userMention(record.requestedById),
      approver: userMention(approver.id),
    });
    await answers.safely(invocation, () =>
      interaction.editReply(approvalRequest(record, spec, channelT, done, false)),
    );
    await answers.safely(invocation, () =>
      interaction.followUp(ephemeral(state.sandboxed(outcome.private, translator(approver.locale)))),
    );
    await answers.safely(invocation, () =>
      interaction.followUp({
        ...state.sandboxed(outcome.public, channelT),
        content: channelT('changes.approval.public_record', {
          content: outcome.public.content ?? '',
          approver: userMention(approver.id),
        }).trim(),
      }),
    );
  }

  async #failed(
    interaction: ButtonInteraction,
    record: ChangeRecord,
    spec: AnyChangeSpec,
    invocation: Invocation,
    error: unknown,
    t: Translator,
  ): Promise<void> {
    const { state } = this;
    const { answers } = state.deps;
    const description = describeError(error, record.correlationId, t);
    answers.log(invocation, error, description.unexpected);
    if (!state.sending.delete(record.id)) return;
    const sent = sentState(error);
    const kind = error instanceof HostingApiError ? error.kind : 'internal';
    const result = { error: kind, status: error instanceof HostingApiError ? (error.status ?? null) : null };
    const settled = await settleOutcome(this.state, record, sent, result, invocation, kind);
    if (settled !== true) {
      await tellNotRecorded(this.state, interaction, record, invocation, t, sent, undefined, settled);
      return;
    }
    answers.data(interaction, changeData(record, spec, sent, { result: { error: kind } }));
    let status = description.message;
    const components: APIActionRowComponent<APIButtonComponent>[] = [];
    if (sent === 'unknown' && spec.readBack) {
      status += `\n${t('changes.read_back.checking')}`;
    } else if (sent === 'unknown' && spec.repeatable) {
      status = t('changes.outcome.repeatable_unknown', {
        reason: unknownReason(error, t),
        reference: t('errors.reference', { id: record.correlationId }),
      });
      components.push(
        actionRow(actionButton('again', record.id, t('changes.button.send_again'), ButtonStyle.Primary)),
      );
    }
    await answers.safely(invocation, () =>
      interaction.editReply(statusBody(record, t, Colour.danger, status, components)),
    );
    await answers.finish(invocation, sent, kind, true);
    if (sent === 'unknown' && spec.readBack) {
      state.track(readBackChange(state, interaction, record, spec, invocation, t));
    }
  }

  /**
   * What the prompt (or the approval request) showed, made again now that the change holds its target's
   * sending slot: true when it still holds. Otherwise nothing is sent and the change ends `failed` with
   * `sent: false`: offered anew where it was confirmed when what it was made against changed, or with
   * the refusal (a forward check that no longer confirms) shown there.
   */
  async #stillHolds(
    interaction: ButtonInteraction,
    record: ChangeRecord,
    spec: AnyChangeSpec,
    invocation: Invocation,
    t: Translator,
    approver: Approver | undefined,
  ): Promise<boolean> {
    if (!spec.recheck) return true;
    const { state } = this;
    const { journal, answers } = state.deps;
    let outdated: Awaited<ReturnType<NonNullable<AnyChangeSpec['recheck']>>>;
    try {
      outdated = await spec.recheck(journal.sendable(record, spec), state.prepareContext(invocation));
    } catch (error) {
      const description = describeError(error, record.correlationId, t);
      answers.log(invocation, error, description.unexpected);
      const reason = error instanceof RefusalError ? error.reason : 'internal';
      // Given up at shutdown meanwhile: recorded and told there.
      if (!state.sending.delete(record.id)) return false;
      const why = { reason, sent: false };
      const settled = await settleOutcome(this.state, record, NOT_SENT, why, invocation, reason);
      if (settled !== true) {
        invocation.logger.warn({ change: record.id, settled }, 'outcome not recorded after checking again');
        return false;
      }
      const status = description.message;
      await answers.safely(invocation, () =>
        interaction.editReply(
          approver
            ? approvalRequest(record, spec, t, status, false)
            : statusBody(record, t, Colour.danger, status),
        ),
      );
      answers.data(interaction, changeData(record, spec, NOT_SENT, { result: { error: reason } }));
      await answers.finish(invocation, NOT_SENT, reason, true);
      return false;
    }
    if (!outdated) return true;
    if (!state.sending.delete(record.id)) return false;
    const why = { reason: OUTDATED, sent: false };
    const settled = await settleOutcome(this.state, record, NOT_SENT, why, invocation, OUTDATED);
    if (settled !== true) {
      invocation.logger.warn({ change: record.id, settled }, 'outcome not recorded after checking again');
      return false;
    }
    invocation.logger.info(
      { change: record.id },
      'what the change was made against has changed: not sent, offered anew',
    );
    await this.offerAnew(interaction, record, spec, invocation, outdated, approver);
    await answers.finish(invocation, NOT_SENT, OUTDATED, true);
    return false;
  }

  /**
   * Shutdown, out of time: a change handed to the connection was sent, so its outcome is unknown; one
   * still before that boundary (its recheck, its acknowledgement) was not, so it ends `failed` (see
   * abandonSending).
   */
  abandonSending(): Promise<void> {
    return abandonSending(this.state);
  }
}
