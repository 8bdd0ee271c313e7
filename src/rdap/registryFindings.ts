import { DateTime } from 'luxon';
import type { NewRegistryRecord, RegistryFlag, RegistryRecord } from '../store/registryTypes.js';

/** The findings of the registry check, as digest lines and alert kinds (hostops_watch_alerts_total). */
export const REGISTRY_FINDINGS = [
  'registry_expiry_differs',
  'registry_transfer_pending',
  'registry_held',
  'registry_transfer_lock_off',
  'registry_nameservers_changed',
  'registry_unreadable',
] as const;
export type RegistryFinding = (typeof REGISTRY_FINDINGS)[number];

/** One finding, for the digest. */
export interface RegistryAlert {
  kind: RegistryFinding;
  domain: string;
  unicode: string;
  /** expiry_differs: both calendar dates (in HOSTING_API_TIMEZONE). */
  registryDate?: string;
  providerDate?: string;
  /** held, transfer_pending: the status values that say so. */
  statuses?: string[];
  /** nameservers_changed. */
  from?: string[];
  to?: string[];
  /** unreadable: why, in plain words. */
  why?: string;
}

/** What one answer of the registry said about a domain (RFC 9083's domain object, kept fields only). */
export type RegistryAnswer =
  | {
      kind: 'ok';
      server: string;
      expiresAt: string | null;
      statuses: string[];
      nameservers: string[];
      delegationSigned: boolean | null;
    }
  | { kind: 'not_found'; server: string }
  | { kind: 'no_rdap' }
  | { kind: 'unreadable'; server: string; why: string };

export const HELD = ['server hold', 'client hold', 'redemption period', 'pending delete'];
export const TRANSFER_PENDING = 'pending transfer';
const TRANSFER_LOCK = 'client transfer prohibited';

/** The registry's expiry as a calendar date in `zone`. */
export function registryDate(expiresAt: string, zone: string): string {
  return DateTime.fromISO(expiresAt, { zone: 'utc' }).setZone(zone).toISODate() ?? expiresAt.slice(0, 10);
}

/** Whether two calendar dates (`YYYY-MM-DD`) lie more than one day apart. */
export function differs(registry: string, provider: string): boolean {
  return Math.abs(DateTime.fromISO(registry).diff(DateTime.fromISO(provider), 'days').days) > 1;
}

/**
 * What changed, pure: the stored answer (`previous`), the new one, the provider's expiry date, and
 * whether HostOps itself sent the nameservers the registry now shows. Findings go out once per change:
 * a flag when it is newly set, a nameserver change when the set differs from the last one seen.
 */
export function decideRegistry(input: {
  domain: string;
  unicode: string;
  previous: RegistryRecord | undefined;
  answer: RegistryAnswer;
  providerExpiry: string | null;
  timeZone: string;
  readAt: Date;
  /** True when the new nameservers are the ones HostOps sent (the DNS memory). */
  ownNameservers: boolean;
  /** Whether the domain is watched: only then are flags decided and findings reported. */
  watched: boolean;
}): { record: NewRegistryRecord; alerts: RegistryAlert[] } {
  const { domain, unicode, previous, answer, providerExpiry, timeZone, readAt } = input;
  const base = { domain, unicode };
  const alerts: RegistryAlert[] = [];
  const flags: RegistryFlag[] = [];
  let record: NewRegistryRecord = {
    domain,
    readAt,
    outcome: answer.kind,
    server: 'server' in answer ? answer.server : null,
    expiresAt: null,
    statuses: null,
    nameservers: null,
    delegationSigned: null,
    flags,
    watched: true,
  };
  if (answer.kind === 'unreadable') {
    // What was last read stays: an unreadable answer is no news about the domain.
    record = {
      ...record,
      expiresAt: previous?.expiresAt ?? null,
      statuses: previous?.statuses ?? null,
      nameservers: previous?.nameservers ?? null,
      delegationSigned: previous?.delegationSigned ?? null,
    };
    flags.push('unreadable');
  }
  if (answer.kind === 'ok') {
    record = {
      ...record,
      expiresAt: answer.expiresAt,
      statuses: answer.statuses,
      nameservers: answer.nameservers,
      delegationSigned: answer.delegationSigned,
    };
    const statuses = new Set(answer.statuses);
    if (answer.expiresAt !== null && providerExpiry !== null) {
      if (differs(registryDate(answer.expiresAt, timeZone), providerExpiry)) flags.push('expiry_differs');
    }
    if (statuses.has(TRANSFER_PENDING)) flags.push('transfer_pending');
    if (HELD.some((s) => statuses.has(s))) flags.push('held');
    const lockedBefore =
      previous?.statuses?.includes(TRANSFER_LOCK) || previous?.flags.includes('transfer_lock_off');
    if (!statuses.has(TRANSFER_LOCK) && lockedBefore) flags.push('transfer_lock_off');
    const before = previous?.nameservers;
    if (
      before &&
      before.length > 0 &&
      before.join(' ') !== answer.nameservers.join(' ') &&
      !input.ownNameservers
    ) {
      alerts.push({ ...base, kind: 'registry_nameservers_changed', from: before, to: answer.nameservers });
    }
  }
  if (answer.kind === 'not_found' || answer.kind === 'no_rdap') {
    // Nothing to compare; what was seen before is forgotten with it.
  }
  if (!input.watched) {
    // Not watched: the answer is kept for the next request, the watch's flags and findings stay as they were.
    return {
      record: { ...record, flags: previous?.flags ?? [], watched: previous?.watched ?? false },
      alerts: [],
    };
  }
  const was = new Set(previous?.flags ?? []);
  for (const flag of flags) {
    if (was.has(flag)) continue;
    if (flag === 'expiry_differs' && answer.kind === 'ok' && answer.expiresAt && providerExpiry) {
      alerts.push({
        ...base,
        kind: 'registry_expiry_differs',
        registryDate: registryDate(answer.expiresAt, timeZone),
        providerDate: providerExpiry,
      });
    } else if (flag === 'transfer_pending' || flag === 'held') {
      const statuses = answer.kind === 'ok' ? answer.statuses : [];
      alerts.push({
        ...base,
        kind: flag === 'held' ? 'registry_held' : 'registry_transfer_pending',
        statuses: statuses.filter((s) => (flag === 'held' ? HELD.includes(s) : s === TRANSFER_PENDING)),
      });
    } else if (flag === 'transfer_lock_off') {
      alerts.push({ ...base, kind: 'registry_transfer_lock_off' });
    } else if (flag === 'unreadable') {
      alerts.push({
        ...base,
        kind: 'registry_unreadable',
        why: answer.kind === 'unreadable' ? answer.why : '',
      });
    }
  }
  return { record, alerts };
}
