import type { ButtonInteraction } from 'discord.js';
import type { SentState } from '../../changes/ChangeEnds.js';
import type { Translator } from '../../i18n/Translator.js';
import { Colour } from '../../replies/colours.js';
import type { ReplyBody } from '../../replies/ReplyBody.js';
import type { ChangeRecord } from '../../store/index.js';
import { ephemeral, type Invocation } from '../Answers.js';
import type { ChangeFlowState } from './ChangeFlowState.js';
import { statusBody } from './renderChange.js';
import type { Settled } from './settleOutcome.js';

/**
 * This replica's settling was refused: it no longer held the change's lease, and another one found it
 * stalled, recorded `unknown`, audited it and told the channel. That stays the one outcome on record,
 * told by that replica alone; the prompt (which only this one can edit) says the same, and what only
 * this replica has (a generated password) still reaches the one who confirmed, privately.
 */
export async function tellNotRecorded(
  state: ChangeFlowState,
  interaction: ButtonInteraction,
  record: ChangeRecord,
  invocation: Invocation,
  t: Translator,
  answered: SentState | 'no answer before shutdown',
  privatePart?: ReplyBody,
  settled: Settled = false,
): Promise<void> {
  const { answers } = state.deps;
  const reference = t('errors.reference', { id: record.correlationId });
  if (settled === 'unrecorded') {
    invocation.logger.error({ change: record.id, answered }, 'outcome not recorded: the sweep ends it');
  } else {
    invocation.logger.warn(
      { change: record.id, answered },
      'lease lost while sending: another replica recorded the outcome as unknown',
    );
  }
  const status =
    settled === 'unrecorded'
      ? t('changes.outcome.unrecorded', { reference })
      : t('changes.outcome.lease_lost', { reference });
  await answers.safely(invocation, () => interaction.editReply(statusBody(record, t, Colour.danger, status)));
  if (privatePart) {
    await answers.safely(invocation, () => interaction.followUp(ephemeral(state.sandboxed(privatePart, t))));
  }
}
