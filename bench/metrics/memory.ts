// 5. Memory: idle RSS in a guild of 5,000 members and 500 channels (HostOps and bare), then HostOps' heap
// used after forced GCs before and after 10,000 handled commands, read over the DevTools protocol.
import { setTimeout as sleep } from 'node:timers/promises';
import type { DispatchedInteraction } from '../../test/support/FakeDiscord.js';
import { Cdp, countObjects } from '../cdp.js';
import { type BotKind, domainInfo, rssBytes, type Stage, type Tracker, withBot } from '../harness.js';
import type { Metric, MetricResult, Row } from '../report.js';
import { mb, median } from '../stats.js';

const BIG_GUILD = { memberCount: 5_000, channelCount: 500 };
const RSS_MB_ALLOWANCE = 15;
const COMMANDS = 10_000;
const WARM_UP = 500;
/** One in VALID_EVERY commands is a valid /domain info (defer → API → edit); the rest fail validation. */
const VALID_EVERY = 10;
const WINDOW = 64;
const API_MS = 10;
const LAUNCHES = 3;

interface Idle {
  /** VmRSS 1 s after ready, no GC forced (median of 3 samples 200 ms apart). */
  raw: number;
  /** VmRSS after two forced full GCs. */
  afterGc: number;
  heap: number;
}

/** One launch in the big guild under --inspect: RSS 1 s after ready, then RSS and heap after a forced GC. */
async function idle(kind: BotKind): Promise<Idle> {
  return withBot(kind, BIG_GUILD, { inspect: true }, async ({ bot }) => {
    const cdp = await Cdp.connect(await bot.inspectorUrl());
    try {
      await sleep(1_000);
      const samples: number[] = [];
      for (let n = 0; n < 3; n++) {
        samples.push(rssBytes(bot.pid));
        await sleep(200);
      }
      const { rss, heap } = await afterGc(cdp, bot.pid);
      return { raw: median(samples), afterGc: rss, heap };
    } finally {
      cdp.close();
    }
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

const rssRow = (metric: string, hostops: number, bare: number): Row => {
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
    // RSS differs from launch to launch by up to ±10 MB (heap used does not): medians of three each.
    const launches: Record<'hostops' | 'bare', Idle[]> = { hostops: [], bare: [] };
    for (let n = 0; n < LAUNCHES; n++) {
      for (const kind of ['hostops', 'bare'] as const) launches[kind].push(await idle(kind));
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
        const after = await afterGc(cdp, bot.pid);
        // One REST handler per interaction token that was edited: what discord.js keeps until its sweep.
        const handlers =
          countObjects(await cdp.heapSnapshot(), ['SequentialHandler']).get('SequentialHandler') ?? 0;
        return { atReady, before, after, ms, handlers };
      } finally {
        cdp.close();
      }
    });

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
        metric: `Heap used after GC, ${COMMANDS.toLocaleString('en')} commands`,
        hostops: `${mb(heap.after.heap)} after`,
        reference: `${mb(heap.before)} before`,
        ratio: `${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)} %`,
        target: 'growth ≤ 10 %',
        met: growth <= 0.1,
      },
    ];
    return {
      rows,
      details: [
        `RSS 1 s after ready, no GC forced (VmRSS, median of 3 samples 200 ms apart), per launch: HostOps ${list('hostops', 'raw')}; bare ${list('bare', 'raw')}. Whether V8 has collected the start-up garbage by then is a matter of timing, hence the second row.`,
        `After two forced full GCs (HeapProfiler.collectGarbage): RSS HostOps ${list('hostops', 'afterGc')}; bare ${list('bare', 'afterGc')}; heap used HostOps ${list('hostops', 'heap')}; bare ${list('bare', 'heap')}. All launches under --inspect=127.0.0.1:0, alternating.`,
        `Heap used after GC: at ready ${mb(heap.atReady)}, after ${WARM_UP} warm-up commands ${mb(heap.before)}, after ${COMMANDS.toLocaleString('en')} more ${mb(heap.after.heap)} (RSS then ${mb(heap.after.rss)})`,
        `discord.js REST handlers (\`SequentialHandler\`, one per interaction token answered by a webhook edit) in a heap snapshot after the run: ${heap.handlers.toLocaleString('en')}; discord.js sweeps inactive ones hourly (\`rest.handlerSweepInterval\`)`,
        `The ${COMMANDS.toLocaleString('en')} commands: every ${VALID_EVERY}th a valid \`/domain info\` (gates → validate → defer → API ${API_MS} ms → edit), the others \`/domain info\` with an invalid name (gates → validation error → ephemeral reply); at most ${WINDOW} unanswered at a time; took ${(heap.ms / 1000).toFixed(1)} s`,
      ],
    };
  },
};
