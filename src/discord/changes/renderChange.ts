import {
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIEmbed,
  type APIModalInteractionResponseCallbackData,
  ButtonStyle,
  TimestampStyles,
  time,
  userMention,
} from 'discord.js';
import type { SendClaim } from '../../changes/ChangeJournal.js';
import { recordedPreview } from '../../changes/recordedPreview.js';
import { HostingApiError } from '../../hosting/HostingApiError.js';
import { type Locale, pickLocale } from '../../i18n/locales.js';
import { figure, type Message, type MessageKey, type Translator, translator } from '../../i18n/Translator.js';
import { Colour } from '../../replies/colours.js';
import { escapeUserText } from '../../replies/escapeUserText.js';
import { literal } from '../../replies/literal.js';
import type { ChangePreview, MessageBody } from '../../replies/ReplyBody.js';
import { restarting } from '../../replies/UserError.js';
import type { ChangeRecord } from '../../store/index.js';
import type { AnyChangeSpec } from '../CommandModule.js';
import { customId } from '../customId.js';
import { outcomeUnknownReason, seconds } from '../describeError.js';
import { formModal } from '../formModal.js';
import { actionButton, actionRow } from '../render/actionButton.js';
import { fieldValue } from '../render/fieldValue.js';

// What a change looks like in Discord: its prompt, its approval request, and the words for a button
// that no longer does anything. Pure: no state, no I/O.

/** Ephemeral answers to a click are for the one who clicked, in their client's language. */
export function presserT(interaction: { locale: string }): Translator {
  return translator(pickLocale(interaction.locale));
}

/** "Not sent: HostOps is restarting; …" (or another reason). */
export function notSent(t: Translator, reason: string | Message = restarting().text): string {
  return t('changes.not_sent', { reason });
}

/**
 * A preview's title inside a sentence ("… set reverse dns took effect after all"): lower case in
 * English, quoted where nouns keep their capitals. Every language needs an entry.
 */
export const TITLE_IN_SENTENCE: Record<Locale, (title: string) => string> = {
  en: (title) => title.toLowerCase(),
  de: (title) => `„${title}“`,
};

/** Why the outcome of a repeatable change is unknown, in the reader's language. */
export function unknownReason(error: unknown, t: Translator): string {
  if (!(error instanceof HostingApiError)) return error instanceof Error ? error.message : 'no answer';
  if (error.timeoutMs !== undefined) {
    return t('changes.outcome.no_answer', { seconds: figure(seconds(error.timeoutMs)) });
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

/** The prompt's "Nothing is sent until you press **Confirm**. This prompt expires …" line. */
export function promptDescription(t: Translator, expires: string): string {
  return t('changes.prompt.description', {
    press: t('changes.press', { button: t('changes.button.confirm') }),
    expires,
  });
}

/**
 * Why a press that claims its change for sending (Confirm, Approve, Send again, named by `button`) did not:
 * the change was no longer there to take (in the words of `closed`), or another change of the same target
 * is being sent right now — then the change stays as it was, and the same button works once that ended.
 */
export function notClaimed(
  claim: Exclude<SendClaim, 'claimed'>,
  record: ChangeRecord,
  button: 'changes.button.confirm' | 'changes.button.approve' | 'changes.button.send_again',
  closed: (record: Pick<ChangeRecord, 'state'>, t: Translator) => string,
  t: Translator,
): string {
  if (claim === 'closed') return closed(record, t);
  const pressAgain = t('changes.press_again', { button: t(button) });
  if (claim === 'undecided') return t('changes.undecided', { pressAgain });
  return t('changes.busy', { target: literal(record.target ?? ''), pressAgain });
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

export function rejectModal(id: string, t: Translator): APIModalInteractionResponseCallbackData {
  return formModal(customId('reject', id), {
    title: t('changes.reject_modal.title'),
    fields: [
      {
        kind: 'text',
        id: 'reason',
        label: t('changes.reject_modal.reason'),
        description: t('changes.reject_modal.description'),
        paragraph: true,
        required: false,
        maxLength: 300,
      },
    ],
  });
}

/** What the record shows once it has left `pending`: secrets masked, in the reader's language. */
export function shownPreview(record: ChangeRecord, t: Translator): ChangePreview {
  return recordedPreview(record.preview, t.locale);
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

/** The record's preview with a status line: how a prompt or a request shows each step. */
export function statusBody(
  record: ChangeRecord,
  t: Translator,
  color: number,
  status: string,
  components: APIActionRowComponent<APIButtonComponent>[] = [],
): { embeds: APIEmbed[]; components: APIActionRowComponent<APIButtonComponent>[] } {
  return { embeds: [previewEmbed(shownPreview(record, t), t, color, status)], components };
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

/** An open approval request's line: who asks, who may approve, until when. */
export function requestedLine(record: ChangeRecord, spec: AnyChangeSpec, t: Translator): string {
  const params = {
    requester: userMention(record.requestedById),
    name: escapeUserText(record.requestedByName, 40),
    expires: time(record.expiresAt, TimestampStyles.RelativeTime),
  };
  return spec.approvedBy
    ? t('changes.approval.requested_holder', params)
    : t('changes.approval.requested', { ...params, tier: spec.tier });
}

/**
 * The public approval request (and its later states), in the channel's language `t`: open, it has
 * Approve and Reject; `status` replaces the "who asks, until when" line once something happened.
 */
export function approvalRequest(
  record: ChangeRecord,
  spec: AnyChangeSpec,
  t: Translator,
  status?: string,
  open = true,
): MessageBody {
  const description = status ?? requestedLine(record, spec, t);
  const shown = shownPreview(record, t);
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
