import type { Locale } from '../i18n/locales.js';
import type { GrantQueries } from './grantRecords.js';
import type { OwedPost, PostKind, PostsToTake } from './OwedPost.js';
import type { NewRegistryRecord, RegistryFlag, RegistryRecord } from './registryTypes.js';

/**
 * The persistent store as the rest of HostOps sees it: plain JS values, no SQL and no engine types.
 * Times are `Date`s here and epoch milliseconds in the database, so both engines compare them the same way.
 */

import type {
  AuditEntry,
  AuditFilter,
  AuditSearch,
  AuditSearchResult,
  NewAuditEntry,
  Page,
  TargetSource,
} from './auditRecords.js';
import type {
  FlaggedDomain,
  WatchAddResult,
  WatchAlertRecord,
  WatchedDomain,
  WatchFindings,
} from './watchRecords.js';

export type * from './auditRecords.js';
export type * from './grantRecords.js';
export type * from './watchRecords.js';

export type ChangeState =
  | 'pending'
  /** Confirmed by the requester, waiting for a second person (APPROVAL_REQUIRED). */
  | 'awaiting_approval'
  | 'sending'
  | 'done'
  | 'failed'
  | 'unknown'
  | 'cancelled'
  | 'rejected'
  | 'expired';

/** A changing command awaiting, undergoing or past its confirmation. */
export interface ChangeRecord {
  /** Random, url-safe, at most 32 characters; chosen by the caller (it travels in button custom ids). */
  id: string;
  operation: string;
  /** As typed, e.g. `/domain register`. */
  command: string;
  target: string | null;
  parameters: Record<string, unknown>;
  preview: unknown;
  requestedById: string;
  requestedByName: string;
  guildId: string | null;
  channelId: string | null;
  state: ChangeState;
  correlationId: string;
  result: Record<string, unknown> | null;
  createdAt: Date;
  updatedAt: Date;
  /** The prompt's deadline while pending, the approval's while awaiting approval. */
  expiresAt: Date;
  /** The replica sending it (state `sending`). */
  replicaId: string | null;
  /** Its approval request: where it was posted, who approved or rejected, why. */
  approval: Record<string, unknown> | null;
  /** The requester's language: their prompt is written, and later edited, in it. */
  locale: Locale;
}

/** `updatedAt` starts out equal to `createdAt`. */
export type NewChange = Omit<ChangeRecord, 'updatedAt' | 'result' | 'replicaId' | 'approval'> & {
  result?: Record<string, unknown> | null;
};

/** Fields a transition may rewrite alongside the state; `undefined` leaves a field as it is. */
export interface ChangePatch {
  parameters?: Record<string, unknown>;
  preview?: unknown;
  result?: Record<string, unknown> | null;
  expiresAt?: Date;
  replicaId?: string | null;
  approval?: Record<string, unknown> | null;
  /** Moving to `sending`: one change of this key at a time; else TargetBusyError, nothing changed. */
  serialKey?: string | null;
  /** The record set a move to `sending` sends: written in its transaction, at its `now`, by its requester. */
  sends?: Pick<DnsSet, 'domain' | 'records'>;
}

/**
 * A `sending` change's result until its request is handed to the connection (ChangeJournal.handOver):
 * what tells a sweep that such a change was never sent. Written with every move to `sending`.
 */
export const NOT_HANDED = { handed: false } as const;
/** A `sending` change's result from the moment its request is handed to the connection. */
export const HANDED = { handed: true } as const;

export interface TransitionOptions {
  /** Stored as `updatedAt`; defaults to the current time. */
  now?: Date;
  /** Refuse the transition unless the change expires strictly after this instant. */
  notExpiredAt?: Date;
  /** Refuse the transition unless this replica still holds the change's lease (its `replicaId`). */
  heldBy?: string;
  /** The audit row of the change's end: written in the transition's transaction, or not at all. */
  audit?: OwedAudit;
}

/** An audit row, and what it owes Discord (OwedPost: Store.audit.takePosts), if anything. */
export interface OwedAudit {
  entry: NewAuditEntry;
  /** Owed from `from` on (the store's clock): then any replica's sweep may take them and post them. */
  owes?: { kinds: readonly PostKind[]; from: Date };
}

/** A form (modal) shown and not yet submitted: what its submit needs, whichever replica receives it. */
export interface OpenForm {
  id: string;
  ownerId: string;
  /** `/domain dns` */
  command: string;
  /** The command's own state for its submit (JSON). */
  state: Record<string, unknown>;
  correlationId: string;
  /** By the store's clock. */
  expiresAt: Date;
}

/** A form being opened: it stays open for `openForMs` from now by the store's clock. */
export type NewForm = Omit<OpenForm, 'expiresAt'> & { openForMs: number };

/** A bot answers Discord; a console session only sends what its one user confirms. */
export type ReplicaRole = 'bot' | 'console';

export interface ReplicaRecord {
  replicaId: string;
  role: ReplicaRole;
  host: string;
  pid: number;
  startedAt: Date;
  heartbeatAt: Date;
}

/** A DNS record set a change sent (whatever became of it), as written when it was sent. */
export interface SentDnsSet {
  changeId: string;
  /** ASCII (punycode). */
  domain: string;
  /** Exactly as encoded for the API (encodeDnsRecords). */
  records: string;
  sentById: string;
  sentByName: string;
  /** When its change moved to `sending`: two sends in flight are ordered as they were sent. */
  sentAt: Date;
  correlationId: string;
}

/**
 * The ends of a change whose DNS set may have been applied: the set is remembered, however the change
 * settled (its sender, a read-back, the orphan sweep, a shutdown).
 */
export const REMEMBERED_OUTCOMES = ['done', 'unknown'] as const satisfies readonly ChangeState[];

/** A DNS record set that may be the domain's: its change's outcome is `done` or `unknown`. */
export interface DnsSet extends SentDnsSet {
  /** Its change's state. `unknown`: the request left, its answer was not understood. */
  outcome: (typeof REMEMBERED_OUTCOMES)[number];
}

export interface Store {
  readonly engine: 'sqlite' | 'postgres';
  readonly changes: {
    insert(change: NewChange): Promise<void>;
    get(id: string): Promise<ChangeRecord | undefined>;
    /**
     * One conditional UPDATE … WHERE id = ? AND state IN (from) [AND expires_at > notExpiredAt]; true iff
     * exactly one row changed. This is the exactly-once primitive: of any number of concurrent callers
     * (in this process or another replica), at most one sees true.
     * With `patch.serialKey`, a move to `sending` throws TargetBusyError while another change of that key
     * is sending: of concurrent claims of one key, at most one succeeds, whichever the records.
     */
    transition(
      id: string,
      from: ChangeState | readonly ChangeState[],
      to: ChangeState,
      patch?: ChangePatch,
      options?: TransitionOptions,
    ): Promise<boolean>;
    /** Oldest first. */
    listByState(states: readonly ChangeState[], limit?: number): Promise<ChangeRecord[]>;
    /** Approval requests open, and how many of them run out before `dueBefore` (for the gauges). */
    countAwaiting(dueBefore: Date): Promise<{ waiting: number; due: number }>;
    /**
     * Changes in `states` whose deadline has come (`expiresAt` at or before `now`, by default the store's
     * clock), soonest deadline first (then by id), `limit` of them after `after` (the last of the page
     * before): pages that reach every due change, whatever waits with a later deadline.
     */
    due(
      states: readonly ChangeState[],
      page: { limit: number; after?: Pick<ChangeRecord, 'expiresAt' | 'id'>; now?: Date },
    ): Promise<ChangeRecord[]>;
    /**
     * Moves every `sending` change whose replica is not among `live` (or is unknown) — and, with `own`,
     * every one of that replica's that none of its sends `held` — to its end, with `result`, and returns
     * them: `failed` (`sent: false`) if its result is still NOT_HANDED (never handed to the connection),
     * else `unknown` (nobody knows whether it was sent).
     */
    orphanSending(
      live: readonly string[],
      result: Record<string, unknown>,
      now: Date,
      own?: { replicaId: string; held: readonly string[] },
      /** Each swept change's audit row, written in the same transaction. */
      audit?: (swept: ChangeRecord) => OwedAudit,
    ): Promise<ChangeRecord[]>;
  };
  /**
   * The DNS record sets HostOps sent: written with the change's move to `sending` (ChangePatch.sends),
   * remembered while its state is `done` or `unknown` — so however the change settles, its set is
   * remembered exactly when its outcome says it may have been applied.
   */
  readonly dnsSets: {
    /** The set a change sent, if it is remembered. */
    get(changeId: string): Promise<DnsSet | undefined>;
    /**
     * The remembered set sent last for `domain`, or the last one sent before `before` (a set of that
     * domain), by the time each was sent.
     */
    latest(domain: string, before?: SentDnsSet): Promise<DnsSet | undefined>;
    /** Every set sent, remembered or not, oldest first (migrate-store). */
    all(): Promise<SentDnsSet[]>;
  };
  readonly watch: {
    /**
     * Inserts the domains not watched yet; returns which were added and which already were. When the
     * new ones would take the list past `limit`, adds none and says how full it is (`full`).
     */
    add(
      domains: readonly { domain: string; unicode: string }[],
      addedById: string,
      now: Date,
      limit?: number,
    ): Promise<WatchAddResult>;
    remove(domains: readonly string[]): Promise<{ removed: string[]; notWatched: string[] }>;
    /** Soonest expiry first (unknown last), then by name. */
    list(page: Page): Promise<{ rows: WatchedDomain[]; total: number }>;
    all(): Promise<WatchedDomain[]>;
    /**
     * One page of the watch list by name, the first `limit` after `after` (from the start when undefined):
     * what is computed from the whole list (gauges, calendar) is read this way, so a long list never holds
     * the event loop for the whole of it.
     */
    page(after: string | undefined, limit: number): Promise<WatchedDomain[]>;
    /** The given domains that are watched, by name. */
    get(domains: readonly string[]): Promise<WatchedDomain[]>;
    count(): Promise<number>;
    /**
     * The watched domains that need attention — not found, inactive, expired, transferred away, or
     * failing — with their flags: what the flag and failure gauges export (one partial index range).
     */
    flagged(): Promise<FlaggedDomain[]>;
    /**
     * One page of the watched domains whose expiry date is known (`YYYY-MM-DD`), by name, the first
     * `limit` after `after` (from the start when undefined): what the expiry gauges export, read a page at
     * a time so a scrape of a long list never holds the event loop for the whole of it.
     */
    expiries(after: string | undefined, limit: number): Promise<{ domain: string; expiryDate: string }[]>;
    /** Watched domains containing `part` (ASCII or Unicode form), by name. */
    search(part: string, limit: number): Promise<string[]>;
    /**
     * Stores what a run found, if the row still holds what the run read before (`seen`): one
     * conditional update, so of two overlapping runs only one reports a change. True iff it applied.
     */
    record(seen: WatchedDomain, findings: WatchFindings, now: Date): Promise<boolean>;
    /** INSERT … ON CONFLICT DO NOTHING on (domain, key): true iff this alert had not been sent. */
    claimAlert(domain: string, key: string, now: Date): Promise<boolean>;
    /** Every alert ever sent (for migrate-store). */
    alerts(): Promise<WatchAlertRecord[]>;
  };
  /** The registry's answers (RDAP) per domain: see src/rdap. */
  readonly registry: {
    get(domains: readonly string[]): Promise<RegistryRecord[]>;
    /**
     * Stores an answer if the row is still at `previousVersion` (absent: if there is no row yet): one
     * conditional write, so of two overlapping runs only one reports a change. True iff it applied.
     */
    record(record: NewRegistryRecord, previousVersion: number | undefined): Promise<boolean>;
    /** Watched domains with a registry flag set. */
    flagged(): Promise<{ domain: string; flags: RegistryFlag[] }[]>;
    /** A page of the watched domains whose registry expiry is known, by name: `limit` after `after`. */
    expiries(after: string | undefined, limit: number): Promise<{ domain: string; expiresAt: string }[]>;
    /** Claims a re-read of `domain` unless one was claimed within `windowMs` (a conditional upsert). */
    claimReask(
      domain: string,
      now: Date,
      windowMs: number,
    ): Promise<{ claimed: true } | { claimed: false; at: Date }>;
  };
  readonly replicas: {
    /** Records that this replica is alive (insert or refresh), at `now` or else by the store's clock. */
    heartbeat(
      replica: { replicaId: string; role: ReplicaRole; host: string; pid: number; startedAt: Date },
      now?: Date,
    ): Promise<void>;
    /**
     * Replicas whose last heartbeat is at or after `since`, or within the last `withinMs` by the store's
     * clock (what replicas use: their local clocks may disagree), oldest first.
     */
    live(since: Date | { withinMs: number }): Promise<ReplicaRecord[]>;
    remove(replicaId: string): Promise<void>;
    /** The store's clock now: the one time replicas share (their local clocks may disagree). */
    clock(): Promise<Date>;
  };
  readonly settings: {
    get(key: string): Promise<string | undefined>;
    put(key: string, value: string, now: Date): Promise<void>;
  };
  /**
   * Forms are opened, taken and purged by the store's clock alone: the replica that opens one and the
   * one that receives its submit may disagree about the time.
   */
  readonly forms: {
    open(form: NewForm): Promise<void>;
    /**
     * Removes and returns the form if it is this owner's and still open: of two submits, or two
     * replicas receiving one, exactly one gets it.
     */
    take(id: string, ownerId: string): Promise<OpenForm | undefined>;
    /** The form if it is this owner's and still open, left open (Edit draws it again). */
    peek(id: string, ownerId: string): Promise<OpenForm | undefined>;
    /** Forgets forms that have closed (never submitted); returns how many. */
    purgeExpired(): Promise<number>;
  };
  readonly audit: {
    /** Returns the new entry's id. */
    insert(entry: NewAuditEntry): Promise<number>;
    /**
     * Takes owed posts (OwedAudit) for `leaseMs` of the store's clock — the line of one change's end
     * (`{ changeId, outcome }`, its first take only), or `{ due: limit }` of those whose time has come —
     * each for one caller at a time; they stay owed until `postDone`.
     */
    takePosts(which: PostsToTake, leaseMs: number): Promise<OwedPost[]>;
    /** Discord accepted the post, or it was given up: no longer owed. False if it was not (any more). */
    postDone(auditId: number, kind: PostKind): Promise<boolean>;
    /** Newest first (at desc, id desc); `total` counts every match, ignoring the page. */
    query(filter: AuditFilter, page: Page): Promise<{ rows: AuditEntry[]; total: number }>;
    /**
     * The newest `limit` matches, and no count: the chunks of an export, each one `before` the last
     * entry of the one before.
     */
    rows(filter: AuditFilter, limit: number): Promise<AuditEntry[]>;
    /**
     * What `/audit` shows: a page from either end and a count that stops at `countUpTo`, so neither a
     * search that half the trail matches nor the oldest page of it needs every match counted.
     */
    search(filter: AuditFilter, page: AuditSearch): Promise<AuditSearchResult>;
    /** Deletes entries strictly older than `cutoff`; returns how many. */
    purgeOlderThan(cutoff: Date): Promise<number>;
    /**
     * Distinct targets among the newest entries of these commands and outcomes (RECENT_WINDOW of each)
     * that contain `part` (case-insensitive), most recent first: what was used lately, for suggestions.
     */
    recentTargets(sources: readonly TargetSource[], part: string, limit: number): Promise<string[]>;
  };
  readonly claims: {
    /** True iff this call made the claim, so exactly one replica handles an interaction. */
    claimInteraction(interactionId: string, replicaId: string, now: Date): Promise<boolean>;
    /** True iff this call made the claim, so exactly one replica runs a job's slot (e.g. one scheduler tick). */
    claimJobRun(job: string, slot: string, replicaId: string, now: Date): Promise<boolean>;
    /** Deletes interaction and job claims made strictly before `cutoff`; returns how many. */
    purgeOlderThan(cutoff: Date): Promise<number>;
  };
  /**
   * Bulk import, for `npm run migrate-store` only: in one transaction, and only into a store that holds no
   * change and no audit entry (otherwise nothing is written and the counts found are returned). Changes
   * are written as given, every column included; audit entries get new ids in the order given.
   */
  importRows(rows: ImportRows): Promise<ImportResult>;
  /** /access grants (migration 0021). */
  readonly grants: GrantQueries;
  close(): Promise<void>;
}

/** What `Store.importRows` writes, in batches (read lazily, inside the transaction). */
export interface ImportRows {
  changes: AsyncIterable<readonly ChangeRecord[]> | Iterable<readonly ChangeRecord[]>;
  audit: AsyncIterable<readonly NewAuditEntry[]> | Iterable<readonly NewAuditEntry[]>;
  /** The watch list and the alerts already sent, so none is sent again after the move. */
  watch?: { domains: readonly WatchedDomain[]; alerts: readonly WatchAlertRecord[] };
  /** The DNS sets sent, so the next prompt still shows what it replaces and Revert still finds them. */
  dnsSets?: readonly SentDnsSet[];
}

export type ImportResult =
  | { imported: true; changes: number; audit: number; watched: number; alerts: number; dnsSets: number }
  /** The store was not empty; nothing was written. */
  | { imported: false; existing: { changes: number; audit: number } };
