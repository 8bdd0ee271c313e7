// 4. Throughput knee: steady /domain info at rising rates (API 10 ms) against HostOps and bare, both running
// the whole time and taking turns. HostOps fails a rate when its p99 ack passes 5 × bare's p99 in the same
// trial; bare, the practical limit, fails it when it saturates: its p50 passes 5 × its own p50 at the lowest
// rate (a p99 of a few milliseconds is moved by any single pause; a queue building up moves the p50).
// Leaving commands unacknowledged fails a rate too. A failed rate is tried once more and only counts when it fails again:
// a single pause on this shared machine moves a p99 of a few hundred samples, saturation does not go away.
// The search ends at bare's knee (above it the comparison means nothing), at the top rate, when this
// process cannot dispatch at the rate asked, or at the time cap.
import { setTimeout as sleep } from 'node:timers/promises';
import type { BotKind } from '../botSetup.js';
import { ackTimes, dispatchAtRate, domainInfo, waitForAcks } from '../dispatch.js';
import { launch, type Running } from '../launch.js';
import type { Metric, MetricResult, Row } from '../report.js';
import { ms, type Summary, summarize } from '../stats.js';

const RATES = [25, 50, 100, 200, 400, 800, 1600, 3200];
const STEP_SECONDS = 2;
const MIN_COMMANDS = 100;
const API_MS = 10;
const FACTOR = 5;
const TIME_CAP_MS = 70_000;

interface Step {
  summary: Summary;
  missing: number;
  achievedRate: number;
}

async function start(kind: BotKind): Promise<Running> {
  const running = await launch(kind, { warmUp: 50 });
  running.stage.api.latencyMs = API_MS;
  return running;
}

async function step(r: Running, rate: number): Promise<Step> {
  const count = Math.max(MIN_COMMANDS, Math.round(rate * STEP_SECONDS));
  const { dispatched, achievedRate } = await dispatchAtRate(rate, count, () => domainInfo(r.stage));
  await waitForAcks(r.tracker, dispatched, 5_000);
  const { times, missing } = ackTimes(r.tracker, dispatched);
  await sleep(300);
  return { summary: summarize(times), missing, achievedRate };
}

const describe = (name: string, s: Step) =>
  `${name} p50 ${ms(s.summary.p50)} / p99 ${ms(s.summary.p99)}${s.missing > 0 ? ` (${s.missing} unacknowledged)` : ''}, dispatched at ${s.achievedRate.toFixed(0)}/s`;

interface Trial {
  bare: Step;
  hostops: Step | undefined;
  bareOk: boolean;
  hostopsOk: boolean;
  benchLimited: boolean;
}

export const knee: Metric = {
  name: 'knee',
  title: 'Throughput knee',
  async run(): Promise<MetricResult> {
    const started = performance.now();
    const bare = await start('bare');
    const hostops = await start('hostops').catch(async (error: unknown) => {
      await bare.stop();
      throw error;
    });
    const details: string[] = [];
    let bareBase = Number.NaN;
    let bareReached = 0;
    let hostopsReached = 0;
    let hostopsKnee = false;
    let ended = `top rate ${RATES[RATES.length - 1]}/s reached`;

    const trial = async (rate: number, label: string): Promise<Trial> => {
      const b = await step(bare, rate);
      if (Number.isNaN(bareBase)) bareBase = b.summary.p50;
      const h = hostopsKnee ? undefined : await step(hostops, rate);
      details.push(
        `${label}: ${describe('bare', b)}; ${h ? describe('HostOps', h) : 'HostOps not run (past its knee)'}`,
      );
      return {
        bare: b,
        hostops: h,
        benchLimited: b.achievedRate < 0.9 * rate,
        bareOk: b.missing === 0 && b.summary.p50 <= FACTOR * bareBase,
        hostopsOk:
          h !== undefined &&
          h.missing === 0 &&
          h.achievedRate >= 0.9 * rate &&
          h.summary.p99 <= FACTOR * b.summary.p99,
      };
    };

    try {
      for (const rate of RATES) {
        if (performance.now() - started > TIME_CAP_MS) {
          ended = `time cap (${TIME_CAP_MS / 1000} s) reached`;
          break;
        }
        let t = await trial(rate, `${rate}/s`);
        if (t.benchLimited) {
          ended = `this process could not dispatch ${rate}/s`;
          break;
        }
        if (!t.bareOk || (!hostopsKnee && !t.hostopsOk)) {
          const again = await trial(rate, `${rate}/s again`);
          t = {
            ...again,
            benchLimited: t.benchLimited && again.benchLimited,
            bareOk: t.bareOk || again.bareOk,
            hostopsOk: t.hostopsOk || again.hostopsOk,
          };
        }
        if (!t.bareOk) {
          ended = `bare's knee at ${rate}/s`;
          break;
        }
        bareReached = rate;
        if (!hostopsKnee) {
          if (t.hostopsOk) hostopsReached = rate;
          else hostopsKnee = true;
        }
      }
      hostops.tracker.scan();
    } finally {
      await Promise.all([bare.stop(), hostops.stop()]);
    }
    const edits = [...hostops.tracker.original.values()].sort((a, b) => a - b);
    // Highest rate of answers over any 5 s: discord.js lets its global budget out in bursts of 50.
    let peakEdits = 0;
    for (let lo = 0, hi = 0; hi < edits.length; hi++) {
      while ((edits[hi] ?? 0) - (edits[lo] ?? 0) >= 5000) lo++;
      peakEdits = Math.max(peakEdits, hi - lo + 1);
    }
    const lags = [...hostops.tracker.original.entries()].length;
    const bareLimit = ended.startsWith("bare's knee");
    const suffix = hostopsKnee ? '' : ' or more';
    const row: Row = {
      metric: `Throughput knee (API ${API_MS} ms, ${STEP_SECONDS} s steps)`,
      hostops: `${hostopsReached}/s${suffix}`,
      reference: `${bareReached}/s${bareLimit ? '' : ' or more'} (bare)`,
      ratio: bareReached > 0 ? `${(hostopsReached / bareReached).toFixed(2)}×` : 'n/a',
      target: `report (HostOps: p99 ack ≤ ${FACTOR}× bare's; bare: p50 ≤ ${FACTOR}× its own at ${RATES[0]}/s)`,
      met: null,
    };
    return {
      rows: [row],
      details: [
        `Rates ${RATES.join(', ')}/s, ${STEP_SECONDS} s each (at least ${MIN_COMMANDS} commands); bare's p50 at ${RATES[0]}/s was ${ms(bareBase)}. Search ended: ${ended}.`,
        ...details,
        `HostOps' answers (edits of @original after the defer): ${lags} received, at most ${(peakEdits / 5).toFixed(0)}/s averaged over any 5 s. discord.js' REST client holds every request but the interaction callback, webhook edits included, to its global limit (\`rest.globalRequestsPerSecond\`, 50/s), so above 50 commands/s HostOps acknowledges at the rate offered while its answers queue.`,
      ],
    };
  },
};
