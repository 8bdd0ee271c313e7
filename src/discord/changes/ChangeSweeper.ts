import { translator } from '../../i18n/Translator.js';
import type { Logger } from '../../logger.js';
import { Colour } from '../../replies/colours.js';
import type { ChangeRecord } from '../../store/index.js';
import type { Invocation } from '../Answers.js';
import type { ApprovalFlow } from './ApprovalFlow.js';
import type { ChangeFlowState } from './ChangeFlowState.js';
import { promptButtons, statusBody } from './renderChange.js';

// Prompts of an earlier run or another replica have no timer here, a replica that died mid-send leaves
// its changes `sending`, and so does a settle the store refused past its retries: a sweep ends all three.
export const SWEEP_INTERVAL_MS = 10_000;
const APPROVAL_TIMED_OUT = 'approval timed out';

/**
 * The ends nobody clicks: prompts and approval requests that ran out, and changes whose sending replica
 * is gone. (The calls still waiting for the provider at shutdown are the sender's: ChangeSender.)
 */
export class ChangeSweeper {
  readonly #timer: NodeJS.Timeout | undefined;
  /**
   * Expiries whose answer was lost and whose record could not be read again either: the record may say
   * `expired` (then no sweep finds it overdue), so the sweep reads each again and finishes its prompt.
   */
  readonly #unread = new Set<string>();

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
      for (const id of [...this.#unread]) await this.expire(id);
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
    // Apart, so that a store failing here never holds up the ends and posts above.
    await this.#endElevations().catch((error: unknown) => {
      logger.warn({ err: error }, 'could not end the elevations past their end');
    });
  }

  /**
   * Elevations past their end: out of force already (the decision compares `until` with the store's
   * clock), each removed here with its "ended" row in the audit trail, once, by whichever replica's sweep
   * comes first — so the trail says it ended within a sweep's interval of its end, without a timer per
   * grant that a restart would lose.
   */
  async #endElevations(): Promise<void> {
    const { store, journal, answers, now } = this.state.deps;
    for (const grant of await store.grants.endedElevations(now())) {
      const record = grant.requestId ? await journal.get(grant.requestId) : undefined;
      // The request's record names who asked and where; without it, the grant itself does.
      const invocation: Invocation = record
        ? this.state.invocationOf(record)
        : {
            label: '/access request',
            correlationId: grant.requestId ?? grant.id,
            userId: grant.subject.id,
            userName: grant.subject.id,
            guildId: null,
            channelId: null,
            startedAt: performance.now(),
            locale: 'en',
            logger: this.state.deps.logger,
            changing: true,
            target: grant.id,
            changeId: grant.requestId,
          };
      const detail = `elevation ended at ${grant.until?.toISOString() ?? ''}`;
      const { entry } = answers.ending(invocation, 'expired', detail);
      if (await store.grants.endElevation(grant.id, now(), entry))
        invocation.logger.info({ grant: grant.id }, 'elevation ended');
    }
  }

  /** A prompt or an approval request that ran out: closed once, its message edited, audited. */
  async expire(id: string, known?: ChangeRecord): Promise<void> {
    const { state } = this;
    const { journal, answers, specs } = state.deps;
    const record = known ?? (await journal.get(id));
    const spec = record && specs.get(record.command);
    this.#unread.delete(id);
    if (!record || !spec) return;
    const invocation = state.invocationOf(record);
    // Expired already: by another replica's sweep, or by this process with the store's answer lost (read
    // again by the sweep). Its prompt here still shows Confirm and Cancel.
    if (record.state === 'expired') return this.#closePrompt(record, invocation);
    const approval = record.state === 'awaiting_approval';
    if (!approval && record.state !== 'pending') return;
    const detail = approval ? APPROVAL_TIMED_OUT : null;
    // Its audit row, and the line it owes, land with the end (one transaction).
    const ended = answers.ending(invocation, 'expired', detail);
    let expired: boolean;
    try {
      expired = approval
        ? await journal.ends.decide(record, spec, 'expired', record.approval ?? {}, ended)
        : await journal.ends.close(record, spec, 'expired', ended);
    } catch (error) {
      expired = await this.#landed(id, error, invocation.logger);
    }
    if (!expired) return;
    if (approval) {
      await this.approvals.editRequest(record, spec, state.channelT('changes.approval.expired'), invocation);
      await answers.finish(invocation, 'expired', detail, true);
      return;
    }
    await this.#closePrompt(record, invocation);
    await answers.finish(invocation, 'expired', null, true);
  }

  /** The prompt this process shows for an expired change, if any: its buttons taken off, forgotten. */
  async #closePrompt(record: ChangeRecord, invocation: Invocation): Promise<void> {
    const { state } = this;
    const prompt = state.prompts.get(record.id);
    state.forgetPrompt(record.id);
    if (!prompt) return;
    const t = translator(record.locale);
    await state.deps.answers.safely(invocation, () =>
      prompt.interaction.editReply(
        statusBody(record, t, Colour.neutral, t('changes.prompt.expired'), [promptButtons('x', true, t)]),
      ),
    );
  }

  /**
   * After an expiry the store did not answer: whether it landed, as the record read again says. Not
   * recorded, it is still overdue and the sweep expires it; recorded (its row is in, and the sweep posts
   * its owed line once due), this process finishes its prompt now — or, when the record cannot be read
   * either, at the sweep's next read of it.
   */
  async #landed(id: string, error: unknown, logger: Logger): Promise<boolean> {
    const again = await this.state.deps.journal.get(id).then(
      (record) => record?.state,
      () => 'unread' as const,
    );
    if (again === 'expired') {
      logger.warn({ err: error }, 'the expiry was recorded but its answer lost: finishing the prompt');
      return true;
    }
    if (again === 'unread') this.#unread.add(id);
    logger.warn({ err: error }, 'could not record the expiry; left to the sweep');
    return false;
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
