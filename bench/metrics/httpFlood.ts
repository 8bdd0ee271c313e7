// Issue 40: HTTP mode under a sustained flood of 1,000 slow-body connections with well-formed but wrong
// signature headers and a current timestamp, each reopened as soon as it is closed (bench/floodProcess.ts,
// a process of its own). One HostOps over HTTP: 200 signed `/domain info` at 20/s without the flood, then
// the same with it: how many were answered, their ack p99 against the run without, and RSS during the flood
// against idle; the same for the bare HTTP endpoint (bench/bareHttp.mjs), what node:http alone costs.
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BODY_DEADLINE_MS } from '../../src/discord/http/endpointLimits.js';
import { type BotKind, ROOT } from '../botSetup.js';
import { ackTimes, dispatchAtRate, domainInfo, waitForAcks } from '../dispatch.js';
import { launch } from '../launch.js';
import { cpuMs, rssBytes } from '../procStats.js';
import { type Metric, type MetricResult, ratioRow } from '../report.js';
import { fmtSummary, mb, type Summary, summarize } from '../stats.js';

const CONNECTIONS = 1_000;
const SIGNED = 200;
const RATE = 20;
const RSS_ABOVE_IDLE_MB = 20;

interface FloodReport {
  statuses: Record<string, number>;
  opened: number;
  unanswered: number;
}

function startFlood(url: string) {
  const child = fork(join(ROOT, 'bench', 'floodProcess.ts'), [url, String(CONNECTIONS)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const started = new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the flood process exited (${code})`)));
  });
  return {
    started,
    stop: () =>
      new Promise<FloodReport>((resolve) => {
        child.once('message', (report) => resolve(report as FloodReport));
        child.send('stop');
      }),
  };
}

interface FloodRun {
  idle: number;
  peak: number;
  quiet: { answered: number; summary: Summary };
  flooded: { answered: number; summary: Summary };
  report: FloodReport;
  /** CPU time the bot used per second of the flood. */
  cpuPerSecond: number;
}

/** One bot over HTTP: the signed run without the flood, then with it, RSS sampled throughout. */
async function underFlood(kind: BotKind): Promise<FloodRun> {
  const running = await launch(kind, { spawn: { interactionsPort: 0 }, warmUp: 20 });
  try {
    const { stage, bot, tracker } = running;
    const url = bot.interactionsUrl;
    if (url === undefined) throw new Error(`${kind} was not started over HTTP`);
    const signedRun = async () => {
      const { dispatched } = await dispatchAtRate(RATE, SIGNED, () => domainInfo(stage));
      const responses = await Promise.all(dispatched.map((i) => i.response));
      await waitForAcks(tracker, dispatched, 5_000);
      const { times } = ackTimes(tracker, dispatched);
      return { answered: responses.filter((r) => r?.status === 200).length, summary: summarize(times) };
    };
    await sleep(1_000);
    const idle = rssBytes(bot.pid);
    const quiet = await signedRun();
    const flood = startFlood(url);
    await flood.started;
    const cpuBefore = cpuMs(bot.pid);
    const floodStart = performance.now();
    let peak = 0;
    const sampling = setInterval(() => {
      peak = Math.max(peak, rssBytes(bot.pid));
    }, 100);
    try {
      // Every connection through its body deadline once: the flood at its steady state.
      await sleep(BODY_DEADLINE_MS + 1_000);
      const flooded = await signedRun();
      const cpuPerSecond = ((cpuMs(bot.pid) - cpuBefore) * 1000) / (performance.now() - floodStart);
      return { idle, peak, quiet, flooded, report: await flood.stop(), cpuPerSecond };
    } finally {
      clearInterval(sampling);
    }
  } finally {
    await running.stop();
  }
}

const above = (run: FloodRun) => (run.peak - run.idle) / 1024 / 1024;

export const httpFlood: Metric = {
  name: 'flood',
  title: 'HTTP mode under a flood of slow unsigned connections',
  async run(): Promise<MetricResult> {
    const hostops = await underFlood('hostops');
    // The smallest endpoint on node:http (bench/bareHttp.mjs, Node's default timeouts) under the same flood:
    // what 1,000 open connections cost node:http itself.
    const bare = await underFlood('barehttp');
    const details = (name: string, run: FloodRun) => [
      `${name} without the flood: ${run.quiet.answered} / ${SIGNED} answered, ack ${fmtSummary(run.quiet.summary)}.`,
      `${name} with ${CONNECTIONS} slow connections: ${run.flooded.answered} / ${SIGNED} answered, ack ${fmtSummary(run.flooded.summary)}; the flood opened ${run.report.opened} connections in all, their requests were answered ${JSON.stringify(run.report.statuses)}, ${run.report.unanswered} closed without an answer; RSS idle ${mb(run.idle)}, peak during the flood ${mb(run.peak)} (+${above(run).toFixed(1)} MB, sampled every 100 ms); the bot's CPU ${run.cpuPerSecond.toFixed(0)} ms per second of the flood.`,
    ];
    return {
      rows: [
        {
          metric: `HTTP mode, ${CONNECTIONS.toLocaleString('en')} slow wrong-signature connections (reopened): signed interactions answered`,
          hostops: `${hostops.flooded.answered} / ${SIGNED}`,
          reference: `${bare.flooded.answered} / ${SIGNED} (bare HTTP)`,
          ratio: '—',
          target: `${SIGNED} / ${SIGNED}`,
          met: hostops.flooded.answered === SIGNED,
        },
        ratioRow(
          'Same: ack p99 of the signed ones vs without the flood',
          hostops.flooded.summary.p99,
          hostops.quiet.summary.p99,
          2,
          (v) => `${v.toFixed(1)} ms`,
          'no flood',
        ),
        {
          metric: 'Same: RSS during the flood vs idle',
          hostops: `${mb(hostops.peak)} (+${above(hostops).toFixed(1)} MB)`,
          reference: `${mb(hostops.idle)} idle; bare HTTP +${above(bare).toFixed(1)} MB`,
          ratio: `+${above(hostops).toFixed(1)} MB`,
          target: `≤ idle + ${RSS_ABOVE_IDLE_MB} MB`,
          met: above(hostops) <= RSS_ABOVE_IDLE_MB,
        },
      ],
      details: [...details('HostOps', hostops), ...details('Bare HTTP', bare)],
    };
  },
};
