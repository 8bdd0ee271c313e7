// 1. Time to acknowledge: INTERACTION_CREATE written to the gateway → first interaction callback received.
import { setTimeout as sleep } from 'node:timers/promises';
import type { DispatchedInteraction } from '../../test/support/FakeDiscord.js';
import type { BotKind } from '../botSetup.js';
import { ackTimes, dispatchAtRate, domainInfo, waitForAcks, waitUntil, warmUp } from '../dispatch.js';
import { withBot } from '../launch.js';
import { type Metric, type MetricResult, ratioRow } from '../report.js';
import type { SpawnOptions } from '../spawnBot.js';
import { fmtSummary, ms, type Summary, summarize } from '../stats.js';

export const BURST = 200;
export const STEADY_RATE = 20;
export const STEADY_SECONDS = 10;
const DEADLINE_MS = 3000;
const WARM_UP = 20;
const FINALS_WAIT_MS = 20_000;
export const BURST_REPEATS = 3;

/** The run with the median p99; late counts are summed over all runs. */
export function medianRun(runs: AckRun[]): AckRun {
  const sorted = [...runs].sort((a, b) => a.summary.p99 - b.summary.p99);
  const middle = sorted[Math.floor((sorted.length - 1) / 2)];
  if (middle === undefined) throw new Error('no runs');
  return { ...middle, late: runs.reduce((n, r) => n + r.late, 0) };
}

export interface AckRun {
  summary: Summary;
  /** Dispatch → final answer (HostOps: PATCH @original, references: the reply) of those that got one. */
  final: Summary;
  /** Final answers that carried a result (embeds) rather than an error text. */
  results: number;
  finals: number;
  /** Acknowledged after the 3 s deadline, or never. */
  late: number;
  missing: number;
  /** For HostOps: stdout lines (pino) written during the run. */
  logLines: number;
}

async function measure(
  kind: BotKind,
  apiMs: number,
  send: (make: () => DispatchedInteraction) => Promise<DispatchedInteraction[]>,
  waitForFinalsMs = 0,
  spawn: SpawnOptions = {},
): Promise<AckRun> {
  return withBot(kind, {}, spawn, async ({ stage, bot, tracker }) => {
    await warmUp(stage, tracker, WARM_UP);
    stage.api.latencyMs = apiMs;
    await sleep(200);
    const linesBefore = bot.stdoutLines();
    const dispatched = await send(() => domainInfo(stage));
    // Long enough for naive to answer after the API; acks later than this count as missing (= late).
    await waitForAcks(tracker, dispatched, apiMs + 5_000);
    const { times, missing } = ackTimes(tracker, dispatched);
    const lines = bot.stdoutLines() - linesBefore;
    await waitUntil(
      () => {
        tracker.scan();
        return dispatched.every((i) => tracker.finalAt(i) !== undefined);
      },
      waitForFinalsMs,
      '',
    );
    const finals = dispatched.flatMap((i) => {
      const at = tracker.finalAt(i);
      return at === undefined ? [] : [at - i.dispatchedAt];
    });
    const results = dispatched.filter(
      (i) => tracker.ack.get(i.id)?.type === 4 || tracker.originalWithEmbeds.has(i.token),
    ).length;
    return {
      summary: summarize(times),
      final: summarize(finals),
      finals: finals.length,
      results,
      late: times.filter((t) => t > DEADLINE_MS).length + missing,
      missing,
      logLines: lines,
    };
  });
}

/** A burst of BURST `/domain info` in one go; `spawn`: e.g. interactions over HTTP. */
export const burst = (kind: BotKind, apiMs: number, waitForFinalsMs = 0, spawn: SpawnOptions = {}) =>
  measure(kind, apiMs, async (make) => Array.from({ length: BURST }, make), waitForFinalsMs, spawn);

/** STEADY_RATE `/domain info` a second for STEADY_SECONDS. */
export const steady = (kind: BotKind, apiMs: number, spawn: SpawnOptions = {}) =>
  measure(
    kind,
    apiMs,
    async (make) => {
      const { dispatched } = await dispatchAtRate(STEADY_RATE, STEADY_RATE * STEADY_SECONDS, make);
      return dispatched;
    },
    0,
    spawn,
  );

export function line(name: string, run: AckRun): string {
  const missing = run.missing > 0 ? `, ${run.missing} never acknowledged` : '';
  return `${name}: ${fmtSummary(run.summary)}; later than 3 s: ${run.late}${missing}`;
}

export const ack: Metric = {
  name: 'ack',
  title: 'Time to acknowledge',
  async run(): Promise<MetricResult> {
    // A burst's p99 is one number from one moment of a shared machine: three bursts each, fresh processes,
    // alternating, and the median of the three p99s. HostOps' first burst also waits (up to 20 s) for its
    // final answers, which shows how its API connection pool copes.
    const bareBursts: AckRun[] = [];
    const hostopsBursts: AckRun[] = [];
    for (let n = 0; n < BURST_REPEATS; n++) {
      bareBursts.push(await burst('bare', 2000));
      hostopsBursts.push(await burst('hostops', 2000, n === 0 ? FINALS_WAIT_MS : 0));
    }
    const bareBurst = medianRun(bareBursts);
    const hostopsBurst = medianRun(hostopsBursts);
    const hostopsFinals = hostopsBursts[0] ?? hostopsBurst;
    const naiveBurst = await burst('naive', 2000);
    const hostopsBurst4 = await burst('hostops', 4000);
    const naiveBurst4 = await burst('naive', 4000);
    const bareSteady = await steady('bare', 2000);
    const hostopsSteady = await steady('hostops', 2000);

    const rows = [
      ratioRow(
        `Ack, burst ${BURST} (API 2 s), p99 (median of ${BURST_REPEATS})`,
        hostopsBurst.summary.p99,
        bareBurst.summary.p99,
        1.5,
        ms,
        'bare',
      ),
      {
        metric: `Ack, burst ${BURST} (API 2 s), max`,
        hostops: ms(Math.max(...hostopsBursts.map((r) => r.summary.max))),
        reference: `${ms(naiveBurst.summary.max)} (naive)`,
        ratio: '—',
        target: '≤ 3 s (Discord deadline)',
        met: hostopsBursts.every((r) => r.late === 0),
      },
      {
        metric: `Ack, burst ${BURST} (API 4 s), deadline misses`,
        hostops: `${hostopsBurst4.late} / ${BURST}`,
        reference: `${naiveBurst4.late} / ${BURST} (naive)`,
        ratio: '—',
        target: 'HostOps misses none',
        met: hostopsBurst4.late === 0,
      },
      ratioRow(
        `Ack, steady ${STEADY_RATE}/s × ${STEADY_SECONDS} s (API 2 s), p99`,
        hostopsSteady.summary.p99,
        bareSteady.summary.p99,
        2,
        ms,
        'bare',
      ),
    ];
    const details = [
      `Burst of ${BURST} \`/domain info\` written to the gateway in one go, API answering in 2 s (${BURST_REPEATS} bursts each for HostOps and bare; the row uses the median p99, the max is over all):`,
      ...hostopsBursts.map((r, n) => `  - ${line(`HostOps #${n + 1}`, r)}`),
      ...bareBursts.map((r, n) => `  - ${line(`bare #${n + 1}`, r)}`),
      `  - ${line('naive', naiveBurst)}`,
      `  - Final answers within ${FINALS_WAIT_MS / 1000} s of HostOps' first burst: ${hostopsFinals.finals} of ${BURST} (${hostopsFinals.results} with the result, ${hostopsFinals.finals - hostopsFinals.results} with an error), ${fmtSummary(hostopsFinals.final)}; naive ${naiveBurst.results} of ${BURST} with the result, ${fmtSummary(naiveBurst.final)}`,
      `Same burst, API answering in 4 s:`,
      `  - ${line('HostOps', hostopsBurst4)}`,
      `  - ${line('naive', naiveBurst4)}`,
      `Steady ${STEADY_RATE}/s for ${STEADY_SECONDS} s, API answering in 2 s:`,
      `  - ${line('HostOps', hostopsSteady)}`,
      `  - ${line('bare', bareSteady)}`,
    ];
    return { rows, details };
  },
};
