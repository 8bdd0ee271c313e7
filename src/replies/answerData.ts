import type { DnsRecord } from '../hosting/dnsRecords.js';
import type { DomainInfo, ServerLogEntry } from '../hosting/operations.js';
import type { RegistryData } from '../rdap/registryData.js';
import type { AuditEntry, DnsSet } from '../store/index.js';
import type { ParsedDomain } from '../validation/parseDomain.js';

// What each read's answer is rendered from, as plain data (`ReadAnswer.data`; the console's `--json`
// prints it): ISO dates and instants, booleans as booleans, numbers as numbers, no Discord markup, no
// words of a language except the ones the provider or a person wrote (and, in /domain expiry, the reason a
// look-up failed; in /help, the descriptions).

/** A domain as sent (punycode), and as typed when that differs (an IDN). */
export type DomainName = { domain: string; unicode?: string };

export type DomainInfoData = DomainName & {
  /** The expiry date (a calendar day in the API's zone), null when the provider sends none. */
  expires: string | null;
  /** Calendar days from today (in the API's zone) to `expires`; negative once past. */
  daysLeft: number | null;
  active: boolean;
  expired: boolean;
  transferredAway: boolean;
  /** The registry's word (RDAP), when RDAP_CHECK is on. */
  registry?: RegistryData;
};

export type DomainExpiryData = {
  /** The `within` window in days. */
  within: number;
  /** In the order given; a failed look-up carries `error` (its reason, in words) instead of the state. */
  domains: (DomainInfoData | (DomainName & { error: string }))[];
  /** Entries that are not domain names, with why. */
  invalid: { input: string; reason: string }[];
};

export type ServerLogData = {
  serverId: number;
  /** As the provider wrote them. */
  type: string;
  status: string;
  /** How HostOps reads `status`: success, failure, running or unknown. */
  statusClass: string;
  start: string | null;
  end: string | null;
  /** Whole seconds from start to end, when both are known and in order. */
  durationSeconds: number | null;
};

export type DnsRecordsData = DomainName & {
  /** The last set sent through HostOps for the domain, or null when none was. */
  lastSet: {
    change: string;
    sentAt: string;
    sentBy: { id: string; name: string };
    /** done, or unknown when the provider's answer was lost (the set may or may not be in place). */
    outcome: string;
    records: DnsRecord[];
  } | null;
};

export type AuditEntryData = {
  at: string;
  user: { id: string; name: string };
  /** Who acted on the user's change (an approver), when someone else did. */
  actedBy?: { id: string; name: string };
  /** `server rdns`, or `help` for a command without subcommands. */
  command: string;
  target: string | null;
  outcome: string;
  /** The gate that refused, the option that was invalid, the error kind … */
  detail: string | null;
  /** The correlation id, also in the log lines. */
  reference: string;
  durationMs: number | null;
  change: string | null;
  /** As recorded: never a secret. */
  parameters: Record<string, unknown> | null;
};

export type AuditData = {
  filter: { since: string; user?: string; command?: string; outcome?: string; target?: string };
  /**
   * Matches in all, counted up to 10,000 (`COUNT_CAP`): with `totalCapped` there are more than `total`.
   * `entries` are the newest page of them, from `offset`.
   */
  total: number;
  totalCapped: boolean;
  offset: number;
  entries: AuditEntryData[];
  /** With `export:true`: the CSV attached, how many rows it holds, and the matches as counted above. */
  export?: { file: string; rows: number; total: number; totalCapped: boolean };
};

export type HelpData = {
  /** The caller's tier. */
  tier: string;
  /** Whether commands are taken in the channel it was asked in. */
  here: boolean;
  /** `where`: the patterns a grant allows it on, when the member's roles do not allow it everywhere. */
  commands: { command: string; tier: string; allowed: boolean; description: string; where?: string[] }[];
  /** On the sandbox only: the domains and servers it knows. */
  sandbox?: { domains: string[]; servers: { id: number; name: string }[] };
};

const domainName = (name: ParsedDomain): DomainName =>
  name.unicode === name.ascii ? { domain: name.ascii } : { domain: name.ascii, unicode: name.unicode };

/** `daysLeft`: as the embed counts it (daysUntil), null without an expiry date. */
export function domainInfoData(
  name: ParsedDomain,
  info: DomainInfo,
  daysLeft: number | null,
): DomainInfoData {
  return {
    ...domainName(name),
    expires: info.expiryDate?.toISODate() ?? null,
    daysLeft,
    active: info.active,
    expired: info.expired,
    transferredAway: info.transferredAway,
  };
}

export function failedLookupData(name: ParsedDomain, error: string): DomainName & { error: string } {
  return { ...domainName(name), error };
}

const instant = (date: Date | null) => (date && !Number.isNaN(date.getTime()) ? date : null);

export function serverLogData(serverId: number, entry: ServerLogEntry, statusClass: string): ServerLogData {
  const start = instant(entry.start);
  const end = instant(entry.end);
  return {
    serverId,
    type: entry.type,
    status: entry.status,
    statusClass,
    start: start?.toISOString() ?? null,
    end: end?.toISOString() ?? null,
    durationSeconds:
      start && end && end.getTime() >= start.getTime()
        ? Math.floor((end.getTime() - start.getTime()) / 1000)
        : null,
  };
}

export function dnsRecordsData(name: ParsedDomain, last: DnsSet | undefined): DnsRecordsData {
  return {
    ...domainName(name),
    lastSet: last
      ? {
          change: last.changeId,
          sentAt: last.sentAt.toISOString(),
          sentBy: { id: last.sentById, name: last.sentByName },
          outcome: last.outcome,
          records: JSON.parse(last.records) as DnsRecord[],
        }
      : null,
  };
}

export function auditEntryData(row: AuditEntry): AuditEntryData {
  return {
    at: row.at.toISOString(),
    user: { id: row.userId, name: row.userName },
    ...(row.actedById ? { actedBy: { id: row.actedById, name: row.actedByName ?? '' } } : {}),
    command: row.subcommand ? `${row.command} ${row.subcommand}` : row.command,
    target: row.target,
    outcome: row.outcome,
    detail: row.detail,
    reference: row.correlationId,
    durationMs: row.durationMs,
    change: row.changeId,
    parameters: row.parameters,
  };
}
