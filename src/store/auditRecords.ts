/** The audit trail as the store keeps and searches it. */

/** Which audit entries may feed suggestions: one command's entries with one of these outcomes. */
export interface TargetSource {
  command: string;
  subcommand: string;
  outcomes: readonly string[];
}

export interface AuditEntry {
  id: number;
  at: Date;
  userId: string;
  userName: string;
  guildId: string | null;
  channelId: string | null;
  command: string;
  /** '' for commands without subcommands. */
  subcommand: string;
  target: string | null;
  outcome: string;
  detail: string | null;
  correlationId: string;
  durationMs: number | null;
  parameters: Record<string, unknown> | null;
  changeId: string | null;
  /** Who acted, where it was not `userId` (the requester): the approver who approved or rejected. */
  actedById: string | null;
  actedByName: string | null;
}

export type NewAuditEntry = Omit<AuditEntry, 'id' | 'actedById' | 'actedByName'> &
  Partial<Pick<AuditEntry, 'actedById' | 'actedByName'>>;

/** Every given field must match. */
export interface AuditFilter {
  /** The requester, or whoever acted on their change (an approver). */
  userId?: string;
  command?: string;
  subcommand?: string;
  /** Case-insensitive substring of the target; `%`, `_` and `\` match themselves. */
  target?: string;
  /**
   * The whole target, case-insensitively (`audit_target_exact`): what `/audit` searches for text shorter
   * than TARGET_SUBSTRING_MIN characters, which has no trigram for an index to find it within targets by.
   */
  targetExact?: string;
  /** Entries at or after this instant. */
  since?: Date;
  outcome?: string;
  /**
   * Only entries after this one in the order of the pages (newest first: an earlier `at`, or the same
   * and a smaller id): where the previous chunk of an export ended.
   */
  before?: { at: Date; id: number };
}

export interface Page {
  limit: number;
  offset: number;
}

/** One page of `/audit`, from either end of the matches, and the matches counted up to a cap. */
export interface AuditSearch extends Page {
  /** `newest`: `offset` counts from the newest match (page 1 is the newest ten); `oldest`: from the oldest. */
  from: 'newest' | 'oldest';
  /** Count at most this many matches: past it the answer says "more than", and costs no more. */
  countUpTo: number;
}

export interface AuditSearchResult {
  /** Newest first, from either end. */
  rows: AuditEntry[];
  /** Every match when `capped` is false; `countUpTo` when there are more. */
  total: number;
  /** True when there are more than `total` (= `countUpTo`) matches. */
  capped: boolean;
  /** Whether matches lie past this page, away from the end it counts from (older ones from `newest`). */
  more: boolean;
}
