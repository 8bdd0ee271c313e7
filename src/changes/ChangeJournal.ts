import { randomBytes } from 'node:crypto';
import type { ChangeOperation } from '../hosting/operations.js';
import type { Locale } from '../i18n/locales.js';
import { message } from '../i18n/Translator.js';
import type { LocalizedPreview } from '../replies/ReplyBody.js';
import { UserError } from '../replies/UserError.js';
import type { ChangePatch, ChangeRecord, ChangeState, DnsSet, Store } from '../store/index.js';
import { maskSecret } from './maskSecret.js';
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
  readonly operation: ChangeOperation;
  /** Parameters that are kept sealed while the change waits, and masked once it no longer does. */
  readonly secrets?: readonly string[];
  /** The DNS record set it sends: stored with its move to `sending`, so it is remembered however it ends. */
  dnsSet?(parameters: Record<string, unknown>): SetToSend;
}

/** A change as its command made it: what the record keeps of it besides who asked. */
export interface MadeChange {
  readonly parameters: object;
  readonly target: string;
  /** In every language, secrets masked: the record's history never holds one. */
  readonly recorded: LocalizedPreview;
}

/** Where a change ends once it has been sent. */
export type SentState = 'done' | 'failed' | 'unknown';

/**
 * The change records and their state machine: pending → sending → done | failed | unknown, and
 * pending → cancelled | expired. Every step is one conditional update in the store, so of two clicks,
 * two processes or a click racing the expiry, exactly one wins — nothing here is decided in memory.
 * Secrets live in a record only while the change may still be sent (pending, awaiting approval), and
 * then only sealed (SecretSeal): the store never holds one in clear.
 */
export class ChangeJournal {
  readonly #store: Store;
  readonly #now: () => Date;
  readonly #timeoutMs: number;
  readonly #replicaId: string;
  readonly #seal: SecretSeal;

  constructor(store: Store, now: () => Date, timeoutMs: number, replicaId: string, seal: SecretSeal) {
    this.#store = store;
    this.#now = now;
    this.#timeoutMs = timeoutMs;
    this.#replicaId = replicaId;
    this.#seal = seal;
  }

  async open(
    command: string,
    spec: JournalledChange,
    made: MadeChange,
    requester: Requester,
    correlationId: string,
  ): Promise<ChangeRecord> {
    const now = this.#now();
    const record: ChangeRecord = {
      id: randomBytes(12).toString('base64url'),
      operation: spec.operation,
      command,
      target: made.target,
      parameters: this.#sealed(spec, made.parameters),
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

  get(id: string): Promise<ChangeRecord | undefined> {
    return this.#store.changes.get(id);
  }

  /**
   * The parameters to send, secrets unsealed: only in memory, only for the call. Throws a UserError when
   * a secret cannot be opened (HOSTING_API_TOKEN changed since it was typed), so nothing is sent.
   */
  sendable(record: ChangeRecord, spec: JournalledChange): Record<string, unknown> {
    const clear: Record<string, unknown> = { ...record.parameters };
    for (const key of spec.secrets ?? []) {
      const value = clear[key];
      if (!isSealed(value)) continue;
      const secret = this.#seal.unseal(value);
      if (secret === undefined) throw new UserError(message('changes.secret_unreadable', { option: key }));
      clear[key] = secret;
    }
    return clear;
  }

  #sealed(spec: JournalledChange, parameters: object): Record<string, unknown> {
    const copy: Record<string, unknown> = { ...parameters };
    for (const key of spec.secrets ?? []) {
      const value = copy[key];
      if (typeof value === 'string') copy[key] = this.#seal.seal(value);
    }
    return copy;
  }

  /**
   * pending → sending, if still pending and not expired. Returns the record as it was, secrets included
   * (they are needed for this one call), while the stored row keeps only their masked form.
   */
  async claim(record: ChangeRecord, spec: JournalledChange): Promise<boolean> {
    const now = this.#now();
    return this.#store.changes.transition(
      record.id,
      'pending',
      'sending',
      // The sending replica's heartbeat is the lease: if it dies, another replica records `unknown`.
      { parameters: masked(spec, record.parameters), ...this.#sending(record, spec) },
      { now, notExpiredAt: now },
    );
  }

  /** What every move to `sending` writes: this replica's lease, and the DNS set the change sends. */
  #sending(record: ChangeRecord, spec: JournalledChange): ChangePatch {
    const sends = spec.dnsSet?.(record.parameters);
    return { replicaId: this.#replicaId, ...(sends && { sends }) };
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
  ): Promise<boolean> {
    const now = this.#now();
    return this.#store.changes.transition(
      record.id,
      'awaiting_approval',
      'sending',
      {
        parameters: masked(spec, record.parameters),
        ...this.#sending(record, spec),
        approval: { ...(record.approval ?? {}), approvedById: approver.id, approvedByName: approver.name },
      },
      { now, notExpiredAt: now },
    );
  }

  /** awaiting_approval → rejected or expired; the secrets go with it. */
  decide(
    record: ChangeRecord,
    spec: JournalledChange,
    to: 'rejected' | 'expired',
    approval: Record<string, unknown>,
  ): Promise<boolean> {
    return this.#store.changes.transition(
      record.id,
      'awaiting_approval',
      to,
      { parameters: masked(spec, record.parameters), approval },
      { now: this.#now() },
    );
  }

  /** unknown → sending: the same change once more (only for repeatable ones). */
  resend(record: ChangeRecord, spec: JournalledChange): Promise<boolean> {
    return this.#store.changes.transition(record.id, 'unknown', 'sending', this.#sending(record, spec), {
      now: this.#now(),
    });
  }

  /** Changes whose sending replica is no longer among the live ones: recorded `unknown`, each once. */
  orphans(live: readonly string[]): Promise<ChangeRecord[]> {
    return this.#store.changes.orphanSending(live, { reason: 'the replica sending it stopped' }, this.#now());
  }

  /**
   * sending (or, for a read-back, unknown) → its outcome. From `sending` only while this replica still
   * holds the lease: false means another replica found it gone and has already recorded `unknown`.
   */
  settle(
    record: ChangeRecord,
    from: ChangeState,
    to: SentState,
    result: Record<string, unknown>,
  ): Promise<boolean> {
    return this.#store.changes.transition(
      record.id,
      from,
      to,
      { result },
      { now: this.#now(), ...(from === 'sending' && { heldBy: this.#replicaId }) },
    );
  }

  /** pending → cancelled or expired; the secrets go with the pending state. */
  close(record: ChangeRecord, spec: JournalledChange, to: 'cancelled' | 'expired'): Promise<boolean> {
    return this.#store.changes.transition(
      record.id,
      'pending',
      to,
      { parameters: masked(spec, record.parameters) },
      { now: this.#now() },
    );
  }

  /** Pending or awaiting changes past their deadline: of a previous run, or of another replica. */
  async overdue(): Promise<ChangeRecord[]> {
    const now = this.#now().getTime();
    const pending = await this.#store.changes.listByState(['pending', 'awaiting_approval'], 500);
    return pending.filter((record) => record.expiresAt.getTime() <= now);
  }
}

/** The parameters with every secret, clear or sealed, replaced by its last four characters. */
export function masked(spec: Pick<JournalledChange, 'secrets'>, parameters: object): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...parameters };
  for (const key of spec.secrets ?? []) {
    const value = copy[key];
    if (typeof value === 'string') copy[key] = maskSecret(value);
    else if (isSealed(value)) copy[key] = value.mask;
  }
  return copy;
}
