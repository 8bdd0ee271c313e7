import type { Tier } from '../discord/access.js';

/** The tiers a grant may give (cumulative, as the role variables are). */
export const GRANT_TIERS = ['viewer', 'operator', 'admin'] as const satisfies readonly Tier[];
export type GrantTier = (typeof GRANT_TIERS)[number];

export interface GrantSubject {
  kind: 'role' | 'user';
  id: string;
}

/** Who may run what on which resources, until when: a row of the store, or a role variable read as one. */
export interface Grant {
  /** `g…` for a grant of the store; the variable's name (`ADMIN_ROLE_IDS`) for one of the configuration. */
  id: string;
  subject: GrantSubject;
  /** Command paths without the slash (`domain dns`) or tiers (`operator`). */
  what: readonly string[];
  /** Canonical pattern texts (patterns.ts). */
  patterns: readonly string[];
  /** Null: until revoked. An elevation always ends. */
  until: Date | null;
  createdBy: string;
  createdAt: Date;
  /** The approved request an elevation came from (its change id), null for a plain grant. */
  requestId: string | null;
}

export type NewGrant = Omit<Grant, 'id' | 'createdAt'>;

export function isGrantTier(what: string): what is GrantTier {
  return (GRANT_TIERS as readonly string[]).includes(what);
}
