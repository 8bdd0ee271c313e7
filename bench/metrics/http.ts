// Interactions over HTTP (INTERACTIONS_MODE=http), side by side in one run: idle RSS against the gateway-mode
// HostOps and the bare gateway bot in the 5,000-member guild; acknowledgement p99 for a burst of 200 and for
// 20/s against a bare HTTP responder (bench/bareHttp.mjs: the signature verified, a fixed answer at once);
// cold start to the first answered interaction. Over HTTP the fake stamps `dispatchedAt` when it starts the
// signed POST and the acknowledgement when the HTTP response (the first response) has arrived.

import type { Metric, MetricResult, Row } from '../report.js';
import { ratioRow } from '../report.js';
import { mb, median, ms } from '../stats.js';
import {
  type AckRun,
  BURST,
  BURST_REPEATS,
  burst,
  line,
  medianRun,
  STEADY_RATE,
  STEADY_SECONDS,
  steady,
} from './ack.js';
import { coldLaunch } from './coldStart.js';
import { type Idle, idleLaunch } from './memory.js';

const OVER_HTTP = { interactionsPort: 0 };
const LAUNCHES = 5;
/** The issue's target: idle RSS in http mode at least this far below the bare gateway bot's. */
const BELOW_BARE_MB = 15;

type IdleKind = 'http' | 'gateway' | 'bare';

const idleOf: Record<IdleKind, () => Promise<Idle>> = {
  http: () => idleLaunch('hostops', {}, OVER_HTTP),
  gateway: () => idleLaunch('hostops'),
  bare: () => idleLaunch('bare'),
};

function belowRow(metric: string, http: number, bare: number): Row {
  const below = (bare - http) / 1024 / 1024;
  return {
    metric,
    hostops: mb(http),
    reference: `${mb(bare)} (bare gateway bot)`,
    ratio: `${below >= 0 ? '−' : '+'}${Math.abs(below).toFixed(1)} MB`,
    target: `≥ ${BELOW_BARE_MB} MB below bare`,
    met: below >= BELOW_BARE_MB,
  };
}

export const http: Metric = {
  name: 'http',
  title: 'Interactions over HTTP',
  async run(): Promise<MetricResult> {
    // Alternating launches, as in the memory metric: RSS moves by up to ±10 MB from launch to launch.
    const idle: Record<IdleKind, Idle[]> = { http: [], gateway: [], bare: [] };
    for (let n = 0; n < LAUNCHES; n++) {
      for (const kind of ['http', 'gateway', 'bare'] as const) idle[kind].push(await idleOf[kind]());
    }
    const idleMedian = (kind: IdleKind, key: keyof Idle) => median(idle[kind].map((l) => l[key]));
    const idleList = (kind: IdleKind, key: keyof Idle) => idle[kind].map((l) => mb(l[key])).join(', ');

    const httpBursts: AckRun[] = [];
    const bareBursts: AckRun[] = [];
    for (let n = 0; n < BURST_REPEATS; n++) {
      bareBursts.push(await burst('barehttp', 2000, 0, OVER_HTTP));
      httpBursts.push(await burst('hostops', 2000, 0, OVER_HTTP));
    }
    const httpBurst = medianRun(httpBursts);
    const bareBurst = medianRun(bareBursts);
    const bareSteady = await steady('barehttp', 2000, OVER_HTTP);
    const httpSteady = await steady('hostops', 2000, OVER_HTTP);

    const cold: Record<'http' | 'barehttp' | 'gateway', number[]> = { http: [], barehttp: [], gateway: [] };
    for (let n = 0; n < LAUNCHES; n++) {
      cold.http.push((await coldLaunch('hostops', {}, OVER_HTTP)).ready);
      cold.barehttp.push((await coldLaunch('barehttp', {}, OVER_HTTP)).ready);
      cold.gateway.push((await coldLaunch('hostops')).ready);
    }
    const coldList = (kind: keyof typeof cold) => cold[kind].map(ms).join(', ');

    const rows: Row[] = [
      belowRow(
        `HTTP mode: idle RSS after a forced GC, 5,000-member guild (median of ${LAUNCHES})`,
        idleMedian('http', 'afterGc'),
        idleMedian('bare', 'afterGc'),
      ),
      {
        metric: 'HTTP mode: idle RSS after a forced GC against gateway-mode HostOps',
        hostops: mb(idleMedian('http', 'afterGc')),
        reference: `${mb(idleMedian('gateway', 'afterGc'))} (HostOps, gateway)`,
        ratio: `${((idleMedian('http', 'afterGc') - idleMedian('gateway', 'afterGc')) / 1024 / 1024).toFixed(1)} MB`,
        target: 'reported',
        met: null,
      },
      ratioRow(
        `HTTP mode: ack, burst ${BURST} (API 2 s), p99 (median of ${BURST_REPEATS})`,
        httpBurst.summary.p99,
        bareBurst.summary.p99,
        1.5,
        ms,
        'bare HTTP',
      ),
      ratioRow(
        `HTTP mode: ack, steady ${STEADY_RATE}/s × ${STEADY_SECONDS} s (API 2 s), p99`,
        httpSteady.summary.p99,
        bareSteady.summary.p99,
        2,
        ms,
        'bare HTTP',
      ),
      {
        metric: `HTTP mode: cold start, spawn → first interaction answered (median of ${LAUNCHES})`,
        hostops: ms(median(cold.http)),
        reference: `${ms(median(cold.barehttp))} (bare HTTP)`,
        ratio: `${(median(cold.http) / median(cold.barehttp)).toFixed(2)}×`,
        target: 'reported',
        met: null,
      },
    ];
    const details = [
      `Idle RSS 1 s after ready, no GC forced, per launch: HostOps over HTTP ${idleList('http', 'raw')}; HostOps over the gateway ${idleList('gateway', 'raw')}; bare gateway bot ${idleList('bare', 'raw')}. After two forced full GCs: ${idleList('http', 'afterGc')}; ${idleList('gateway', 'afterGc')}; ${idleList('bare', 'afterGc')}. Heap used after GC: ${idleList('http', 'heap')}; ${idleList('gateway', 'heap')}; ${idleList('bare', 'heap')}. Over HTTP no GUILD_CREATE ever arrives, so the guild's size costs nothing.`,
      `Burst of ${BURST} \`/domain info\` POSTed at once (the fake's undici pool opens a connection per request), API answering in 2 s:`,
      ...httpBursts.map((r, n) => `  - ${line(`HostOps over HTTP #${n + 1}`, r)}`),
      ...bareBursts.map((r, n) => `  - ${line(`bare HTTP #${n + 1}`, r)}`),
      `Steady ${STEADY_RATE}/s for ${STEADY_SECONDS} s, API answering in 2 s:`,
      `  - ${line('HostOps over HTTP', httpSteady)}`,
      `  - ${line('bare HTTP', bareSteady)}`,
      `Cold start, spawn → the first interaction's acknowledgement (a signed PING every 5 ms until the endpoint answers, then a \`/domain info\`): HostOps over HTTP ${coldList('http')}; bare HTTP ${coldList('barehttp')}; HostOps over the gateway (spawn → READY → the probe acknowledged) ${coldList('gateway')}, median ${ms(median(cold.gateway))}.`,
    ];
    return { rows, details };
  },
};
