import type { NewAuditEntry } from './auditRecords.js';

/** Who a grant is for: a Discord role or one user. */
export interface GrantSubject {
  kind: 'role' | 'user';
  id: string;
}

/** Who may run what on which resources, until when: a row of `access_grants` (migration 0021). */
export interface Grant {
  /** `g…` for a grant of the store; the variable's name (`ADMIN_ROLE_IDS`) for one of the configuration. */
  id: string;
  subject: GrantSubject;
  /** Command paths without the slash (`domain dns`) or tiers (`operator`). */
  what: readonly string[];
  /** Canonical pattern texts (src/access/patterns.ts). */
  patterns: readonly string[];
  /** Null: until revoked. An elevation always ends. */
  until: Date | null;
  createdBy: string;
  createdAt: Date;
  /** The approved request an elevation came from (its change id), null for a plain grant. */
  requestId: string | null;
}

/** The grants in force as one read: their generation (bumped by every write) and the rows. */
export interface GrantSet {
  generation: number;
  grants: Grant[];
}

/** The grants' queries: each write bumps the generation in its own transaction. */
export interface GrantQueries {
  /** The generation alone: one primary-key read, made before every decision. */
  generation(): Promise<number>;
  /** Every grant with the generation they are of, read in one transaction. */
  load(): Promise<GrantSet>;
  add(grant: Grant): Promise<void>;
  /** Removes the grant; the removed one, or undefined when there was none of that id. */
  revoke(id: string): Promise<Grant | undefined>;
  /** The elevations (grants of an approved request) whose `until` is at or before `now`. */
  endedElevations(now: Date): Promise<Grant[]>;
  /**
   * Removes an elevation past its end and writes `entry` (its "ended" row) in one transaction: true for
   * the one caller that removed it, false when another replica did (or it was revoked) first.
   */
  endElevation(id: string, now: Date, entry: NewAuditEntry): Promise<boolean>;
  /**
   * In one transaction, if the generation is still `generation` (what the import's prompt showed the
   * difference to): removes `remove` and adds `add`. False, and nothing written, when it moved on.
   */
  replace(generation: number, remove: readonly string[], add: readonly Grant[]): Promise<boolean>;
}
