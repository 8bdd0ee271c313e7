import { translator } from '../../i18n/Translator.js';
import { Colour } from '../../replies/colours.js';
import type { ChangeRecord } from '../../store/index.js';
import type { ApprovalFlow } from './ApprovalFlow.js';
import type { ChangeFlowState } from './ChangeFlowState.js';
import { promptButtons, statusBody } from './renderChange.js';

// Prompts of an earlier run or another replica have no timer here, a replica that died mid-send leaves
// its changes `sending`, and so does a settle the store refused past its retries: a sweep ends all three.
const SWEEP_INTERVAL_MS = 10_000;
const APPROVAL_TIMED_OUT = 'approval timed out';

/**
 * The ends nobody clicks: prompts and approval requests that ran out, and changes whose sending replica
 * is gone. (The calls still waiting for the provider at shutdown are the sender's: ChangeSender.)
 */
export class ChangeSweeper {
  readonly #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly state: ChangeFlowState,
    private readonly approvals: ApprovalFlow,
  ) {
    if (!state.deps.settlesOthers) return;
    this.#timer = setInterval(() => state.track(this.sweep()), SWEEP_INTERVAL_MS);
    this.#timer.unref();
  }

  /**
   * Ends every overdue pending change, and every change whose sending replica is gone, once
   * (whichever replica gets there first), and records it.
   */
  async sweep(): Promise<void> {
    const { journal, answers, logger } = this.state.deps;
    try {
      for await (const record of journal.overdue()) await this.expire(record.id, record);
      const live = await this.state.deps.liveReplicas();
      // Handed to the connection or not (ChangeJournal.handOver): `unknown`, or `failed` never sent;
      // each end lands with its audit row, and with the notice its channel is owed: its prompt still
      // says "Sending…" and only the replica that sent it could have edited it, so the channel is told
      // (channelPosts.orphanNotice), naming the requester, so nobody sends it again blindly.
      const ending = (record: ChangeRecord) =>
        record.state === 'unknown'
          ? answers.ending(this.state.invocationOf(record), 'unknown', 'replica stopped', true)
          : answers.ending(this.state.invocationOf(record), 'failed', 'not sent', true);
      for (const record of await journal.ends.orphans(live, ending)) {
        const invocation = this.state.invocationOf(record);
        const sent = record.state === 'unknown';
        invocation.logger.warn(
          { change: record.id, state: record.state },
          sent
            ? 'the replica sending this change stopped; outcome unknown'
            : 'this change was never handed to the provider; not sent',
        );
        // Posts its audit line and its notice if it takes them (else a later sweep does, once due).
        await answers.finish(
          invocation,
          sent ? 'unknown' : 'failed',
          sent ? 'replica stopped' : 'not sent',
          true,
        );
      }
      // What their takers did not post within a lease (they died, or Discord failed): lines, notices.
      await answers.announceDue();
    } catch (error) {
      logger.warn({ err: error }, 'could not sweep expired changes');
    }
  }

  /** A prompt or an approval request that ran out: closed once, its message edited, audited. */
  async expire(id: string, known?: ChangeRecord): Promise<void> {
    const { state } = this;
    const { journal, answers, specs } = state.deps;
    const record = known ?? (await journal.get(id));
    const spec = record && specs.get(record.command);
    if (!record || !spec) return;
    const approval = record.state === 'awaiting_approval';
    if (!approval && record.state !== 'pending') return;
    const invocation = state.invocationOf(record);
    const detail = approval ? APPROVAL_TIMED_OUT : null;
    // Its audit row, and the line it owes, land with the end (one transaction).
    const ended = answers.ending(invocation, 'expired', detail);
    let expired: boolean;
    try {
      expired = approval
        ? await journal.ends.decide(record, spec, 'expired', record.approval ?? {}, ended)
        : await journal.ends.close(record, spec, 'expired', ended);
    } catch (error) {
      // Not recorded (the sweep expires it while it is overdue), or recorded with the answer lost (its
      // row is in, and the sweep posts its owed line once due): either way the sweep ends it, once.
      invocation.logger.warn({ err: error }, 'could not record the expiry; left to the sweep');
      return;
    }
    if (!expired) return;
    if (approval) {
      await this.approvals.editRequest(record, spec, state.channelT('changes.approval.expired'), invocation);
      await answers.finish(invocation, 'expired', detail, true);
      return;
    }
    const prompt = state.prompts.get(id);
    state.forgetPrompt(id);
    if (prompt) {
      const t = translator(record.locale);
      await answers.safely(invocation, () =>
        prompt.interaction.editReply(
          statusBody(record, t, Colour.neutral, t('changes.prompt.expired'), [promptButtons('x', true, t)]),
        ),
      );
    }
    await answers.finish(invocation, 'expired', null, true);
  }

  /**
   * Shutdown: prompts stay open (their records outlive the process); new confirmations are turned
   * away.
   */
  startDraining(): void {
    this.state.draining = true;
    clearInterval(this.#timer);
    for (const { timer } of this.state.prompts.values()) clearTimeout(timer);
    this.state.prompts.clear();
  }
}
