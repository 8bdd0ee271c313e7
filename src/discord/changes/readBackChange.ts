import { setTimeout as sleep } from 'node:timers/promises';
import { type ButtonInteraction, ButtonStyle } from 'discord.js';
import type { SentState } from '../../changes/ChangeEnds.js';
import type { Translator } from '../../i18n/Translator.js';
import { actorMention } from '../../replies/actorMention.js';
import { Colour } from '../../replies/colours.js';
import type { ChangeRecord } from '../../store/index.js';
import type { Invocation } from '../Answers.js';
import type { AnyChangeSpec } from '../CommandModule.js';
import { actionButton, actionRow } from '../render/actionButton.js';
import type { ChangeFlowState } from './ChangeFlowState.js';
import { shownPreview, statusBody, TITLE_IN_SENTENCE } from './renderChange.js';

const DEFAULT_READ_BACK_DELAYS_MS = [5_000, 15_000, 30_000, 70_000];

/**
 * After an unknown outcome: a few reads over up to two minutes, then the answer is edited. Only a
 * read that finds the change settles it early: a registry can take a while to show a new domain, so
 * "not applied" is settled only when the last read of the window still says so.
 */
export async function readBackChange(
  state: ChangeFlowState,
  interaction: ButtonInteraction,
  record: ChangeRecord,
  spec: AnyChangeSpec,
  invocation: Invocation,
  t: Translator,
): Promise<void> {
  const readBack = spec.readBack;
  if (!readBack) return;
  const { journal, answers } = state.deps;
  const delays = state.deps.readBackDelaysMs ?? DEFAULT_READ_BACK_DELAYS_MS;
  let lastRead: boolean | undefined;
  for (const delay of delays) {
    await sleep(delay, undefined, { ref: false });
    if (state.draining) return;
    try {
      lastRead = await readBack.verify(record.parameters, state.sendContext(record));
    } catch (error) {
      lastRead = undefined;
      invocation.logger.info({ err: error, change: record.id }, 'read-back could not tell yet');
      continue;
    }
    if (lastRead) break;
    invocation.logger.info({ change: record.id }, 'read-back: not applied yet');
  }
  if (lastRead === undefined) {
    const status = t('changes.read_back.still_unknown', {
      count: delays.length,
      reference: t('errors.reference', { id: record.correlationId }),
    });
    await answers.safely(invocation, () =>
      interaction.editReply(statusBody(record, t, Colour.danger, status)),
    );
    return;
  }
  const applied = lastRead;
  const to: SentState = applied ? 'done' : 'failed';
  const resolved = { ...invocation, startedAt: performance.now() };
  const result = { readBack: applied ? 'applied' : 'not applied' };
  // With its audit row (one transaction), as every end.
  if (
    !(await journal.ends.settle(record, 'unknown', to, result, answers.ending(resolved, to, 'read-back')))
  ) {
    return;
  }
  invocation.logger.info({ change: record.id, applied }, 'unknown outcome resolved by read-back');
  const text = applied ? readBack.applied(record.parameters, t) : readBack.notApplied(record.parameters, t);
  const components = applied
    ? []
    : [actionRow(actionButton('retry', record.id, t('changes.button.try_again'), ButtonStyle.Primary))];
  await answers.safely(invocation, () =>
    interaction.editReply(
      statusBody(record, t, applied ? Colour.success : Colour.neutral, `**${text}**`, components),
    ),
  );
  if (applied) {
    // In the channel: its language, whatever the prompt's.
    const channelT = state.channelT;
    await answers.safely(invocation, () =>
      interaction.followUp({
        content: channelT('changes.read_back.took_effect', {
          requester: actorMention(record.requestedById, record.requestedByName),
          title: TITLE_IN_SENTENCE[channelT.locale](shownPreview(record, channelT).title),
          text: readBack.applied(record.parameters, channelT),
        }),
      }),
    );
  }
  await answers.finish(resolved, to, 'read-back', true);
}
