import type { Tier } from './tiers.js';

export type { Grant, GrantSubject } from '../store/index.js';

/** The tiers a grant may give (cumulative, as the role variables are). */
export const GRANT_TIERS = ['viewer', 'operator', 'admin'] as const satisfies readonly Tier[];
export type GrantTier = (typeof GRANT_TIERS)[number];

export function isGrantTier(what: string): what is GrantTier {
  return (GRANT_TIERS as readonly string[]).includes(what);
}
