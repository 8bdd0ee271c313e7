/** The watch list as the store keeps it: watched domains, what a run found, the alerts sent. */

export type WatchStatus = 'new' | 'ok' | 'not_found' | 'failed';

/** A watched domain as the last run saw it. */
export interface WatchedDomain {
  /** ASCII (punycode), the key. */
  domain: string;
  unicode: string;
  addedById: string;
  addedAt: Date;
  checkedAt: Date | null;
  status: WatchStatus;
  /** Failed runs in a row. */
  failures: number;
  /** `YYYY-MM-DD`, or null while unknown. */
  expiryDate: string | null;
  active: boolean | null;
  expired: boolean | null;
  transferredAway: boolean | null;
}

export interface FlaggedDomain {
  domain: string;
  notFound: boolean;
  inactive: boolean;
  expired: boolean;
  transferredAway: boolean;
  /** Failed runs in a row. */
  failures: number;
}

export interface WatchAddResult {
  added: string[];
  already: string[];
  /** Set when nothing was added because the list would pass its limit. */
  full?: { watched: number; adding: number; limit: number };
}

/** The fields a run may change. */
export type WatchFindings = Pick<
  WatchedDomain,
  'status' | 'failures' | 'expiryDate' | 'active' | 'expired' | 'transferredAway'
>;

export interface WatchAlertRecord {
  domain: string;
  key: string;
  sentAt: Date;
}
