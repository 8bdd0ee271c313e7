// 15. The operator pages and the calendar at 100,000 watched domains, every one failing (issue 40): the
// built bot on a SQLite store seeded with that many failing domains (a provider outage: every domain has a
// failure series), HTTP_PORT and the calendar's own listener on, started under --inspect. The longest
// event-loop block (bench/eventLoopProbe.ts, a 1 ms timer in the bot) during a scrape rendered after a change of the watch
// data, the time of a scrape with nothing changed, and the calendar: its URL rendered after a change (time
// to the file's last byte, longest block), a poll with nothing new (304), and /watch calendar (too large
// for Discord at this size: the time to that answer and its longest block). A change is what any
// process's change of the watch list does: a new change stamp in the store (written here, as a console's
// /watch add on the same store would).
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Store } from '../../src/store/index.js';
import { freePort } from '../../test/support/freePort.js';
import { ROLES } from '../botSetup.js';
import { Cdp } from '../cdp.js';
import { waitUntil, warmUp } from '../dispatch.js';
import { PROBE, type ProbeReading, within } from '../eventLoopProbe.js';
import { withBot } from '../launch.js';
import type { Metric, MetricResult, Row } from '../report.js';
import { fmtSummary, mb, median, ms, summarize } from '../stats.js';
import { forkScraper, seedStore } from './scrape.js';

const DOMAINS = 100_000;
const CHANGED_RENDERS = 5;
const UNCHANGED_SCRAPES = 10;
const BLOCK_TARGET_MS = 20;
const UNCHANGED_TARGET_MS = 5;
const TOKEN = 'bench_0123456789abcdef0123456789abcdef';

interface Timed {
  ms: number;
  bytes: number;
  status: number;
  block: ProbeReading;
}

interface Result {
  changed: Timed[];
  unchanged: Timed[];
  /** The same scraper reading as many bytes from a node:http server that only writes them (median). */
  floor: number;
  calendar: Timed;
  notModified: { ms: number; status: number };
  command: { ms: number; block: ProbeReading };
  /** Heap used after a forced full GC at the end: what the live data at this size holds. */
  heapAfterGc: number;
}

async function measure(): Promise<Result> {
  const seeded = await seedStore(DOMAINS, true);
  const [httpPort, calendarPort] = [await freePort(), await freePort()];
  const scrapeUrl = `http://127.0.0.1:${httpPort}/metrics`;
  const calendarUrl = `http://127.0.0.1:${calendarPort}/calendar/${TOKEN}.ics`;
  const scraper = await forkScraper();
  const { openStore } = await import('../../src/store/index.js');
  let store: Store | undefined;
  try {
    return await withBot(
      'hostops',
      {},
      {
        inspect: true,
        env: {
          DATABASE_URL: seeded.url,
          HTTP_PORT: String(httpPort),
          WATCH_MAX_DOMAINS: '100000',
          CALENDAR_TOKEN: TOKEN,
          CALENDAR_PORT: String(calendarPort),
        },
      },
      async ({ stage, bot, tracker }) => {
        store = await openStore(seeded.url);
        const changeStamp = async () => {
          await store?.settings.put('watch.changed', randomUUID(), new Date());
          await sleep(100);
        };
        const cdp = await Cdp.connect(await bot.inspectorUrl());
        try {
          await warmUp(stage, tracker, 20);
          const probe = () => cdp.evaluate<ProbeReading>(PROBE);
          const timed = async (url: string): Promise<Timed> => {
            await probe();
            const got = await scraper.scrape(url);
            if (got.status !== 200) throw new Error(`GET ${url} answered ${got.status}`);
            await sleep(20);
            return { ...got, block: await probe() };
          };
          // The first after start converts every distinct expiry date once: not counted.
          await timed(scrapeUrl);
          const changed: Timed[] = [];
          for (let n = 0; n < CHANGED_RENDERS; n++) {
            await changeStamp();
            changed.push(await timed(scrapeUrl));
          }
          const unchanged: Timed[] = [];
          for (let n = 0; n < UNCHANGED_SCRAPES; n++) {
            await sleep(100);
            unchanged.push(await timed(scrapeUrl));
          }
          const floor = await sendingFloor(unchanged[0]?.bytes ?? 0, (url) => scraper.scrape(url));

          await changeStamp();
          const calendar = await timed(calendarUrl);
          const etag = await etagOf(calendarUrl);
          const pollStarted = performance.now();
          const poll = await fetch(calendarUrl, { headers: { 'if-none-match': etag } });
          await poll.arrayBuffer();
          const notModified = { ms: performance.now() - pollStarted, status: poll.status };

          await changeStamp();
          await probe();
          const interaction = stage.discord.dispatchInteraction({
            commandName: 'watch',
            subcommand: 'calendar',
            roles: [ROLES.viewer],
          });
          const sent = performance.now();
          await waitUntil(
            () => {
              tracker.scan();
              return tracker.finalAt(interaction) !== undefined;
            },
            120_000,
            '/watch calendar to answer',
          );
          const answered = (tracker.finalAt(interaction) ?? Number.NaN) - sent;
          await sleep(20);
          const commandBlock = await probe();
          const heapAfterGc = await cdp.heapUsedAfterGc();
          return {
            heapAfterGc,
            changed,
            unchanged,
            floor,
            calendar,
            notModified,
            command: { ms: answered, block: commandBlock },
          };
        } finally {
          cdp.close();
        }
      },
    );
  } finally {
    await store?.close();
    scraper.stop();
  }
}

/** The calendar's ETag, from a HEAD (which renders nothing). */
async function etagOf(url: string): Promise<string> {
  const head = await fetch(url, { method: 'HEAD' });
  await head.arrayBuffer();
  return head.headers.get('etag') ?? '';
}

const count = (n: number) => n.toLocaleString('en-US');

function rowsOf(r: Result): Row[] {
  const changedBlock = Math.max(...r.changed.map((t) => t.block.wall));
  const unchanged = median(r.unchanged.map((t) => t.ms));
  const calendarBlock = Math.max(r.calendar.block.wall, r.command.block.wall);
  const size = `${count(DOMAINS)} watched domains, every one failing`;
  return [
    {
      metric: `Scrape, ${size}: longest event-loop block (rendered after a change, max of ${CHANGED_RENDERS})`,
      hostops: ms(changedBlock),
      reference: `${ms(median(r.changed.map((t) => t.ms)))} per render (median)`,
      ratio: '—',
      target: `≤ ${BLOCK_TARGET_MS} ms`,
      met: changedBlock <= BLOCK_TARGET_MS,
    },
    {
      metric: `Scrape, ${size}, nothing changed since the last: time per scrape (median of ${UNCHANGED_SCRAPES})`,
      hostops: ms(unchanged),
      reference: `${ms(r.floor)} for a server that only sends the same ${count(r.unchanged[0]?.bytes ?? 0)} bytes`,
      ratio: '—',
      target: `≤ ${UNCHANGED_TARGET_MS} ms`,
      met: unchanged <= UNCHANGED_TARGET_MS,
    },
    {
      metric: `/watch calendar, ${count(DOMAINS)} watched domains: longest event-loop block (the URL rendered after a change; the command)`,
      hostops: ms(calendarBlock),
      reference: `URL ${ms(r.calendar.block.wall)}, command ${ms(r.command.block.wall)}`,
      ratio: '—',
      target: `≤ ${BLOCK_TARGET_MS} ms`,
      met: calendarBlock <= BLOCK_TARGET_MS,
    },
    {
      metric: `/watch calendar, ${count(DOMAINS)} watched domains: time to the file (the URL, after a change: last byte)`,
      hostops: ms(r.calendar.ms),
      reference: `${(r.calendar.bytes / 1e6).toFixed(1)} MB; /watch calendar says "too large for Discord" in ${ms(r.command.ms)}; unchanged poll ${r.notModified.status} in ${ms(r.notModified.ms)}`,
      ratio: '—',
      target: 'report',
      met: null,
    },
  ];
}

/**
 * What reading `bytes` costs the scraper alone: a node:http server in this process answering with that
 * many bytes in one write, scraped UNCHANGED_SCRAPES times as HostOps was (median).
 */
async function sendingFloor(
  bytes: number,
  scrape: (url: string) => Promise<{ ms: number; status: number }>,
): Promise<number> {
  const body = randomBytes(bytes);
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-length': body.length, 'content-encoding': 'gzip' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const times: number[] = [];
    for (let n = 0; n < UNCHANGED_SCRAPES; n++) {
      await sleep(100);
      times.push((await scrape(`http://127.0.0.1:${port}/metrics`)).ms);
    }
    return median(times);
  } finally {
    server.close();
  }
}

export const operatorPages: Metric = {
  name: 'operator',
  title: 'Operator pages and calendar at 100,000 failing watched domains',
  async run(): Promise<MetricResult> {
    const r = await measure();
    return {
      rows: rowsOf(r),
      details: [
        `The built bot on a SQLite store of its own seeded with ${count(DOMAINS)} watched domains, every one failing (3 failures in a row; expiry dates over ten years, one in 997 unknown), HTTP_PORT and CALENDAR_PORT on, --inspect for the probe (bench/eventLoopProbe.ts: a 1 ms timer in the bot); a change = a new change stamp of the watch data in the store; scrapes and the calendar read by a child process`,
        `- scrapes rendered after a change: ${fmtSummary(summarize(r.changed.map((t) => t.ms)))}; longest blocks ${r.changed.map((t) => `${ms(t.block.wall)} (${within(t.block)})`).join(', ')}; ${count(r.changed[0]?.bytes ?? 0)} bytes`,
        `- scrapes with nothing changed: ${fmtSummary(summarize(r.unchanged.map((t) => t.ms)))}; longest blocks ${r.unchanged.map((t) => ms(t.block.wall)).join(', ')}`,
        `- calendar URL after a change: ${ms(r.calendar.ms)} to the last byte, ${count(r.calendar.bytes)} bytes, longest block ${ms(r.calendar.block.wall)} (${within(r.calendar.block)}); a poll with its ETag: ${r.notModified.status} in ${ms(r.notModified.ms)}`,
        `- /watch calendar after a change (too large for Discord, said from the size the file is at least): answered in ${ms(r.command.ms)}, longest block ${ms(r.command.block.wall)} (${within(r.command.block)})`,
        `- heap used after a forced full GC at the end (the live data at this size): ${mb(r.heapAfterGc)}`,
      ],
    };
  },
};
