import { randomBytes } from 'node:crypto';
import type { AccessOperation } from '../access/accessOperations.js';
import type { ChangeOperation } from '../hosting/operations.js';
import type { Locale } from '../i18n/locales.js';
import { message } from '../i18n/Translator.js';
import type { LocalizedPreview } from '../replies/ReplyBody.js';
import { UserError } from '../replies/UserError.js';
import {
  type ChangePatch,
  type ChangeRecord,
  type ChangeState,
  type DnsSet,
  HANDED,
  NOT_HANDED,
  type Store,
  TargetBusyError,
  type TransitionOptions,
} from '../store/index.js';
import { ChangeEnds } from './ChangeEnds.js';
import { masked } from './masked.js';
import { isSealed, type SecretSeal } from './SecretSeal.js';

export interface Requester {
  id: string;
  name: string;
  guildId: string | null;
  channelId: string | null;
  /** Their language: the prompt, and the record's preview, are written in it. */
  locale: Locale;
}

/** A DNS record set a change sends: the domain (ASCII) and the records as encoded for the API. */
export type SetToSend = Pick<DnsSet, 'domain' | 'records'>;

/** What the journal needs of a change's definition (a command's change handler satisfies it). */
export interface JournalledChange {
  readonly operation: ChangeOperation | AccessOperation;
  /** Parameters that are kept sealed while the change waits, and masked once it no longer does. */
  readonly secrets?: readonly string[];
  /**
   * Checked again right before sending: such changes are sent one at a time per operation and target, so
   * the check, made once the change is claimed, sees every change of that target sent before it.
   */
  readonly recheck?: unknown;
  /** The DNS record set it sends: stored with its move to `sending`, so it is remembered however it ends. */
  dnsSet?(parameters: Record<string, unknown>): SetToSend;
}

/**
 * How a move to `sending` went: this call made it; the change was no longer there to take (another
 * click, the deadline); another change of the same target is being sent right now (nothing changed); or
 * the store could not say (`undecided`: not won — nothing is sent, and the press may be tried again).
 */
export type SendClaim = 'claimed' | 'closed' | 'busy' | 'undecided';

/** A change as its command made it: what the record keeps of it besides who asked. */
export interface MadeChange {
  readonly parameters: object;
  readonly target: string;
  /** In every language, secrets masked: the record's history never holds one. */
  readonly recorded: LocalizedPreview;
}

/** The states with a deadline: a prompt's, or an approval request's. */
const WAITING: readonly ChangeState[] = ['pending', 'awaiting_approval'];
const OVERDUE_PAGE = 100;

/**
 * The change records and their state machine: pending → sending → done | failed | unknown, and
 * pending → cancelled | expired. Every step is one conditional update in the store, so of two clicks,
 * two processes or a click racing the expiry, exactly one wins — nothing here is decided in memory. The
 * moves to a final state are `ends` (ChangeEnds): each lands with its audit row, or not at all.
 * Secrets live in a record only while the change may still be sent (pending, awaiting approval), and
 * then only sealed (SecretSeal): the store never holds one in clear.
 */
export class ChangeJournal {
  readonly #store: Store;
  readonly #now: () => Date;
  readonly #timeoutMs: number;
  readonly #replicaId: string;
  readonly #seal: SecretSeal;
  /**
   * The changes this process holds in `sending`: from just before its claim until it is settled or
   * given up. Its own sweep ends every other `sending` row of this replica (a settle the store refused).
   */
  readonly #held = new Set<string>();
  /** Every move to a final state, each with its audit row in its transaction. */
  readonly ends: ChangeEnds;

  /** Told of a claim the store could not decide (logged by the caller's logger). */
  #onUndecided: (record: ChangeRecord, error: unknown) => void = () => {};

  constructor(store: Store, now: () => Date, timeoutMs: number, replicaId: string, seal: SecretSeal) {
    this.#store = store;
    this.#now = now;
    this.#timeoutMs = timeoutMs;
    this.#replicaId = replicaId;
    this.#seal = seal;
    this.ends = new ChangeEnds(store, now, replicaId, this.#held);
  }

  async open(
    command: string,
    spec: JournalledChange,
    made: MadeChange,
    requester: Requester,
    correlationId: string,
  ): Promise<ChangeRecord> {
    const now = this.#now();
    const id = randomBytes(12).toString('base64url');
    const record: ChangeRecord = {
      id,
      operation: spec.operation,
      command,
      target: made.target,
      parameters: this.#sealed(spec, made.parameters, id),
      preview: made.recorded,
      requestedById: requester.id,
      requestedByName: requester.name,
      guildId: requester.guildId,
      channelId: requester.channelId,
      state: 'pending',
      correlationId,
      result: null,
      createdAt: now,
      updatedAt: now,
      expiresAt: new Date(now.getTime() + this.#timeoutMs),
      replicaId: null,
      approval: null,
      locale: requester.locale,
    };
    await this.#store.changes.insert(record);
    return record;
  }

  /** Where claims the store could not decide are told (a log line). */
  onUndecided(listener: (record: ChangeRecord, error: unknown) => void): void {
    this.#onUndecided = listener;
  }

  get(id: string): Promise<ChangeRecord | undefined> {
    return this.#store.changes.get(id);
  }

  /**
   * The parameters to send, secrets unsealed: only in memory, only for the call. Throws a UserError when
   * a secret cannot be opened (HOSTING_API_TOKEN changed since it was typed, it was sealed for another
   * record or field, or before sealed values were bound to theirs), so nothing is sent.
   */
  sendable(record: ChangeRecord, spec: JournalledChange): Record<string, unknown> {
    const clear: Record<string, unknown> = { ...record.parameters };
    for (const key of spec.secrets ?? []) {
      const value = clear[key];
      if (!isSealed(value)) continue;
      const secret = this.#seal.unseal(value, { record: record.id, field: key });
      if (secret === undefined) throw new UserError(message('changes.secret_unreadable', { option: key }));
      clear[key] = secret;
    }
    return clear;
  }

  #sealed(spec: JournalledChange, parameters: object, record: string): Record<string, unknown> {
    const copy: Record<string, unknown> = { ...parameters };
    for (const key of spec.secrets ?? []) {
      const value = copy[key];
      if (typeof value === 'string') copy[key] = this.#seal.seal(value, { record, field: key });
    }
    return copy;
  }

  /**
   * pending → sending, if still pending and not expired. Returns the record as it was, secrets included
   * (they are needed for this one call), while the stored row keeps only their masked form.
   */
  claim(record: ChangeRecord, spec: JournalledChange): Promise<SendClaim> {
    const now = this.#now();
    return this.#toSending(
      record,
      spec,
      'pending',
      // The sending replica's heartbeat is the lease: if it dies, another replica records `unknown`.
      { parameters: masked(spec, record.parameters), ...this.#sending(record, spec) },
      { now, notExpiredAt: now },
    );
  }

  /** Every move to `sending`: with its serial key where the change is checked again before it is sent. */
  async #toSending(
    record: ChangeRecord,
    spec: JournalledChange,
    from: ChangeState,
    patch: ChangePatch,
    options: TransitionOptions,
  ): Promise<SendClaim> {
    const serialKey = spec.recheck ? `${record.operation} ${record.target ?? ''}` : undefined;
    // Held before the claim can land, so this replica's own sweep never takes a change being claimed.
    this.#held.add(record.id);
    let moved = false;
    try {
      moved = await this.#store.changes.transition(
        record.id,
        from,
        'sending',
        { ...patch, serialKey },
        options,
      );
      return moved ? 'claimed' : 'closed';
    } catch (error) {
      if (error instanceof TargetBusyError) return 'busy';
      // Undecided (the store failed): whether the move landed or not, nothing is sent, and if it did,
      // this replica's sweep ends it `failed` (never handed over) and frees its slot.
      this.#onUndecided(record, error);
      return 'undecided';
    } finally {
      if (!moved) this.#held.delete(record.id);
    }
  }

  /**
   * The boundary of "possibly sent": recorded right before the request is handed to the connection (the
   * sender, the shutdown give-up and the sweep all judge by it). False: nothing may be sent — the lease
   * is lost, or the store could not record it (it throws).
   */
  handOver(record: ChangeRecord): Promise<boolean> {
    return this.#store.changes.transition(
      record.id,
      'sending',
      'sending',
      { result: { ...HANDED } },
      { now: this.#now(), heldBy: this.#replicaId },
    );
  }

  /** This process no longer holds the change: its own sweep may end it if it is still `sending`. */
  release(id: string): void {
    this.#held.delete(id);
  }

  /** What every move to `sending` writes: this replica's lease, and the DNS set the change sends. */
  #sending(record: ChangeRecord, spec: JournalledChange): ChangePatch {
    const sends = spec.dnsSet?.(record.parameters);
    return { replicaId: this.#replicaId, result: { ...NOT_HANDED }, ...(sends && { sends }) };
  }

  /** pending → awaiting_approval: confirmed by the requester; secrets stay, sealed, until it is decided. */
  awaitApproval(record: ChangeRecord, expiresAt: Date, approval: Record<string, unknown>): Promise<boolean> {
    const now = this.#now();
    return this.#store.changes.transition(
      record.id,
      'pending',
      'awaiting_approval',
      { expiresAt, approval },
      { now, notExpiredAt: now },
    );
  }

  /** Where the approval request was posted, once it was. */
  noteApproval(record: ChangeRecord, approval: Record<string, unknown>): Promise<boolean> {
    return this.#store.changes.transition(record.id, 'awaiting_approval', 'awaiting_approval', { approval });
  }

  /** awaiting_approval → sending, for one approver only, and not after the approval's deadline. */
  approve(
    record: ChangeRecord,
    spec: JournalledChange,
    approver: { id: string; name: string },
  ): Promise<SendClaim> {
    const now = this.#now();
    return this.#toSending(
      record,
      spec,
      'awaiting_approval',
      {
        parameters: masked(spec, record.parameters),
        ...this.#sending(record, spec),
        approval: { ...(record.approval ?? {}), approvedById: approver.id, approvedByName: approver.name },
      },
      { now, notExpiredAt: now },
    );
  }

  /** unknown → sending: the same change once more (only for repeatable ones). */
  resend(record: ChangeRecord, spec: JournalledChange): Promise<SendClaim> {
    return this.#toSending(record, spec, 'unknown', this.#sending(record, spec), { now: this.#now() });
  }

  /**
   * Pending or awaiting changes past their deadline by the store's clock (of a previous run, or of
   * another replica), in deadline order: every one, however many others wait with later deadlines (an
   * approval waits for days). Read a page at a time as the caller ends them, so a backlog is never held
   * in memory whole.
   */
  async *overdue(): AsyncGenerator<ChangeRecord> {
    let after: ChangeRecord | undefined;
    for (;;) {
      const page = await this.#store.changes.due(WAITING, {
        limit: OVERDUE_PAGE,
        ...(after && { after }),
      });
      yield* page;
      after = page.at(-1);
      if (page.length < OVERDUE_PAGE) return;
    }
  }
}
