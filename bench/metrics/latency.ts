// 2. Added latency: dispatch → final answer, minus the API's own time (a bare undici request to the same
// endpoint, same fixed delay, measured in the same run). HostOps and naive run side by side and take turns,
// one command at a time, so both see the same machine noise.
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { domainInfo, waitUntil } from '../dispatch.js';
import { launch, type Running } from '../launch.js';
import { cpuMs } from '../procStats.js';
import { type Metric, type MetricResult, ratioRow } from '../report.js';
import { type Stage, startStage } from '../stage.js';
import { fmtSummary, ms, percentile, type Summary, summarize } from '../stats.js';

const COUNT = 200;
const API_MS = 50;
const PROBES = 50;
const WARM_UP = 20;

/** Sequential GETs of /domain/info/example.com from this process over one keep-alive connection. */
export async function apiOwnTimes(stage: Stage, count: number, warmUpCount = 5): Promise<number[]> {
  const url = new URL(stage.api.url);
  const pool = new Pool(url.origin, { connections: 1 });
  const times: number[] = [];
  try {
    for (let n = 0; n < warmUpCount + count; n++) {
      const t0 = performance.now();
      const response = await pool.request({
        method: 'GET',
        path: '/domain/info/example.com',
        headers: { authorization: `Bearer ${stage.api.token}`, accept: 'application/json' },
      });
      await response.body.text();
      if (n >= warmUpCount) times.push(performance.now() - t0);
    }
  } finally {
    await pool.close();
  }
  return times;
}

class Series {
  readonly total: number[] = [];
  readonly ack: number[] = [];
  /** Dispatch → the bot's API request arriving at the fake API. */
  readonly toApi: number[] = [];
  /** API request arrival + the API's fixed delay → the final answer arriving at the fake Discord. */
  readonly afterApi: number[] = [];
  cpuMs = 0;
}

async function once(r: Running, series: Series): Promise<void> {
  const apiSeen = r.stage.api.requests.length;
  const cpuBefore = cpuMs(r.bot.pid);
  const i = domainInfo(r.stage);
  await waitUntil(
    () => {
      r.tracker.scan();
      return r.tracker.finalAt(i) !== undefined;
    },
    10_000,
    `${r.kind} to answer`,
  );
  series.cpuMs += cpuMs(r.bot.pid) - cpuBefore;
  const final = r.tracker.finalAt(i) ?? Number.NaN;
  const apiAt = r.stage.api.requests[apiSeen]?.at ?? Number.NaN;
  series.total.push(final - i.dispatchedAt);
  series.ack.push((r.tracker.ackAt(i) ?? Number.NaN) - i.dispatchedAt);
  series.toApi.push(apiAt - i.dispatchedAt);
  series.afterApi.push(final - apiAt - API_MS);
}

const both = (samples: number[]) => `${ms(percentile(samples, 50))} / ${ms(percentile(samples, 99))}`;

export const latency: Metric = {
  name: 'latency',
  title: 'Added latency',
  async run(): Promise<MetricResult> {
    const reference = await startStage();
    reference.api.latencyMs = API_MS;
    let own: Summary;
    try {
      own = summarize(await apiOwnTimes(reference, PROBES));
    } finally {
      await reference.stop();
    }

    const hostops = await launch('hostops', { warmUp: WARM_UP });
    const h = new Series();
    const n = new Series();
    try {
      const naive = await launch('naive', { warmUp: WARM_UP });
      try {
        hostops.stage.api.latencyMs = API_MS;
        naive.stage.api.latencyMs = API_MS;
        await sleep(100);
        for (let k = 0; k < COUNT; k++) {
          await once(hostops, h);
          await once(naive, n);
        }
      } finally {
        await naive.stop();
      }
    } finally {
      await hostops.stop();
    }

    const added = (total: number[]) => summarize(total.map((t) => t - own.p50));
    const hostopsAdded = added(h.total);
    const naiveAdded = added(n.total);
    return {
      rows: [
        ratioRow(
          `Added latency (${COUNT} sequential, API ${API_MS} ms), p50`,
          hostopsAdded.p50,
          naiveAdded.p50,
          1.5,
          ms,
          'naive',
        ),
        ratioRow(
          `Added latency (${COUNT} sequential, API ${API_MS} ms), p99`,
          hostopsAdded.p99,
          naiveAdded.p99,
          2,
          ms,
          'naive',
        ),
      ],
      details: [
        `API's own time (bare undici GET, ${PROBES} sequential, keep-alive): ${fmtSummary(own)}; its p50 is subtracted from every total.`,
        `HostOps dispatch → PATCH @original: ${fmtSummary(summarize(h.total))}; added ${fmtSummary(hostopsAdded)}`,
        `naive dispatch → reply callback: ${fmtSummary(summarize(n.total))}; added ${fmtSummary(naiveAdded)}`,
        `Where it goes (p50 / p99): HostOps dispatch → defer ${both(h.ack)}, dispatch → API request ${both(h.toApi)}, API answer → edit ${both(h.afterApi)}; naive dispatch → API request ${both(n.toApi)}, API answer → reply ${both(n.afterApi)} (API answer = request arrival + ${API_MS} ms)`,
        `CPU per command (user+system of the bot process from /proc, 10 ms ticks summed over ${COUNT}): HostOps ${(h.cpuMs / COUNT).toFixed(2)} ms, naive ${(n.cpuMs / COUNT).toFixed(2)} ms`,
      ],
    };
  },
};
