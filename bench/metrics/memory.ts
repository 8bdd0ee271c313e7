// 5. Memory, HostOps (SQLite store, watch on with 100 domains) against bare in a guild of 5,000 members and
// 500 channels: idle RSS 1 s after ready and after a forced GC; HostOps' heap used after forced GCs after
// warm-up and after 10,000 handled commands and a minute idle, read over the DevTools protocol; and the
// peak RSS and RssAnon of a burst of 200 commands against the compose examples' container limit.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DispatchedInteraction } from '../../test/support/FakeDiscord.js';
import { type BotKind, ROOT } from '../botSetup.js';
import { Cdp, countObjects } from '../cdp.js';
import { domainInfo, waitUntil, warmUp } from '../dispatch.js';
import { withBot } from '../launch.js';
import { rssAnonBytes, rssBytes } from '../procStats.js';
import type { Metric, MetricResult, Row } from '../report.js';
import type { SpawnOptions } from '../spawnBot.js';
import type { Stage } from '../stage.js';
import { mb, median, mib, ms } from '../stats.js';
import type { Tracker } from '../Tracker.js';

export const BIG_GUILD = { memberCount: 5_000, channelCount: 500 };
const RSS_MB_ALLOWANCE = 15;
const COMMANDS = 10_000;
const WARM_UP = 500;
/** One in VALID_EVERY commands is a valid /domain info (defer → API → edit); the rest fail validation. */
const VALID_EVERY = 10;
const WINDOW = 64;
const API_MS = 10;
/** Idle after the 10,000 commands before the heap is read (discord.js sweeps idle REST handlers each minute). */
const IDLE_AFTER_MS = 60_000;
/** RSS moves by up to ±10 MB from launch to launch (heap used does not): medians of five each. */
const LAUNCHES = 5;
/** The compose examples' `mem_limit` (compose.yaml), which the burst must fit in. */
export const CONTAINER_LIMIT = (() => {
  const limit = /^\s+mem_limit:\s*(\d+)m\s*$/m.exec(readFileSync(join(ROOT, 'compose.yaml'), 'utf8'))?.[1];
  if (limit === undefined) throw new Error('compose.yaml sets no mem_limit');
  return Number(limit) * 1024 * 1024;
})();
const BURST = 200;
const BURST_API_MS = 2_000;
const BURST_LAUNCHES = 3;
/** HostOps answers the last of the burst after HOSTING_API_TIMEOUT_MS (15 s), its pool being 10 connections. */
const BURST_WAIT_MS = 25_000;
const SAMPLE_MS = 10;

export interface Idle {
  /** VmRSS 1 s after ready, no GC forced (median of 3 samples 200 ms apart). */
  raw: number;
  /** Heap used 1 s after ready, before any forced GC (live objects and start-up garbage). */
  heapRaw: number;
  /** VmRSS after two forced full GCs. */
  afterGc: number;
  heap: number;
}

/**
 * One launch in the big guild under --inspect: RSS 1 s after ready, then RSS and heap after a forced GC;
 * `env` is added to the bot's environment (e.g. another DATABASE_URL), `spawn` to its options (e.g.
 * interactions over HTTP).
 */
export async function idleLaunch(
  kind: BotKind,
  env: Record<string, string> = {},
  spawn: SpawnOptions = {},
): Promise<Idle> {
  return withBot(kind, BIG_GUILD, { ...spawn, inspect: true, env }, async ({ bot }) => {
    const cdp = await Cdp.connect(await bot.inspectorUrl());
    try {
      await sleep(1_000);
      const samples: number[] = [];
      for (let n = 0; n < 3; n++) {
        samples.push(rssBytes(bot.pid));
        await sleep(200);
      }
      const { usedSize: heapRaw } = await cdp.send<{ usedSize: number }>('Runtime.getHeapUsage');
      const { rss, heap } = await afterGc(cdp, bot.pid);
      return { raw: median(samples), heapRaw, afterGc: rss, heap };
    } finally {
      cdp.close();
    }
  });
}

interface Burst {
  /** VmRSS 1 s after the warm-up, before the burst. */
  before: number;
  /** Largest VmRSS sampled every SAMPLE_MS from the burst until every command had its final answer. */
  peak: number;
  /** Largest RssAnon sampled alongside: what a cgroup limit must hold (file-backed pages are reclaimable). */
  peakAnon: number;
  answered: number;
  ms: number;
}

/**
 * A burst of 200 `/domain info` (API 2 s) in the big guild, 20 warm-up commands first, no --inspect: the
 * peak RSS from the burst until the last command is answered, which is what a container limit has to hold.
 */
async function burstPeak(kind: BotKind): Promise<Burst> {
  return withBot(kind, BIG_GUILD, {}, async ({ stage, bot, tracker }) => {
    await warmUp(stage, tracker, 20);
    stage.api.latencyMs = BURST_API_MS;
    await sleep(1_000);
    const before = rssBytes(bot.pid);
    let peak = before;
    let peakAnon = rssAnonBytes(bot.pid);
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        if (!bot.exited()) {
          peak = Math.max(peak, rssBytes(bot.pid));
          peakAnon = Math.max(peakAnon, rssAnonBytes(bot.pid));
        }
        await sleep(SAMPLE_MS);
      }
    })();
    const t0 = performance.now();
    const dispatched = Array.from({ length: BURST }, () => domainInfo(stage));
    const answered = () => dispatched.filter((i) => tracker.finalAt(i) !== undefined).length;
    await waitUntil(
      () => {
        tracker.scan();
        return answered() === BURST || bot.exited();
      },
      BURST_WAIT_MS,
      '',
    );
    const elapsed = performance.now() - t0;
    sampling = false;
    await sampler;
    if (bot.exited()) throw new Error(`${kind} exited during the burst: ${bot.stderrTail()}`);
    return { before, peak, peakAnon, answered: answered(), ms: elapsed };
  });
}

/**
 * Sends `count` commands keeping at most WINDOW unanswered, so the run goes as fast as the bot answers.
 * Answered = reply callback for the invalid ones, PATCH @original for the valid ones.
 */
async function handle(stage: Stage, tracker: Tracker, count: number): Promise<number> {
  const t0 = performance.now();
  const pending = new Set<DispatchedInteraction>();
  let sent = 0;
  while (sent < count || pending.size > 0) {
    tracker.scan();
    for (const i of pending) {
      const ack = tracker.ack.get(i.id);
      if (ack !== undefined && (ack.type !== 5 || tracker.original.has(i.token))) pending.delete(i);
    }
    while (sent < count && pending.size < WINDOW) {
      pending.add(domainInfo(stage, sent % VALID_EVERY === 0 ? 'example.com' : 'not a domain!'));
      sent++;
    }
    if (performance.now() - t0 > 120_000) throw new Error(`only ${sent - pending.size} of ${count} answered`);
    await sleep(1);
  }
  return performance.now() - t0;
}

/** RSS and heap used after forced full GCs, read with the bot started under --inspect. */
async function afterGc(cdp: Cdp, pid: number): Promise<{ rss: number; heap: number }> {
  const heap = await cdp.heapUsedAfterGc();
  // Let freed pages go back to the OS before sampling.
  await sleep(300);
  return { rss: rssBytes(pid), heap };
}

export const rssRow = (metric: string, hostops: number, bare: number): Row => {
  const diff = (hostops - bare) / 1024 / 1024;
  return {
    metric,
    hostops: mb(hostops),
    reference: `${mb(bare)} (bare)`,
    // Two decimals when one would round across the limit.
    ratio: `${diff >= 0 ? '+' : ''}${diff.toFixed(Math.abs(diff - RSS_MB_ALLOWANCE) < 0.05 ? 2 : 1)} MB`,
    target: `≤ bare + ${RSS_MB_ALLOWANCE} MB`,
    met: diff <= RSS_MB_ALLOWANCE,
  };
};

export const memory: Metric = {
  name: 'memory',
  title: 'Memory',
  async run(): Promise<MetricResult> {
    const launches: Record<'hostops' | 'bare', Idle[]> = { hostops: [], bare: [] };
    for (let n = 0; n < LAUNCHES; n++) {
      for (const kind of ['hostops', 'bare'] as const) launches[kind].push(await idleLaunch(kind));
    }
    const pick = (kind: 'hostops' | 'bare', key: keyof Idle) => median(launches[kind].map((l) => l[key]));
    const list = (kind: 'hostops' | 'bare', key: keyof Idle) =>
      launches[kind].map((l) => mb(l[key])).join(', ');

    const heap = await withBot('hostops', BIG_GUILD, { inspect: true }, async ({ stage, bot, tracker }) => {
      const cdp = await Cdp.connect(await bot.inspectorUrl());
      try {
        await sleep(1_000);
        const atReady = await cdp.heapUsedAfterGc();
        stage.api.latencyMs = API_MS;
        await handle(stage, tracker, WARM_UP);
        const before = await cdp.heapUsedAfterGc();
        const ms = await handle(stage, tracker, COMMANDS);
        await sleep(500);
        const atEnd = await afterGc(cdp, bot.pid);
        // One REST handler per interaction token that was edited: what discord.js keeps until its sweep.
        const handlersOf = async () =>
          countObjects(await cdp.heapSnapshot(), ['SequentialHandler']).get('SequentialHandler') ?? 0;
        const handlersAtEnd = await handlersOf();
        await sleep(IDLE_AFTER_MS);
        const after = await afterGc(cdp, bot.pid);
        const handlers = await handlersOf();
        return { atReady, before, atEnd, handlersAtEnd, after, ms, handlers };
      } finally {
        cdp.close();
      }
    });

    const bursts: Record<'hostops' | 'bare', Burst[]> = { hostops: [], bare: [] };
    for (let n = 0; n < BURST_LAUNCHES; n++) {
      for (const kind of ['hostops', 'bare'] as const) bursts[kind].push(await burstPeak(kind));
    }
    const peakOf = (kind: 'hostops' | 'bare') => Math.max(...bursts[kind].map((b) => b.peak));
    const anonOf = (kind: 'hostops' | 'bare') => Math.max(...bursts[kind].map((b) => b.peakAnon));
    const burstList = (kind: 'hostops' | 'bare') =>
      bursts[kind]
        .map(
          (b) =>
            `${mib(b.peak)}, RssAnon ${mib(b.peakAnon)} (before ${mib(b.before)}, ${b.answered} answered in ${ms(b.ms)})`,
        )
        .join(', ');

    const growth = (heap.after.heap - heap.before) / heap.before;
    const rows: Row[] = [
      rssRow(
        `Idle RSS, 5,000 members / 500 channels, 1 s after ready (median of ${LAUNCHES})`,
        pick('hostops', 'raw'),
        pick('bare', 'raw'),
      ),
      rssRow(
        `Idle RSS, same guild, after a forced full GC (median of ${LAUNCHES})`,
        pick('hostops', 'afterGc'),
        pick('bare', 'afterGc'),
      ),
      {
        metric: `Heap used after GC, ${COMMANDS.toLocaleString('en')} commands and a minute idle`,
        hostops: `${mb(heap.after.heap)} after`,
        reference: `${mb(heap.before)} after warm-up`,
        ratio: `${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)} %`,
        target: 'growth ≤ 10 %',
        met: growth <= 0.1,
      },
      {
        metric: `Peak RssAnon, burst of ${BURST} (API 2 s), same guild (max of ${BURST_LAUNCHES})`,
        hostops: mib(anonOf('hostops')),
        reference: `${mib(anonOf('bare'))} (bare)`,
        ratio: `${anonOf('hostops') >= anonOf('bare') ? '+' : ''}${mb(anonOf('hostops') - anonOf('bare'))}`,
        target: "≤ bare's + 15 MB",
        met: anonOf('hostops') - anonOf('bare') <= 15e6,
      },
      {
        metric: `Peak RSS, burst of ${BURST} (API 2 s), same guild (max of ${BURST_LAUNCHES})`,
        hostops: mib(peakOf('hostops')),
        reference: `${mib(peakOf('bare'))} (bare)`,
        ratio: `${((peakOf('hostops') / CONTAINER_LIMIT) * 100).toFixed(0)} % of the limit`,
        target: `≤ ${mib(CONTAINER_LIMIT)} (compose mem_limit)`,
        met: peakOf('hostops') <= CONTAINER_LIMIT,
      },
    ];
    return {
      rows,
      details: [
        `RSS 1 s after ready, no GC forced (VmRSS, median of 3 samples 200 ms apart), per launch: HostOps ${list('hostops', 'raw')}; bare ${list('bare', 'raw')}. Whether V8 has collected the start-up garbage by then is a matter of timing, hence the second row.`,
        `Heap used 1 s after ready, before any forced GC: HostOps ${list('hostops', 'heapRaw')}; bare ${list('bare', 'heapRaw')} (the difference to the row below is start-up garbage not yet collected).`,
        `After two forced full GCs (HeapProfiler.collectGarbage): RSS HostOps ${list('hostops', 'afterGc')}; bare ${list('bare', 'afterGc')}; heap used HostOps ${list('hostops', 'heap')}; bare ${list('bare', 'heap')}. All launches under --inspect=127.0.0.1:0, alternating.`,
        `Heap used after GC: at ready ${mb(heap.atReady)}, after ${WARM_UP} warm-up commands ${mb(heap.before)}, right after ${COMMANDS.toLocaleString('en')} more ${mb(heap.atEnd.heap)} (RSS ${mb(heap.atEnd.rss)}), after ${IDLE_AFTER_MS / 1000} s idle ${mb(heap.after.heap)} (RSS not comparable then: the heap snapshot taken before the idle minute grows the process)`,
        `discord.js REST handlers (\`SequentialHandler\`, one per interaction token answered by a webhook edit) in a heap snapshot right after the run: ${heap.handlersAtEnd.toLocaleString('en')}; after ${IDLE_AFTER_MS / 1000} s idle: ${heap.handlers.toLocaleString('en')} (\`rest.handlerSweepInterval\`)`,
        `The ${COMMANDS.toLocaleString('en')} commands: every ${VALID_EVERY}th a valid \`/domain info\` (gates → validate → defer → API ${API_MS} ms → edit), the others \`/domain info\` with an invalid name (gates → validation error → ephemeral reply); at most ${WINDOW} unanswered at a time; took ${(heap.ms / 1000).toFixed(1)} s`,
        `Burst of ${BURST} \`/domain info\` (API ${BURST_API_MS / 1000} s) in the same guild after 20 warm-up commands, fresh processes without --inspect, alternating; VmRSS sampled every ${SAMPLE_MS} ms from the burst until every command had its final answer (at most ${BURST_WAIT_MS / 1000} s). Peaks, HostOps: ${burstList('hostops')}; bare: ${burstList('bare')}`,
      ],
    };
  },
};
