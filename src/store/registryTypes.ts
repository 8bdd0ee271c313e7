/** What a registry's answer (RDAP) was, as the store keeps it per domain. */
export type RegistryOutcome = 'ok' | 'not_found' | 'no_rdap' | 'unreadable' | 'failed';

/** The findings that stay true until the registry says otherwise (flags of the gauges). */
export const REGISTRY_FLAGS = [
  'expiry_differs',
  'transfer_pending',
  'held',
  'transfer_lock_off',
  'unreadable',
] as const;
export type RegistryFlag = (typeof REGISTRY_FLAGS)[number];

/** The registry's last answer for one domain, and what HostOps concluded from it. */
export interface RegistryRecord {
  /** ASCII (punycode), the key. */
  domain: string;
  /** When the registry was last asked (or found to offer no RDAP). */
  readAt: Date;
  outcome: RegistryOutcome;
  /** The server's origin that answered. */
  server: string | null;
  /** The `expiration` event, an instant (ISO 8601), as the registry gave it. */
  expiresAt: string | null;
  /** RFC 9083 status values, lower case. */
  statuses: string[] | null;
  /** Lower case, sorted. */
  nameservers: string[] | null;
  delegationSigned: boolean | null;
  /** The flags set after this answer. */
  flags: RegistryFlag[];
  /**
   * Whether the flags were decided for the watch: a look-up of a domain that was not watched at the time
   * leaves them as they were, and the watch asks again once the domain is watched.
   */
  watched: boolean;
  /** Raised with every write: what a conditional update compares. */
  version: number;
}

/** A stored answer, as written: `version` is the store's. */
export type NewRegistryRecord = Omit<RegistryRecord, 'version'>;
