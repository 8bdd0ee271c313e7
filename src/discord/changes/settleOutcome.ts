import { setTimeout as sleep } from 'node:timers/promises';
import type { SentState } from '../../changes/ChangeEnds.js';
import { type ChangeRecord, LEASE_MS } from '../../store/index.js';
import type { Invocation } from '../Answers.js';
import type { ChangeFlowState } from './ChangeFlowState.js';

/**
 * The one name of a change's end when it was never sent (a recheck's refusal, an acknowledgement
 * Discord refused, a store that could not record the hand-over, a give-up before it): the journal and
 * the audit trail both record it, so they cannot disagree.
 */
export const NOT_SENT = 'failed' satisfies SentState;

/**
 * A settle the store refused is retried with backoff (a store back within the lease still gets the true
 * outcome); after twice the lease the change is released to this replica's own sweep, which ends it
 * within one sweep.
 */
const SETTLE_BACKOFF_MS = { first: 100, max: 2_000 } as const;
const SETTLE_RETRY_MS = 2 * LEASE_MS;

/** How a settle went: recorded; refused (another replica recorded it first); or not recorded at all. */
export type Settled = boolean | 'unrecorded';

/**
 * sending → `to` with its audit row, for a change this process holds (its caller then tells it and calls
 * `answers.finish(…, audited)`, which posts the row's audit-channel line): a store error is retried with backoff (a blip, a
 * serialization failure, a restart of the database). Past twice the lease the change is released to
 * this replica's own sweep, so its slot frees within one sweep even if the store keeps refusing this
 * write.
 */
export async function settleOutcome(
  state: ChangeFlowState,
  record: ChangeRecord,
  to: SentState,
  result: Record<string, unknown>,
  invocation: Invocation,
  detail: string | null,
): Promise<Settled> {
  const { journal, answers } = state.deps;
  // Its audit row lands with it (one transaction): no end is recorded without its row.
  const ended = answers.ending(invocation, to, detail);
  const started = performance.now();
  for (let attempt = 0; ; attempt++) {
    try {
      const settled = await journal.ends.settle(record, 'sending', to, result, ended);
      if (settled || attempt === 0) return settled;
      // Refused after an error: the earlier attempt may have landed, audit row and all, with its answer
      // lost (then the record holds exactly what it wrote; a sweep's would say why it swept).
      const now = await journal.get(record.id);
      return now?.state === to && JSON.stringify(now.result) === JSON.stringify(result);
    } catch (error) {
      const waited = performance.now() - started;
      if (attempt === 0) {
        invocation.logger.warn(
          { err: error, change: record.id, to },
          'could not record the outcome; retrying',
        );
      }
      if (waited >= SETTLE_RETRY_MS || state.stopped) {
        journal.release(record.id);
        invocation.logger.error(
          { err: error, change: record.id, to },
          'could not record the outcome; left to the sweep',
        );
        return 'unrecorded';
      }
      const backoff = Math.min(SETTLE_BACKOFF_MS.max, SETTLE_BACKOFF_MS.first * 2 ** attempt);
      await sleep(backoff, undefined, { ref: false });
    }
  }
}
