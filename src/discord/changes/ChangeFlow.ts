import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  type ButtonInteraction,
  MessageFlags,
  type ModalSubmitInteraction,
  TimestampStyles,
  time,
} from 'discord.js';
import { changeData } from '../../changes/changeData.js';
import { type Message, translator } from '../../i18n/Translator.js';
import { Colour } from '../../replies/colours.js';
import { literal } from '../../replies/literal.js';
import type { MessageBody, PreviewFile } from '../../replies/ReplyBody.js';
import { approvalNotHere } from '../../replies/UserError.js';
import { ephemeral, type Invocation } from '../Answers.js';
import type { AnyChangeSpec, Preparing } from '../CommandModule.js';
import type { ChangeButton } from '../customId.js';
import { withAttachments } from '../withAttachments.js';
import { ApprovalFlow } from './ApprovalFlow.js';
import { type ChangeFlowDeps, ChangeFlowState, type Prompted } from './ChangeFlowState.js';
import { ChangeSender } from './ChangeSender.js';
import { ChangeSweeper } from './ChangeSweeper.js';
import { ClickGuard } from './ClickGuard.js';
import {
  closedMessage,
  notClaimed,
  previewEmbed,
  promptButtons,
  promptDescription,
  statusBody,
} from './renderChange.js';

/** What a change's button does when pressed: `id` is the change record's. */
export type ButtonHandler = (interaction: ButtonInteraction, id: string) => Promise<void>;

/**
 * Prompt → Confirm → send → outcome, on change records: everything a change does between the
 * command and its answer. State lives in the journal, so a prompt outlives a restart and a
 * double click or two replicas send once; what lives here is only this process's view of it
 * (ChangeFlowState). Each button passes the one ClickGuard before it acts.
 */
export class ChangeFlow {
  readonly #state: ChangeFlowState;
  readonly #guard: ClickGuard;
  readonly #sender: ChangeSender;
  readonly #approvals: ApprovalFlow;
  readonly #sweeper: ChangeSweeper;

  /**
   * Every button of a change by its custom-id action. The router hands a press straight to its handler:
   * Confirm goes from here to the sender, which asks the command to send.
   */
  readonly buttons: Readonly<Record<ChangeButton, ButtonHandler>>;

  constructor(deps: ChangeFlowDeps, track: (task: Promise<void>) => void) {
    this.#state = new ChangeFlowState(deps, track);
    this.#guard = new ClickGuard(this.#state, (record) => this.#sweeper.expire(record.id, record));
    this.#sender = new ChangeSender(
      this.#state,
      this.#guard,
      (...request) => this.#approvals.request(...request),
      (interaction, record, spec, invocation, { made, why }, approver) =>
        approver
          ? this.#approvals.reoffer(interaction, record, spec, invocation, { made, why })
          : this.prompt(interaction, invocation, spec, made, why),
    );
    this.#approvals = new ApprovalFlow(this.#state, this.#guard, this.#sender);
    this.#sweeper = new ChangeSweeper(this.#state, this.#approvals);
    const sender = this.#sender;
    const approvals = this.#approvals;
    this.buttons = {
      confirm: sender.confirm.bind(sender),
      cancel: this.#cancel.bind(this),
      again: this.#sendAgain.bind(this),
      retry: this.#tryAgain.bind(this),
      approve: approvals.approve.bind(approvals),
      reject: approvals.reject.bind(approvals),
      revert: this.#revert.bind(this),
    };
  }

  /** Stopping: the router turns new commands away too. */
  get draining(): boolean {
    return this.#state.draining;
  }

  /**
   * Stores the change as its command made it and shows the invoker what will be sent, with Confirm and
   * Cancel. Nothing after this asks the command about the change again until it is confirmed (`recheck`).
   * On an interaction already answered (a Confirm whose change no longer held), the prompt replaces that
   * answer, `note` above it saying why.
   */
  async prompt(
    interaction: Prompted,
    invocation: Invocation,
    spec: AnyChangeSpec,
    preparing: Preparing<object>,
    note?: Message,
  ): Promise<void> {
    const state = this.#state;
    const { journal, answers } = state.deps;
    // A look-up first (the store, a DNS query). What is at hand within this turn of the event loop
    // (the store's answer) goes into the prompt as the first response; anything that waits for I/O is
    // acknowledged first, so neither Discord's deadline nor the acknowledgement waits for it.
    let deferred = false;
    if (preparing instanceof Promise) {
      const settled = () => true;
      const quick = await Promise.race([preparing.then(settled, settled), nextTurn(false)]);
      if (!quick) {
        await answers.acknowledge(invocation, interaction.deferReply({ flags: MessageFlags.Ephemeral }));
        deferred = true;
      }
    }
    const made = await preparing;
    const requester = {
      id: invocation.userId,
      name: invocation.userName,
      guildId: invocation.guildId,
      channelId: invocation.channelId,
      locale: invocation.locale,
    };
    const record = await journal.open(invocation.label, spec, made, requester, invocation.correlationId);
    const t = translator(invocation.locale);
    const { preview } = made;
    const expires = time(record.expiresAt, TimestampStyles.RelativeTime);
    const description = promptDescription(t, expires);
    const body: MessageBody & { files?: PreviewFile[] } = {
      embeds: [
        {
          ...previewEmbed(preview, t, Colour.warning),
          description: note ? `${t.render(note)}\n\n${description}` : description,
        },
      ],
      components: [promptButtons(record.id, false, t)],
      ...(preview.files ? { files: preview.files } : {}),
    };
    const shown = withAttachments(state.sandboxed(body, t));
    if (deferred) await interaction.editReply(shown);
    // Replacing an answer: the files of the prompt it was go with it.
    else if (interaction.replied) await interaction.editReply({ ...shown, attachments: [] });
    else await answers.acknowledge(invocation, interaction.reply(ephemeral(shown)));
    const delay = record.expiresAt.getTime() - state.deps.now().getTime();
    const timer = setTimeout(() => state.track(this.#sweeper.expire(record.id)), Math.max(0, delay));
    timer.unref();
    state.prompts.set(record.id, { timer, interaction });
    answers.data(interaction, changeData(record, spec, 'pending'));
    invocation.logger.info({ change: record.id, operation: record.operation }, 'change prompted');
  }

  async #cancel(interaction: ButtonInteraction, id: string): Promise<void> {
    const click = await this.#guard.check(interaction, id, 'cancel');
    if (!click) return;
    const { record, spec, invocation, t } = click;
    const { journal, answers } = this.#state.deps;
    if (
      !(await journal.ends.close(record, spec, 'cancelled', answers.ending(invocation, 'cancelled', null)))
    ) {
      await interaction.reply(ephemeral({ content: closedMessage(record, t) }));
      return;
    }
    this.#state.forgetPrompt(record.id);
    const prompt = translator(record.locale);
    await interaction.update(statusBody(record, prompt, Colour.neutral, prompt('changes.prompt.cancelled')));
    answers.data(interaction, changeData(record, spec, 'cancelled'));
    await answers.finish(invocation, 'cancelled', null, true);
  }

  /** Send again: a repeatable change whose outcome was unknown. */
  async #sendAgain(interaction: ButtonInteraction, id: string): Promise<void> {
    const click = await this.#guard.check(interaction, id, 'send_again');
    if (!click) return;
    const { record, spec, invocation, t } = click;
    const claim = spec.repeatable ? await this.#state.deps.journal.resend(record, spec) : 'closed';
    if (claim !== 'claimed') {
      const content = notClaimed(claim, record, 'changes.button.send_again', closedMessage, t);
      await interaction.reply(ephemeral({ content }));
      return;
    }
    // The same change once more, after an outcome nobody knows: it may have been applied already, so
    // what its prompt showed is not checked again.
    await this.#sender.send(interaction, { ...record, state: 'sending' }, spec, invocation, {
      recheck: false,
    });
  }

  /** Try again: the same change as a new prompt, after a read-back showed it did not happen. */
  async #tryAgain(interaction: ButtonInteraction, id: string): Promise<void> {
    const click = await this.#guard.check(interaction, id, 'try_again');
    if (!click) return;
    const { record, spec, invocation } = click;
    try {
      await this.#refuseWithoutApprover(record.command);
      await this.prompt(
        interaction,
        invocation,
        spec,
        spec.again(record.parameters, this.#state.prepareContext(invocation)),
      );
    } catch (error) {
      await this.#state.deps.answers.fail(interaction, invocation, error);
    }
  }

  /**
   * Revert on a change's public record: a new, ordinary prompt (diff, Confirm, approval, journal, audit)
   * for what undoes it, as whoever pressed — who needs the change's tier.
   */
  async #revert(interaction: ButtonInteraction, id: string): Promise<void> {
    const click = await this.#guard.check(interaction, id, 'revert');
    const revert = click?.spec.revert;
    if (!click || !revert) return;
    const { record, spec, invocation, t } = click;
    const { answers, now } = this.#state.deps;
    try {
      await this.#refuseWithoutApprover(record.command);
      const made = await revert(record, { now, ...this.#state.prepareContext(invocation) });
      if (made === undefined) {
        const nothing = t('changes.revert.nothing', { target: literal(record.target ?? '') });
        await answers.acknowledge(invocation, interaction.reply(ephemeral({ content: nothing })));
        await answers.finish(invocation, 'ok', 'nothing to revert to');
        return;
      }
      await this.prompt(interaction, invocation, spec, made);
    } catch (error) {
      await answers.fail(interaction, invocation, error);
    }
  }

  /**
   * A new change (Try again, Revert) that needs a second person, where nobody can approve (the console):
   * refused before its prompt, as the command itself would be.
   */
  async #refuseWithoutApprover(command: string): Promise<void> {
    const { approvals, approvalsHere } = this.#state.deps;
    if (!approvalsHere && (await approvals.requires(command))) throw approvalNotHere(command);
  }

  /** Reject's form (a reason), submitted. */
  rejectSubmitted(interaction: ModalSubmitInteraction, id: string): Promise<void> {
    return this.#approvals.reject(interaction, id);
  }

  sweep(): Promise<void> {
    return this.#sweeper.sweep();
  }

  startDraining(): void {
    this.#sweeper.startDraining();
  }

  abandonSending(): Promise<void> {
    return this.#sender.abandonSending();
  }
}
