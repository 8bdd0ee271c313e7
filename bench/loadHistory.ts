// A year of HostOps history, made up from a fixed seed and written through the store's own code
// (`Store.importRows`, the bulk path `npm run migrate-store` uses): audit entries over AUDIT_RETENTION_DAYS
// from a team of users, change records in every end state, watched domains with their alert history, and
// entries past the retention for the daily purge to find. The same seed and `now` give the same rows.
// Used by the history benchmarks (bench/metrics/history.ts) at full scale and by
// test/store/historyIndexes.test.ts at a small one.
import type {
  ChangeRecord,
  ChangeState,
  NewAuditEntry,
  Store,
  WatchAlertRecord,
  WatchedDomain,
} from '../src/store/index.js';

export interface HistoryScale {
  /** Audit entries within the retention window (`days`), oldest first. */
  audit: number;
  /** Audit entries older than the retention window: what the next daily purge deletes. */
  expired: number;
  /** The retention window the entries are spread over (AUDIT_RETENTION_DAYS). */
  days: number;
  users: number;
  /** Change records, spread over the end states. */
  changes: number;
  watched: number;
  /** Distinct domains the audit trail (the journal) names. */
  journalDomains: number;
  servers: number;
}

/** The figures: a year of a busy team. */
export const FULL_HISTORY: HistoryScale = {
  audit: 1_000_000,
  expired: 100_000,
  days: 400,
  users: 50,
  changes: 100_000,
  watched: 10_000,
  journalDomains: 100_000,
  servers: 2_000,
};

export interface LoadedHistory {
  scale: HistoryScale;
  seed: number;
  now: Date;
  /** Entries older than this are past the retention (the purge's cutoff). */
  retentionCutoff: Date;
  counts: { audit: number; changes: number; watched: number; alerts: number };
  ms: number;
}

const DAY_MS = 86_400_000;
const BATCH = 5_000;
export const GUILD_ID = '500000000000000001';
export const CHANNEL_ID = '500000000000000002';

/** Snowflake-shaped user ids, `user(0)` … `user(users - 1)`. */
export const userId = (n: number) => `1000000000000${String(100_000 + n)}`;
export const userName = (n: number) => `member-${String(n).padStart(2, '0')}`;
const TLDS = ['com', 'de', 'net', 'org', 'io', 'eu'] as const;
/** Journal domain n: what /domain commands were run on. */
export const journalDomain = (n: number) => `site${n}.example.${TLDS[n % TLDS.length]}`;
/** Watched domain n. */
export const watchedDomain = (n: number) => `watch${String(n).padStart(5, '0')}.example.com`;
export const serverId = (n: number) => String(10_000 + n);

/** mulberry32: small, fast and the same on every machine. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Kind = 'read' | 'change' | 'local';

/** The command mix of a year: mostly reads, some changes; weights add up to 100. */
const COMMANDS: readonly { command: string; subcommand: string; kind: Kind; weight: number }[] = [
  { command: 'domain', subcommand: 'info', kind: 'read', weight: 28 },
  { command: 'server', subcommand: 'logs', kind: 'read', weight: 18 },
  { command: 'domain', subcommand: 'expiry', kind: 'read', weight: 7 },
  { command: 'domain', subcommand: 'records', kind: 'read', weight: 4 },
  { command: 'watch', subcommand: 'list', kind: 'read', weight: 5 },
  { command: 'audit', subcommand: '', kind: 'read', weight: 5 },
  { command: 'help', subcommand: '', kind: 'read', weight: 3 },
  { command: 'domain', subcommand: 'dns', kind: 'change', weight: 10 },
  { command: 'server', subcommand: 'rdns', kind: 'change', weight: 7 },
  { command: 'domain', subcommand: 'register', kind: 'change', weight: 3 },
  { command: 'musicbot', subcommand: 'create', kind: 'change', weight: 2 },
  { command: 'panel', subcommand: 'bind', kind: 'change', weight: 2 },
  { command: 'watch', subcommand: 'add', kind: 'local', weight: 3 },
  { command: 'watch', subcommand: 'remove', kind: 'local', weight: 1 },
  { command: 'watch', subcommand: 'check', kind: 'local', weight: 2 },
];

const OUTCOMES: Record<Kind, readonly [string, number][]> = {
  read: [
    ['ok', 85],
    ['failed', 7],
    ['invalid', 5],
    ['refused', 3],
  ],
  change: [
    ['done', 58],
    ['cancelled', 14],
    ['failed', 8],
    ['expired', 5],
    ['unknown', 4],
    ['rejected', 3],
    ['refused', 5],
    ['invalid', 3],
  ],
  local: [
    ['ok', 92],
    ['invalid', 5],
    ['refused', 3],
  ],
};

const END_STATES: readonly ChangeState[] = ['done', 'failed', 'unknown', 'cancelled', 'rejected', 'expired'];

function pick<T>(rand: () => number, weighted: readonly (readonly [T, number])[]): T {
  const total = weighted.reduce((sum, [, w]) => sum + w, 0);
  let r = rand() * total;
  for (const [value, weight] of weighted) {
    r -= weight;
    if (r < 0) return value;
  }
  return (weighted[weighted.length - 1] as readonly [T, number])[0];
}

const hex = (rand: () => number, length: number) => {
  let out = '';
  while (out.length < length)
    out += Math.floor(rand() * 0x100000000)
      .toString(16)
      .padStart(8, '0');
  return out.slice(0, length);
};

/** Targets some of which hold `%` and `_`, as /audit searches and music-bot user names do. */
function targetOf(
  rand: () => number,
  scale: HistoryScale,
  command: string,
  subcommand: string,
): string | null {
  const domain = () => journalDomain(Math.floor(rand() * scale.journalDomains));
  const server = () => serverId(Math.floor(rand() * scale.servers));
  switch (subcommand === '' ? command : `${command} ${subcommand}`) {
    case 'domain info':
    case 'domain records':
    case 'domain dns':
    case 'domain register':
      return domain();
    case 'domain expiry':
      return [domain(), domain(), domain()].join(' ');
    case 'server logs':
      return `server ${server()}`;
    case 'server rdns':
      return `server ${server()} 203.0.113.${Math.floor(rand() * 254) + 1}`;
    case 'musicbot create':
      return `dj_${Math.floor(rand() * 5000)}`;
    case 'panel bind':
      return `198.51.100.${Math.floor(rand() * 254) + 1}`;
    case 'audit':
      return rand() < 0.1 ? `7d, target ${Math.floor(rand() * 100)}%` : `${1 + Math.floor(rand() * 30)}d`;
    case 'watch add':
    case 'watch remove':
      return watchedDomain(Math.floor(rand() * scale.watched));
    default:
      return null;
  }
}

const OPERATION: Record<string, string> = {
  'domain dns': 'domainDns',
  'server rdns': 'serverRdns',
  'domain register': 'domainRegister',
  'musicbot create': 'musicbotCreate',
  'panel bind': 'panelBind',
};

const CHANGE_KINDS = COMMANDS.filter((c) => c.kind === 'change');

/** A PRNG of its own per row, so any row can be made again from its index alone. */
const rowRandom = (seed: number, i: number) =>
  random(Math.imul(seed, 0x9e3779b1) ^ Math.imul(i + 1, 0x85ebca6b));

/**
 * Audit entry i. Change slots (every `changeEvery`-th entry within the retention) are changes that reached
 * an end state, `changeState` given, and carry the id of their change record.
 */
function auditEntry(
  seed: number,
  scale: HistoryScale,
  i: number,
  at: number,
  change?: { id: string; state: ChangeState },
): NewAuditEntry {
  const rand = rowRandom(seed, i);
  const chosen = change
    ? (CHANGE_KINDS[Math.floor(rand() * CHANGE_KINDS.length)] as (typeof COMMANDS)[number])
    : pick(
        rand,
        COMMANDS.map((c) => [c, c.weight] as const),
      );
  const { command, subcommand, kind } = chosen;
  // Change-kind entries outside the slots keep no record (as if it had been deleted): change_id null.
  const outcome = change ? change.state : pick(rand, OUTCOMES[kind]);
  const user = Math.floor(rand() * scale.users);
  const target = targetOf(rand, scale, command, subcommand);
  // A rejected change, and now and then a done one, was decided by a second person.
  const approver =
    outcome === 'rejected' || (outcome === 'done' && rand() < 0.1)
      ? (user + 1 + Math.floor(rand() * (scale.users - 1))) % scale.users
      : undefined;
  return {
    at: new Date(at),
    userId: userId(user),
    userName: userName(user),
    guildId: GUILD_ID,
    channelId: CHANNEL_ID,
    command,
    subcommand,
    target,
    outcome,
    detail: outcome === 'refused' ? 'tier' : outcome === 'invalid' ? 'domain' : null,
    correlationId: hex(rand, 12),
    durationMs: Math.floor(rand() * (kind === 'read' ? 400 : 4000)),
    parameters: target === null ? null : { target },
    changeId: change?.id ?? null,
    ...(approver === undefined ? {} : { actedById: userId(approver), actedByName: userName(approver) }),
  };
}

function changeRecordFor(entry: NewAuditEntry, id: string, state: ChangeState): ChangeRecord {
  const at = entry.at.getTime();
  return {
    id,
    operation: OPERATION[`${entry.command} ${entry.subcommand}`] ?? entry.command,
    command: `/${entry.command} ${entry.subcommand}`,
    target: entry.target,
    parameters: { target: entry.target, ttl: 3600 },
    preview: { lines: [`${entry.command} ${entry.subcommand} ${entry.target ?? ''}`] },
    requestedById: entry.userId,
    requestedByName: entry.userName,
    guildId: entry.guildId,
    channelId: entry.channelId,
    state,
    correlationId: entry.correlationId,
    result: { outcome: state },
    createdAt: new Date(at - 30_000),
    updatedAt: new Date(at),
    expiresAt: new Date(at + 90_000),
    replicaId: null,
    approval:
      entry.actedById == null ? null : { decidedById: entry.actedById, decidedByName: entry.actedByName },
    locale: entry.correlationId.charCodeAt(0) % 3 === 0 ? 'de' : 'en',
  };
}

/**
 * Fills an empty store with `scale` of history ending at `now`, in one `importRows` transaction. Audit
 * entries go in oldest first (ids grow with time, as they do in use); every change record is named by
 * the audit entry of its end.
 */
export async function loadHistory(
  store: Store,
  scale: HistoryScale = FULL_HISTORY,
  options: { seed?: number; now?: Date } = {},
): Promise<LoadedHistory> {
  const started = performance.now();
  const seed = options.seed ?? 25;
  const now = options.now ?? new Date();
  const retentionCutoff = new Date(now.getTime() - scale.days * DAY_MS);
  const total = scale.expired + scale.audit;
  const changes = Math.min(scale.changes, scale.audit);
  const changeEvery = Math.max(1, Math.floor(scale.audit / Math.max(1, changes)));
  // The expired entries lie in the 30 days before the cutoff; the rest spread over the retention window.
  const expiredFrom = retentionCutoff.getTime() - 30 * DAY_MS;
  const atOf = (i: number): number =>
    i < scale.expired
      ? expiredFrom + Math.floor((i * (30 * DAY_MS - 60_000)) / Math.max(1, scale.expired))
      : retentionCutoff.getTime() +
        60_000 +
        Math.floor(((i - scale.expired) * (scale.days * DAY_MS - 120_000)) / Math.max(1, scale.audit));
  /** The change slot of entry i, if it is one. */
  const changeOf = (i: number) => {
    const j = i - scale.expired;
    if (j < 0 || j % changeEvery !== 0 || j / changeEvery >= changes) return undefined;
    const k = j / changeEvery;
    return { id: `h${k.toString(36)}`, state: END_STATES[k % END_STATES.length] as ChangeState };
  };
  const entryAt = (i: number) => auditEntry(seed, scale, i, atOf(i), changeOf(i));

  function* auditBatches(): Generator<NewAuditEntry[]> {
    for (let start = 0; start < total; start += BATCH) {
      const batch: NewAuditEntry[] = [];
      for (let i = start; i < Math.min(total, start + BATCH); i++) batch.push(entryAt(i));
      yield batch;
    }
  }
  function* changeBatches(): Generator<ChangeRecord[]> {
    for (let start = 0; start < changes; start += BATCH) {
      const batch: ChangeRecord[] = [];
      for (let k = start; k < Math.min(changes, start + BATCH); k++) {
        const i = scale.expired + k * changeEvery;
        const slot = changeOf(i);
        if (slot !== undefined) batch.push(changeRecordFor(entryAt(i), slot.id, slot.state));
      }
      yield batch;
    }
  }

  const { domains, alerts } = watchHistory(seed, scale, now, retentionCutoff);
  const result = await store.importRows({
    changes: changeBatches(),
    audit: auditBatches(),
    watch: { domains, alerts },
  });
  if (!result.imported) throw new Error('loadHistory needs an empty store');
  return {
    scale,
    seed,
    now,
    retentionCutoff,
    counts: { audit: result.audit, changes: result.changes, watched: result.watched, alerts: result.alerts },
    ms: performance.now() - started,
  };
}

/**
 * Watched domains as a year of daily runs left them: expiry dates from 5 days past to 394 ahead, one in
 * 997 never checked, one in 1,000 unknown to the provider, one in 500 transferred away; and the alerts
 * sent: every threshold of last year's expiry date, those of this year's reached so far.
 */
function watchHistory(seed: number, scale: HistoryScale, now: Date, retentionCutoff: Date) {
  const rand = random(seed ^ 0x3a7c);
  const domains: WatchedDomain[] = [];
  const alerts: WatchAlertRecord[] = [];
  const today = now.getTime();
  for (let n = 0; n < scale.watched; n++) {
    const domain = watchedDomain(n);
    const addedAt = new Date(retentionCutoff.getTime() + Math.floor(rand() * (scale.days - 1) * DAY_MS));
    const daysLeft = (n % 400) - 5;
    const unchecked = n % 997 === 996;
    const notFound = !unchecked && n % 1000 === 999;
    const expiryDate = unchecked || notFound ? null : isoDate(today + daysLeft * DAY_MS);
    domains.push({
      domain,
      unicode: domain,
      addedById: userId(n % scale.users),
      addedAt,
      checkedAt: unchecked ? null : new Date(today - Math.floor(rand() * DAY_MS)),
      status: unchecked ? 'new' : notFound ? 'not_found' : 'ok',
      failures: 0,
      expiryDate,
      active: expiryDate === null ? null : true,
      expired: expiryDate === null ? null : daysLeft < 0,
      transferredAway: expiryDate === null ? null : n % 500 === 0,
    });
    if (notFound) alerts.push({ domain, key: 'not_found', sentAt: new Date(today - DAY_MS) });
    if (expiryDate === null) continue;
    const previous = isoDate(today + (daysLeft - 365) * DAY_MS);
    for (const threshold of [30, 14, 7, 3, 1]) {
      alerts.push({
        domain,
        key: `expiry:${previous}:${threshold}`,
        sentAt: new Date(today + (daysLeft - 365 - threshold) * DAY_MS),
      });
      if (daysLeft <= threshold)
        alerts.push({
          domain,
          key: `expiry:${expiryDate}:${threshold}`,
          sentAt: new Date(today + (daysLeft - threshold) * DAY_MS),
        });
    }
  }
  return { domains, alerts };
}

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
