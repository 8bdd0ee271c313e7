import { DateTime } from 'luxon';
import { toUnicode } from 'tr46';

/**
 * The made-up world the sandbox answers from: domains, servers and what was changed during the session.
 * Only reserved names and documentation addresses appear (example, test and .invalid names; RFC 5737
 * IPv4 and RFC 3849 IPv6 ranges), so nothing here can point at anybody's real resources.
 */

export interface SandboxDomain {
  /** ASCII form, lowercase; IDNs by their punycode (`xn--bcher-kva.example`), as the API is asked. */
  name: string;
  /** `YYYY-MM-DD` in the API's zone. */
  expiryDate: string;
  active: boolean;
  expired: boolean;
  transferredAway: boolean;
  /** Set by /domain/create; the seeded domains have none. */
  contacts?: { ownerC: string; adminC: string; techC: string; zoneC: string };
  nameservers: [string, string];
  /** The last record set submitted through /domain/dns, as decoded from its JSON array string. */
  records: unknown[];
}

export interface SandboxLogEntry {
  type: string;
  status: string;
  start: Date;
  /** Null while the job is still running: the API then sends an empty endtime. */
  end: Date | null;
}

export interface SandboxServer {
  id: number;
  /** For people reading this file; the API never shows it. */
  name: string;
  /** Oldest first; GET /server/logs/{id} answers with the newest. */
  log: SandboxLogEntry[];
  /** IPv4 address (as sent, prefix included) → rDNS host name. */
  rdns: Map<string, string>;
}

export interface SandboxMusicBotUser {
  id: number;
  username: string;
  email: string;
  storage: number;
  bots: number;
}

export interface SandboxState {
  readonly timeZone: string;
  readonly domains: Map<string, SandboxDomain>;
  readonly servers: Map<number, SandboxServer>;
  /** Panel license → IP address it is bound to. */
  readonly licenseBindings: Map<string, string>;
  readonly musicBotUsers: SandboxMusicBotUser[];
  nextMusicBotUserId: number;
}

interface DomainSeed {
  name: string;
  /** Days from today (in the API's zone) to the expiry date; negative: already past. */
  expiresInDays: number;
  active?: boolean;
  expired?: boolean;
  transferredAway?: boolean;
}

/** A dozen domains whose expiry dates fall into every window a watch or a person would look at. */
export const DOMAIN_SEEDS: readonly DomainSeed[] = [
  { name: 'example.com', expiresInDays: 214 },
  { name: 'example.net', expiresInDays: 5 },
  { name: 'example.org', expiresInDays: 12 },
  { name: 'shop.example', expiresInDays: 27 },
  { name: 'staging.test', expiresInDays: 1 },
  { name: 'hostops.test', expiresInDays: 730 },
  // bücher.example, münchen.example, café.test, 日本.example
  { name: 'xn--bcher-kva.example', expiresInDays: 96 },
  { name: 'xn--mnchen-3ya.example', expiresInDays: 3 },
  { name: 'xn--caf-dma.test', expiresInDays: 20 },
  { name: 'xn--wgv71a.example', expiresInDays: 412 },
  { name: 'old-brand.example', expiresInDays: -9, active: false, expired: true },
  { name: 'parked.example', expiresInDays: 143, active: false },
  { name: 'moved-away.example', expiresInDays: 61, active: false, transferredAway: true },
];

interface ServerSeed {
  id: number;
  name: string;
  /** The newest entry last; minutes before now. */
  log: { type: string; status: string; startedMinutesAgo: number; durationSeconds: number | null }[];
  rdns: Record<string, string>;
}

export const SERVER_SEEDS: readonly ServerSeed[] = [
  {
    id: 42,
    name: 'web-01',
    log: [
      { type: 'install', status: 'success', startedMinutesAgo: 60 * 24 * 40, durationSeconds: 412 },
      { type: 'reinstall', status: 'success', startedMinutesAgo: 60 * 27 + 14, durationSeconds: 372 },
    ],
    rdns: { '203.0.113.7': 'web-01.example.com' },
  },
  {
    id: 4711,
    name: 'db-01',
    log: [
      { type: 'backup', status: 'success', startedMinutesAgo: 60 * 24 + 12, durationSeconds: 1850 },
      { type: 'backup', status: 'running', startedMinutesAgo: 12, durationSeconds: null },
    ],
    rdns: { '198.51.100.23': 'db-01.example.net' },
  },
  {
    id: 1001,
    name: 'mail-01',
    log: [{ type: 'reboot', status: 'failed', startedMinutesAgo: 60 * 6 + 3, durationSeconds: 47 }],
    rdns: { '192.0.2.45': 'mail.example.org' },
  },
  {
    id: 7,
    name: 'edge-01',
    log: [{ type: 'rescue', status: 'success', startedMinutesAgo: 60 * 24 * 3 + 90, durationSeconds: 95 }],
    rdns: { '203.0.113.80': 'edge-01.example.com' },
  },
];

/**
 * The sandbox's made-up DNS zone: the A records its forward check of `/server rdns` finds (no resolver is
 * asked). web-01, db-01 and mail-01 resolve to the addresses their rDNS names (a match); edge-01's name
 * still points at its old address, so its rDNS shows a mismatch. Any other name has no address.
 */
export const SANDBOX_ZONE: Readonly<Record<string, readonly string[]>> = {
  'web-01.example.com': ['203.0.113.7'],
  'db-01.example.net': ['198.51.100.23'],
  'mail.example.org': ['192.0.2.45'],
  'edge-01.example.com': ['203.0.113.81'],
};

/** Ids of seeded servers, smallest first: what a help text or a test can safely ask about. */
export const SANDBOX_SERVER_IDS = SERVER_SEEDS.map((server) => server.id).sort((a, b) => a - b);

/** What the sandbox knows, as /help lists it: domain names as typed (IDNs in Unicode), server ids with names. */
export function sandboxDirectory(): { domains: string[]; servers: { id: number; name: string }[] } {
  return {
    domains: DOMAIN_SEEDS.map((seed) => toUnicode(seed.name).domain),
    servers: [...SERVER_SEEDS].sort((a, b) => a.id - b.id).map(({ id, name }) => ({ id, name })),
  };
}

/** Default name servers of seeded domains. */
const NAMESERVERS: [string, string] = ['ns1.example.net', 'ns2.example.net'];

export function calendarDate(now: Date, timeZone: string, daysFromToday: number): string {
  const date = DateTime.fromJSDate(now, { zone: timeZone }).startOf('day').plus({ days: daysFromToday });
  return date.toISODate() ?? '';
}

/** `DD.MM.YYYY HH:MM:SS` in the API's zone, as the real API writes log timestamps. */
export function logTimestamp(instant: Date | null, timeZone: string): string {
  if (instant === null) return '';
  return DateTime.fromJSDate(instant, { zone: timeZone }).toFormat('dd.MM.yyyy HH:mm:ss');
}

/** A fresh world: expiry dates and log times are relative to `now`, so the data never goes stale. */
export function createSandboxState(now: Date, timeZone: string): SandboxState {
  // Whole seconds: the API's timestamps carry no fractions.
  const nowMs = Math.floor(now.getTime() / 1000) * 1000;
  const domains = new Map<string, SandboxDomain>();
  for (const seed of DOMAIN_SEEDS) {
    domains.set(seed.name, {
      name: seed.name,
      expiryDate: calendarDate(now, timeZone, seed.expiresInDays),
      active: seed.active ?? true,
      expired: seed.expired ?? false,
      transferredAway: seed.transferredAway ?? false,
      nameservers: [...NAMESERVERS],
      records: [],
    });
  }
  const servers = new Map<number, SandboxServer>();
  for (const seed of SERVER_SEEDS) {
    servers.set(seed.id, {
      id: seed.id,
      name: seed.name,
      log: seed.log.map((entry) => {
        const start = nowMs - entry.startedMinutesAgo * 60_000;
        return {
          type: entry.type,
          status: entry.status,
          start: new Date(start),
          end: entry.durationSeconds === null ? null : new Date(start + entry.durationSeconds * 1000),
        };
      }),
      rdns: new Map(Object.entries(seed.rdns)),
    });
  }
  return {
    timeZone,
    domains,
    servers,
    licenseBindings: new Map([['SANDBOX-LICENSE-0001', '198.51.100.10']]),
    musicBotUsers: [],
    nextMusicBotUserId: 1001,
  };
}
