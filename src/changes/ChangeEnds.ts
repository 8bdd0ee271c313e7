import {
  type ChangeRecord,
  type ChangeState,
  LEASE_MS,
  type NewAuditEntry,
  type OwedAudit,
  type PostKind,
  type Store,
} from '../store/index.js';
import { masked } from './masked.js';

/** Where a change ends once it has been sent. */
export type SentState = 'done' | 'failed' | 'unknown';
/** Where a change ends that was never sent: its prompt cancelled or run out, its approval refused or run out. */
export type ClosedState = 'cancelled' | 'expired' | 'rejected';
/** Every final state of a change. */
export type EndState = SentState | ClosedState;

/**
 * A change's end as its audit row, written in the same transaction as the end itself, with what it owes
 * Discord (its audit-channel line, a sweep's notice): owed until Discord accepted it (OwedPosts).
 */
export interface Ended {
  entry: NewAuditEntry & { outcome: EndState };
  posts: readonly PostKind[];
}

/**
 * Every move of a change to a final state, each one conditional update with the end's audit row (and what
 * it owes Discord) in its transaction: a kill or a store error between the state and its row cannot
 * happen, because there is no "between". Nothing else moves a change to a final state.
 */
export class ChangeEnds {
  readonly #store: Store;
  readonly #now: () => Date;
  readonly #replicaId: string;
  /** The changes this process holds in `sending` (ChangeJournal's): its own sweep leaves them alone. */
  readonly #held: Set<string>;

  constructor(store: Store, now: () => Date, replicaId: string, held: Set<string>) {
    this.#store = store;
    this.#now = now;
    this.#replicaId = replicaId;
    this.#held = held;
  }

  /**
   * sending (or, for a read-back, unknown) → its outcome. From `sending` only while this replica still
   * holds the lease: false means another replica found it gone and has already recorded `unknown`.
   */
  async settle(
    record: ChangeRecord,
    from: ChangeState,
    to: SentState,
    result: Record<string, unknown>,
    ended: Ended,
  ): Promise<boolean> {
    const settled = await this.#store.changes.transition(
      record.id,
      from,
      to,
      { result },
      {
        now: this.#now(),
        ...(from === 'sending' && { heldBy: this.#replicaId }),
        audit: this.#owed(ended),
      },
    );
    // Decided either way (it threw otherwise): no longer this process's to hold.
    if (from === 'sending') this.#held.delete(record.id);
    return settled;
  }

  /** pending → cancelled or expired; the secrets go with the pending state. */
  close(
    record: ChangeRecord,
    spec: { readonly secrets?: readonly string[] },
    to: 'cancelled' | 'expired',
    ended: Ended,
  ): Promise<boolean> {
    return this.#store.changes.transition(
      record.id,
      'pending',
      to,
      { parameters: masked(spec, record.parameters) },
      { now: this.#now(), audit: this.#owed(ended) },
    );
  }

  /** awaiting_approval → rejected or expired; the secrets go with it. */
  decide(
    record: ChangeRecord,
    spec: { readonly secrets?: readonly string[] },
    to: 'rejected' | 'expired',
    approval: Record<string, unknown>,
    ended: Ended,
  ): Promise<boolean> {
    return this.#store.changes.transition(
      record.id,
      'awaiting_approval',
      to,
      { parameters: masked(spec, record.parameters), approval },
      { now: this.#now(), audit: this.#owed(ended) },
    );
  }

  /**
   * Changes whose sending replica is no longer among the live ones, and this replica's own that no send
   * of it holds: recorded `unknown` (or `failed`, never handed to the connection), each once.
   */
  orphans(live: readonly string[], audit: (swept: ChangeRecord) => Ended): Promise<ChangeRecord[]> {
    return this.#store.changes.orphanSending(
      live,
      { reason: 'the replica sending it stopped' },
      this.#now(),
      { replicaId: this.#replicaId, held: [...this.#held] },
      (swept) => this.#owed(audit(swept)),
    );
  }

  /** An end's audit row; what it owes Discord, if anything, is the sweep's to post a lease from now. */
  #owed({ entry, posts }: Ended): OwedAudit {
    if (posts.length === 0) return { entry };
    return { entry, owes: { kinds: posts, from: new Date(this.#now().getTime() + LEASE_MS) } };
  }
}
