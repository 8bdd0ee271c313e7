import type { WatchedDomain } from '../store/index.js';

// What each /watch answer is rendered from, as plain data (`ReadAnswer.data`; the console's `--json`).

export type WatchedDomainData = {
  /** ASCII (punycode); `unicode` when it differs. */
  domain: string;
  unicode?: string;
  /** `YYYY-MM-DD` as last seen, null while unknown. */
  expires: string | null;
  /** Calendar days from today (in the API's zone) to `expires`; negative once past. */
  daysLeft: number | null;
  /** new (not checked yet), ok, not_found or failed. */
  status: string;
  /** Failed checks in a row. */
  failures: number;
  active: boolean | null;
  expired: boolean | null;
  transferredAway: boolean | null;
  checkedAt: string | null;
};

export type WatchAddData = {
  added: string[];
  alreadyWatched: string[];
  invalid: { input: string; reason: string }[];
  /** Watched domains in all, after the add. */
  watching: number;
  /** Once the new domains were looked up (the answer's later version): failures, soonest expiries first. */
  lookedUp?: { failed: number; domains: WatchedDomainData[] };
};

export type WatchRemoveData = {
  removed: string[];
  notWatched: string[];
  invalid: { input: string; reason: string }[];
  watching: number;
};

export type WatchListData = { total: number; offset: number; domains: WatchedDomainData[] };

export type WatchCheckData = {
  checked: number;
  failed: number;
  alerts: number;
  /** Digest messages posted (or, in the console, printed). */
  messages: number;
  durationMs: number;
  /** ok, partial or failed. */
  outcome: string;
  /** Registries not asked about every domain by the check's deadline (carried to the next run). */
  registriesWaiting: { tlds: string[]; domains: number; until?: string }[];
};

export function watchedDomainData(row: WatchedDomain, daysLeft: number | null): WatchedDomainData {
  return {
    domain: row.domain,
    ...(row.unicode === row.domain ? {} : { unicode: row.unicode }),
    expires: row.expiryDate,
    daysLeft,
    status: row.status,
    failures: row.failures,
    active: row.active,
    expired: row.expired,
    transferredAway: row.transferredAway,
    checkedAt: row.checkedAt?.toISOString() ?? null,
  };
}
