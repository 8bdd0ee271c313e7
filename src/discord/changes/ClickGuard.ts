import { type ButtonInteraction, type ModalSubmitInteraction, userMention } from 'discord.js';
import { message, type Translator } from '../../i18n/Translator.js';
import { RefusalError, restarting } from '../../replies/UserError.js';
import type { ChangeRecord, ChangeState } from '../../store/index.js';
import { ephemeral, type Invocation } from '../Answers.js';
import type { AnyChangeSpec } from '../CommandModule.js';
import type { ChangeFlowState } from './ChangeFlowState.js';
import { closedMessage, decidedMessage, notSent, presserT } from './renderChange.js';

/** Every button of a change (and the reject form), as the catalogue names the presses. */
export type ClickAction = 'confirm' | 'cancel' | 'send_again' | 'try_again' | 'approve' | 'reject' | 'revert';

/** What a press needs before it may act on the record behind it, checked in this order. */
interface ClickRule {
  /** Only the requester (their prompt's buttons), anyone but the requester (Approve), or anyone. */
  who: 'requester' | 'not_requester' | 'anyone';
  /** Turned away while this process stops: nothing is sent, the record stays as it is. */
  refusedWhileDraining?: true;
  /** The states the press acts on; on any other the presser is told why nothing happens. */
  states?: readonly ChangeState[];
  /** The words for a record in another state: a prompt's (default) or an approval request's. */
  closed?: (record: Pick<ChangeRecord, 'state'>, t: Translator) => string;
  /** An overdue record is expired (and said so) instead. */
  expires?: true;
  /** The presser's tier, and channel unless `anyChannel`, as they are now. */
  gates?: { anyChannel?: true; notForRequester?: true };
  /** The press starts a new change of the same command (Try again, Revert): its refusals are audited. */
  startsChange?: true;
}

const RULES: Record<ClickAction, ClickRule> = {
  confirm: { who: 'requester', refusedWhileDraining: true, states: ['pending'], expires: true, gates: {} },
  cancel: { who: 'requester', states: ['pending'] },
  send_again: { who: 'requester', refusedWhileDraining: true, states: ['unknown'], gates: {} },
  try_again: { who: 'requester', refusedWhileDraining: true, gates: {}, startsChange: true },
  approve: {
    who: 'not_requester',
    refusedWhileDraining: true,
    states: ['awaiting_approval'],
    closed: decidedMessage,
    expires: true,
    gates: { anyChannel: true },
  },
  // The requester may withdraw their own request whatever their roles are now.
  reject: {
    who: 'anyone',
    states: ['awaiting_approval'],
    closed: decidedMessage,
    gates: { anyChannel: true, notForRequester: true },
  },
  revert: { who: 'anyone', refusedWhileDraining: true, gates: {}, startsChange: true },
};

/** A press that may act: the record, its command, who acts and in which words. */
export interface Click {
  record: ChangeRecord;
  spec: AnyChangeSpec;
  /** The record's invocation, or for a press that starts a new change, that change's. */
  invocation: Invocation;
  /** The presser's language. */
  t: Translator;
}

/**
 * The one check of "may this press act on this record": the record and its command exist, the
 * presser is who may press it, the process is not stopping, the record is in a state the press acts
 * on and not overdue, and the presser's roles (and channel) allow the command now. Whatever fails is
 * answered here, privately, and the press does nothing.
 */
export class ClickGuard {
  constructor(
    private readonly state: ChangeFlowState,
    /** Ends an overdue record (edits its prompt or request, audits it). */
    private readonly expire: (record: ChangeRecord) => Promise<void>,
  ) {}

  async check(
    interaction: ButtonInteraction | ModalSubmitInteraction,
    id: string,
    action: ClickAction,
  ): Promise<Click | undefined> {
    const rule = RULES[action];
    const { journal, specs, gate, answers, now } = this.state.deps;
    const t = presserT(interaction);
    let record: ChangeRecord | undefined;
    try {
      record = await journal.get(id);
    } catch (error) {
      // Undecided: nothing is done, and the presser is told to try again (not "interaction failed").
      this.state.deps.logger.warn({ err: error, change: id }, 'could not read the change behind a press');
      await interaction.reply(ephemeral({ content: t('errors.store_undecided') }));
      return undefined;
    }
    const spec = record && specs.get(record.command);
    if (!record || !spec || (action === 'revert' && !spec.revert)) {
      const unknown =
        rule.who === 'requester' ? 'changes.unknown_change.run_again' : 'changes.unknown_change';
      await interaction.reply(ephemeral({ content: t(unknown) }));
      return undefined;
    }
    const own = record.requestedById === interaction.user.id;
    if (rule.who === 'requester' && !own) {
      const key =
        `changes.only_requester.${action as 'confirm' | 'cancel' | 'send_again' | 'try_again'}` as const;
      await interaction.reply(
        ephemeral({ content: t(key, { requester: userMention(record.requestedById) }) }),
      );
      return undefined;
    }
    if (rule.who === 'not_requester' && own) {
      await interaction.reply(ephemeral({ content: t('changes.approval.own_change') }));
      return undefined;
    }
    const invocation = rule.startsChange
      ? action === 'revert' && interaction.isButton()
        ? this.state.pressed(interaction, record.command)
        : {
            ...this.state.invocationOf(record, interaction.isButton() ? interaction : undefined),
            locale: t.locale,
          }
      : this.state.invocationOf(record);
    const click = { record, spec, invocation, t };
    if (rule.refusedWhileDraining && this.state.draining) {
      // A new change is a command like any other: refused as such. A pending one stays pending, and
      // after the restart the same button works.
      if (rule.startsChange) await answers.fail(interaction, invocation, restarting());
      else await interaction.reply(ephemeral({ content: notSent(t) }));
      return undefined;
    }
    const closed = rule.closed ?? closedMessage;
    if (rule.states && !rule.states.includes(record.state)) {
      await interaction.reply(ephemeral({ content: closed(record, t) }));
      return undefined;
    }
    if (rule.expires && record.expiresAt.getTime() <= now().getTime()) {
      await this.expire(record);
      await interaction.reply(ephemeral({ content: closed({ ...record, state: 'expired' }, t) }));
      return undefined;
    }
    if (rule.gates && !(rule.gates.notForRequester && own)) {
      try {
        // Roles or channel rules may have changed since the prompt or the request was shown.
        // Grants too: a revoke since the prompt (or the request) refuses the press, on every replica.
        await gate.check(interaction, {
          label: record.command,
          tier: spec.tier,
          kind: 'change',
          values: record.parameters,
          anyChannel: rule.gates.anyChannel === true,
        });
        // An elevation is approved only by someone who holds, now, every right it would give.
        if (action === 'approve') {
          for (const ask of spec.approvedBy?.(record.parameters) ?? [])
            await gate.check(interaction, { ...ask, anyChannel: true }).catch((error: unknown) => {
              if (!(error instanceof RefusalError)) throw error;
              throw new RefusalError(message('changes.approval.not_holder', { why: error.text }), 'tier');
            });
        }
      } catch (error) {
        if (rule.startsChange) await answers.fail(interaction, invocation, error);
        else await answers.fail(interaction, { ...invocation, locale: t.locale }, error, false);
        return undefined;
      }
    }
    return click;
  }
}
