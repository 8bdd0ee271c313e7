// 14. A scrape of /metrics with 10,000 and 100,000 watched domains (issue 33, point 11): the built bot on
// a SQLite store seeded with that many watched domains (expiry dates over ten years, so a scrape meets
// ≈ 3,650 distinct dates), HTTP_PORT on, started under --inspect. Per size: the time per scrape (request →
// last byte, at a scraper in a child process of its own, so reading megabytes of text does not delay the
// fake Discord in this process) and the longest the bot's event loop was held during it (a 1 ms interval
// timer installed in the bot over the DevTools protocol: the longest gap between two of its callbacks); then
// the acknowledgement p99 of `/domain info` at 20/s while the scraper scrapes back to back, against the same
// bot with no scrape, windows alternating.
import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { DispatchedInteraction } from '../../test/support/FakeDiscord.js';
import { freePort } from '../../test/support/freePort.js';
import { watchedDomains } from '../../test/support/watchedDomains.js';
import { TMP } from '../botSetup.js';
import { Cdp } from '../cdp.js';
import { ackTimes, dispatchAtRate, domainInfo, waitForAcks, warmUp } from '../dispatch.js';
import { PROBE, type ProbeReading } from '../eventLoopProbe.js';
import { withBot } from '../launch.js';
import { cpuMs, waitForQuietMachine } from '../procStats.js';
import { type Metric, type MetricResult, type Row, ratioRow } from '../report.js';
import { fmtSummary, median, ms, summarize } from '../stats.js';

const SIZES = [10_000, 100_000] as const;
const SCRAPES = 10;
/** Scrapes after start-up and before the timed ones; the first converts every distinct date once. */
const WARM_SCRAPES = 3;
const RATE = 20;
const WINDOW_S = 10;
const ROUNDS = 3;
const API_MS = 2000;
const TIME_TARGET_MS = 50;
/** Issue 40: a scrape with nothing changed since the last serves the kept per-domain series. */
const UNCHANGED_TARGET_MS = 5;
const BLOCK_TARGET_MS = 20;
const ACK_LIMIT = 1.2;
const CHILD_FLAG = '--bench-scraper';

/**
 * A SQLite store of its own holding `count` watched domains (with `failing`, every one failing its checks,
 * as in a provider outage); returns its DATABASE_URL.
 */
export async function seedStore(count: number, failing = false): Promise<{ url: string; dir: string }> {
  const dir = join(TMP, `scrape-${count}${failing ? '-failing' : ''}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const url = `sqlite:${join(dir, 'hostops.db')}`;
  const { openStore } = await import('../../src/store/index.js');
  const store = await openStore(url);
  // close() waits for the bulk-write worker's exit, which is unref'd: with nothing else running in this
  // process yet, the event loop would empty (and the bench end) before it.
  const keepAlive = setInterval(() => {}, 1_000);
  try {
    const result = await store.importRows({
      changes: [],
      audit: [],
      watch: {
        domains: watchedDomains(count, (n) => `scrape-${String(n).padStart(6, '0')}.example.com`).map(
          (row) => (failing ? { ...row, status: 'failed' as const, failures: 3 } : row),
        ),
        alerts: [],
      },
    });
    if (!result.imported || result.watched !== count) throw new Error('could not seed the watch list');
  } finally {
    await store.close();
    clearInterval(keepAlive);
  }
  return { url, dir };
}

type ToScraper = { type: 'scrape'; url: string } | { type: 'loop'; url: string } | { type: 'stop' };
type FromScraper =
  | { type: 'ready' }
  | { type: 'scraped'; ms: number; bytes: number; status: number }
  | { type: 'looped'; times: number[] };

/**
 * One GET, body read and thrown away; the time to its last byte. Asked as Prometheus asks (`Accept-Encoding:
 * gzip`), and not decompressed: what is timed is HostOps' answer.
 */
export function scrapeOnce(url: string): Promise<{ ms: number; bytes: number; status: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    get(url, { agent: false, headers: { 'accept-encoding': 'gzip' } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on('end', () => resolve({ ms: performance.now() - started, bytes, status: res.statusCode ?? 0 }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** Child side: one scrape when asked, or scrapes back to back until told to stop. */
function serveScraper(): void {
  const send = (message: FromScraper) => process.send?.(message);
  let looping = false;
  process.on('message', (message: ToScraper) => {
    if (message.type === 'scrape') void scrapeOnce(message.url).then((r) => send({ type: 'scraped', ...r }));
    if (message.type === 'stop') looping = false;
    if (message.type === 'loop') {
      looping = true;
      void (async () => {
        const times: number[] = [];
        while (looping) times.push((await scrapeOnce(message.url)).ms);
        send({ type: 'looped', times });
      })();
    }
  });
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready' });
}

if (process.argv[2] === CHILD_FLAG) serveScraper();

/** The scraper child, driven over IPC. */
export async function forkScraper() {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [CHILD_FLAG], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T extends FromScraper['type']>(type: T) =>
    new Promise<Extract<FromScraper, { type: T }>>((resolve, reject) => {
      const onMessage = (message: FromScraper) => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message as Extract<FromScraper, { type: T }>);
      };
      const onExit = (code: number | null) => reject(new Error(`the scraper exited (${code})`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  await next('ready');
  const send = (message: ToScraper) => child.send(message);
  return {
    async scrape(url: string) {
      const answer = next('scraped');
      send({ type: 'scrape', url });
      return answer;
    },
    /** Starts scraping back to back; the returned function stops and gives each scrape's time. */
    loop(url: string): () => Promise<number[]> {
      const answer = next('looped');
      send({ type: 'loop', url });
      return async () => {
        send({ type: 'stop' });
        return (await answer).times;
      };
    },
    stop() {
      child.disconnect();
    },
  };
}

interface SizeResult {
  size: number;
  first: { ms: number; block: number; blockCpu: number; blockWaited: number };
  times: number[];
  blocks: number[];
  blocksCpu: number[];
  blocksWaited: number[];
  bytes: number;
  cpuPerScrape: number;
  /** Acknowledgement times of the windows with and without scrapes, pooled. */
  during: number[];
  none: number[];
  missing: { during: number; none: number };
  scrapesDuring: number[];
  /** Idle share of the machine before each window, and whether it was quiet (≥ 85 %). */
  windows: { kind: 'during' | 'none'; idle: number; quiet: boolean; p99: number }[];
}

async function measureSize(size: number): Promise<SizeResult> {
  const seeded = await seedStore(size);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/metrics`;
  const scraper = await forkScraper();
  try {
    return await withBot(
      'hostops',
      {},
      {
        inspect: true,
        env: { DATABASE_URL: seeded.url, HTTP_PORT: String(port), WATCH_MAX_DOMAINS: '100000' },
      },
      async ({ stage, bot, tracker }) => {
        const cdp = await Cdp.connect(await bot.inspectorUrl());
        try {
          await warmUp(stage, tracker, 20);
          const probe = () => cdp.evaluate<ProbeReading>(PROBE);
          /** One scrape: its time at the scraper and the longest the bot's loop was held meanwhile. */
          const timedScrape = async () => {
            await probe();
            const scraped = await scraper.scrape(url);
            if (scraped.status !== 200) throw new Error(`GET /metrics answered ${scraped.status}`);
            // The probe's timer runs once more after the last block before it is read.
            await sleep(20);
            const block = await probe();
            return { ...scraped, block: block.wall, blockCpu: block.cpu, blockWaited: block.waited };
          };
          const firstScrape = await timedScrape();
          for (let n = 1; n < WARM_SCRAPES; n++) await timedScrape();
          const times: number[] = [];
          const blocks: number[] = [];
          const blocksCpu: number[] = [];
          const blocksWaited: number[] = [];
          let bytes = 0;
          const cpuBefore = cpuMs(bot.pid);
          for (let n = 0; n < SCRAPES; n++) {
            await sleep(100);
            const scraped = await timedScrape();
            times.push(scraped.ms);
            blocks.push(scraped.block);
            blocksCpu.push(scraped.blockCpu);
            blocksWaited.push(scraped.blockWaited);
            bytes = scraped.bytes;
          }
          const cpuPerScrape = (cpuMs(bot.pid) - cpuBefore) / SCRAPES;

          stage.api.latencyMs = API_MS;
          const pooled = { during: [] as number[], none: [] as number[] };
          const missing = { during: 0, none: 0 };
          const scrapesDuring: number[] = [];
          const windows: SizeResult['windows'] = [];
          for (let round = 0; round < ROUNDS; round++) {
            for (const kind of ['none', 'during'] as const) {
              // The previous window's answers (API 2 s) are in before the next one starts.
              await sleep(API_MS + 500);
              const { idle, quiet } = await waitForQuietMachine();
              const stopScraping = kind === 'during' ? scraper.loop(url) : undefined;
              // Scraping has begun before the first command is sent.
              if (stopScraping) await sleep(50);
              let dispatched: DispatchedInteraction[];
              try {
                ({ dispatched } = await dispatchAtRate(RATE, RATE * WINDOW_S, () => domainInfo(stage)));
                await waitForAcks(tracker, dispatched, 5_000);
              } finally {
                if (stopScraping) scrapesDuring.push(...(await stopScraping()));
              }
              const { times: acks, missing: lost } = ackTimes(tracker, dispatched);
              pooled[kind].push(...acks);
              missing[kind] += lost;
              windows.push({ kind, idle, quiet, p99: summarize(acks).p99 });
            }
          }
          return {
            size,
            first: {
              ms: firstScrape.ms,
              block: firstScrape.block,
              blockCpu: firstScrape.blockCpu,
              blockWaited: firstScrape.blockWaited,
            },
            times,
            blocks,
            blocksCpu,
            blocksWaited,
            bytes,
            cpuPerScrape,
            during: pooled.during,
            none: pooled.none,
            missing,
            scrapesDuring,
            windows,
          };
        } finally {
          cdp.close();
        }
      },
    );
  } finally {
    scraper.stop();
    rmSync(seeded.dir, { recursive: true, force: true });
  }
}

const count = (n: number) => n.toLocaleString('en-US');

function rowsOf(r: SizeResult): Row[] {
  const time = median(r.times);
  const block = Math.max(...r.blocks);
  const during = summarize(r.during);
  const none = summarize(r.none);
  const timeTarget = r.size <= 10_000 ? TIME_TARGET_MS : UNCHANGED_TARGET_MS;
  return [
    {
      metric: `Scrape, ${count(r.size)} watched domains, nothing changed since the last: time per scrape (median of ${SCRAPES})`,
      hostops: ms(time),
      reference: `${ms(r.first.ms)} (first after start)`,
      ratio: '—',
      target: `≤ ${timeTarget} ms`,
      met: time <= timeTarget,
    },
    {
      metric: `Scrape, ${count(r.size)} watched domains: longest event-loop block during a scrape (max of ${SCRAPES})`,
      hostops: ms(block),
      reference: `${ms(r.first.block)} (first after start)`,
      ratio: '—',
      target: `≤ ${BLOCK_TARGET_MS} ms`,
      met: block <= BLOCK_TARGET_MS,
    },
    ratioRow(
      `Scrape, ${count(r.size)} watched domains: ack p99 of commands sent during back-to-back scrapes (${RATE}/s, ${ROUNDS} × ${WINDOW_S} s)`,
      during.p99,
      none.p99,
      ACK_LIMIT,
      ms,
      'no scrape',
    ),
  ];
}

function detailsOf(r: SizeResult): string[] {
  const windows = r.windows.map(
    (w) =>
      `${w.kind === 'during' ? 'scrapes' : 'none'} p99 ${ms(w.p99)}${w.quiet ? '' : ` (started busy: ${(w.idle * 100).toFixed(0)} % idle)`}`,
  );
  return [
    `${count(r.size)} watched domains (${count(r.bytes)} bytes a scrape): per scrape ${fmtSummary(summarize(r.times))}; runs ${r.times.map(ms).join(', ')}`,
    `  - longest event-loop block per scrape: ${r.blocks.map(ms).join(', ')} (a 1 ms timer's longest gap; idle ≈ 1 ms); within each, the main thread on a CPU: ${r.blocksCpu.map(ms).join(', ')}; waiting for one: ${r.blocksWaited.map(ms).join(', ')}`,
    `  - first scrape after start (converts every distinct expiry date once): ${ms(r.first.ms)}, longest block ${ms(r.first.block)} (main thread on a CPU ${ms(r.first.blockCpu)}, waiting for one ${ms(r.first.blockWaited)})`,
    `  - bot CPU per scrape: ${ms(r.cpuPerScrape)} (/proc, 10 ms resolution, over ${SCRAPES} scrapes)`,
    `  - ack, commands during back-to-back scrapes: ${fmtSummary(summarize(r.during))}${r.missing.during > 0 ? `, ${r.missing.during} never acknowledged` : ''}; ${r.scrapesDuring.length} scrapes meanwhile, ${fmtSummary(summarize(r.scrapesDuring))}`,
    `  - ack, no scrape: ${fmtSummary(summarize(r.none))}${r.missing.none > 0 ? `, ${r.missing.none} never acknowledged` : ''}`,
    `  - windows in order: ${windows.join('; ')}`,
  ];
}

export const scrape: Metric = {
  name: 'scrape',
  title: 'Scrape of /metrics with many watched domains',
  async run(): Promise<MetricResult> {
    const results: SizeResult[] = [];
    for (const size of SIZES) results.push(await measureSize(size));
    return {
      rows: results.flatMap(rowsOf),
      details: [
        `The built bot on a SQLite store of its own seeded with the watched domains (expiry dates over ten years; one in 997 never checked, so no series), HTTP_PORT on, --inspect for the probe; ${WARM_SCRAPES} scrapes after start-up before the ${SCRAPES} timed ones, 100 ms apart; ack windows of /domain info at ${RATE}/s for ${WINDOW_S} s (API ${API_MS / 1000} s), alternating none / back-to-back scrapes, ${ROUNDS} rounds, samples pooled`,
        ...results.flatMap(detailsOf),
      ],
    };
  },
};
