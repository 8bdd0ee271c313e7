// Issue 40: HTTP mode under a sustained flood of 1,000 slow-body connections with well-formed but wrong
// signature headers and a current timestamp, each reopened as soon as it is closed (bench/floodProcess.ts,
// a process of its own). One HostOps over HTTP: 200 signed `/domain info` at 20/s without the flood, then
// the same with it: how many were answered, their ack p99 against the run without, and RSS during the flood
// against idle.
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BODY_DEADLINE_MS } from '../../src/discord/http/endpointLimits.js';
import { ROOT } from '../botSetup.js';
import { ackTimes, dispatchAtRate, domainInfo, waitForAcks } from '../dispatch.js';
import { launch } from '../launch.js';
import { rssBytes } from '../procStats.js';
import { type Metric, type MetricResult, ratioRow } from '../report.js';
import { fmtSummary, mb, summarize } from '../stats.js';

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

export const httpFlood: Metric = {
  name: 'flood',
  title: 'HTTP mode under a flood of slow unsigned connections',
  async run(): Promise<MetricResult> {
    const running = await launch('hostops', { spawn: { interactionsPort: 0 }, warmUp: 20 });
    try {
      const { stage, bot, tracker } = running;
      const url = bot.interactionsUrl;
      if (url === undefined) throw new Error('HostOps was not started over HTTP');
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
      let peak = 0;
      const sampling = setInterval(() => {
        peak = Math.max(peak, rssBytes(bot.pid));
      }, 100);
      let flooded: Awaited<ReturnType<typeof signedRun>>;
      let report: FloodReport;
      try {
        // Every connection through its body deadline once: the flood at its steady state.
        await sleep(BODY_DEADLINE_MS + 1_000);
        flooded = await signedRun();
      } finally {
        clearInterval(sampling);
        report = await flood.stop();
      }
      const above = (peak - idle) / 1024 / 1024;
      return {
        rows: [
          {
            metric: `HTTP mode, ${CONNECTIONS.toLocaleString('en')} slow wrong-signature connections (reopened): signed interactions answered`,
            hostops: `${flooded.answered} / ${SIGNED}`,
            reference: '—',
            ratio: '—',
            target: `${SIGNED} / ${SIGNED}`,
            met: flooded.answered === SIGNED,
          },
          ratioRow(
            'Same: ack p99 of the signed ones vs without the flood',
            flooded.summary.p99,
            quiet.summary.p99,
            2,
            (v) => `${v.toFixed(1)} ms`,
            'no flood',
          ),
          {
            metric: 'Same: RSS during the flood vs idle',
            hostops: mb(peak),
            reference: `${mb(idle)} (idle)`,
            ratio: `+${above.toFixed(1)} MB`,
            target: `≤ idle + ${RSS_ABOVE_IDLE_MB} MB`,
            met: above <= RSS_ABOVE_IDLE_MB,
          },
        ],
        details: [
          `Without the flood: ${quiet.answered} / ${SIGNED} answered, ack ${fmtSummary(quiet.summary)}.`,
          `With ${CONNECTIONS} slow connections: ${flooded.answered} / ${SIGNED} answered, ack ${fmtSummary(flooded.summary)}.`,
          `The flood: ${report.opened} connections opened in all, their requests answered ${JSON.stringify(report.statuses)}, ${report.unanswered} closed without an answer.`,
          `RSS: idle ${mb(idle)}, peak during the flood ${mb(peak)} (sampled every 100 ms).`,
        ],
      };
    } finally {
      await running.stop();
    }
  },
};
