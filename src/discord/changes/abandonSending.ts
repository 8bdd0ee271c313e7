import type { SentState } from '../../changes/ChangeEnds.js';
import { Colour } from '../../replies/colours.js';
import type { ChangeFlowState, Sending } from './ChangeFlowState.js';
import { notSent, statusBody } from './renderChange.js';
import { NOT_SENT } from './settleOutcome.js';
import { tellNotRecorded } from './tellNotRecorded.js';

/**
 * Shutdown, out of time: a change handed to the connection was sent, so its outcome is unknown; one
 * still before that boundary (its recheck, its acknowledgement) was not, so it ends `failed`. Either
 * is recorded, told in its prompt and audited by whoever settles it: this replica, or, if it lost the
 * lease meanwhile, the one that already did. What the store will not take now, the next sweep ends.
 */
export async function abandonSending(state: ChangeFlowState): Promise<void> {
  const abandoned = [...state.sending.values()];
  state.sending.clear();
  state.stopped = true;
  await Promise.all(abandoned.map((sending) => abandon(state, sending)));
}

async function abandon(
  state: ChangeFlowState,
  { interaction, record, invocation, t, handed }: Sending,
): Promise<void> {
  const { journal, answers } = state.deps;
  const to: SentState = handed ? 'unknown' : NOT_SENT;
  let settled: boolean;
  try {
    const result = { reason: 'shutdown', ...(!handed && { sent: false }) };
    settled = await journal.ends.settle(
      record,
      'sending',
      to,
      result,
      answers.ending(invocation, to, 'shutdown'),
    );
  } catch (error) {
    journal.release(record.id);
    invocation.logger.error(
      { err: error, change: record.id },
      'could not record the give-up; left to the sweep',
    );
    return;
  }
  if (!settled) {
    await tellNotRecorded(state, interaction, record, invocation, t, 'no answer before shutdown');
    return;
  }
  const status = handed
    ? t('changes.outcome.shutdown', { reference: t('errors.reference', { id: record.correlationId }) })
    : notSent(t);
  await answers.safely(invocation, () => interaction.editReply(statusBody(record, t, Colour.danger, status)));
  await answers.finish(invocation, to, 'shutdown', true);
}
