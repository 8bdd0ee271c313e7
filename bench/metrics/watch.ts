// 10. The domain watch run: 10,000 watched domains, an API that takes 50 ms per lookup, WATCH_CONCURRENCY=4
// → the run's time against the ideal 10,000 / 4 × 50 ms, the memory during the run, and the digest it
// sends. The real DomainWatch runs in the bench process on a real SQLite store (bench/.tmp/watch), with the
// real HostingClient (a pool of 4 connections, as HOSTING_API_MAX_CONNECTIONS would cap it) and a recording
// BotMessages in place of Discord. The fake API runs in a child process of its own (this file, started with
// --bench-watch-api), as the provider would: it does not share the watch's event loop or show in its memory.
// BENCH_WATCH_API=inprocess runs it in the bench process instead. Expiry dates are spread from 5 days past
// to 394 days ahead, so about one domain in eleven is at or below a lead threshold; one in a thousand is
// unknown to the API (404).
import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { DateTime } from 'luxon';
import { HostingClient } from '../../src/hosting/HostingClient.js';
import { createLogger } from '../../src/logger.js';
import type { BotMessages, MessageBody } from '../../src/replies/ReplyBody.js';
import { openStore } from '../../src/store/index.js';
import { DomainWatch } from '../../src/watch/DomainWatch.js';
import { FakeHostingApi, type ReceivedRequest } from '../../test/support/FakeHostingApi.js';
import { LOG_LEVEL, TMP } from '../botSetup.js';
import { type Metric, type MetricResult, ratioRow } from '../report.js';
import { mb, median, ms } from '../stats.js';

const DOMAINS = Number(process.env.BENCH_WATCH_DOMAINS ?? 10_000);
const IN_PROCESS = process.env.BENCH_WATCH_API === 'inprocess';
const CONCURRENCY = 4;
const API_MS = 50;
const ZONE = 'Europe/Berlin';
const LEAD_DAYS = [30, 14, 7, 3, 1];
const SAMPLE_MS = 100;
/** Sequential lookups that measure the API's own time (and warm the connection) before the run. */
const OWN_TIME_CALLS = 40;
const CHANNEL = '400000000000000099';
const ROLE = '300000000000000099';
const CHILD_FLAG = '--bench-watch-api';

/** Domain n: days left from -5 to 394, and every thousandth one unknown to the API. */
const daysLeftOf = (n: number) => (n % 400) - 5;
const unknown = (n: number) => n % 1000 === 999;
const nameOf = (n: number) => `watch-${String(n).padStart(5, '0')}.example.com`;

interface ApiStats {
  peak: number;
  lookups: number;
}

/** The fake API with a 50 ms responder that counts lookups in flight. */
async function startApi(today: string, domains: number) {
  const api = await FakeHostingApi.start();
  const expiryOf = new Map<string, string>();
  const day = DateTime.fromISO(today, { zone: ZONE });
  for (let n = 0; n < domains; n++) {
    if (!unknown(n)) expiryOf.set(nameOf(n), day.plus({ days: daysLeftOf(n) }).toISODate() ?? '');
  }
  const stats: ApiStats = { peak: 0, lookups: 0 };
  let inFlight = 0;
  api.respond('domainInfo', async (request: ReceivedRequest) => {
    inFlight++;
    stats.lookups++;
    stats.peak = Math.max(stats.peak, inFlight);
    // The delay lives in the responder so lookups in flight are counted exactly.
    await sleep(API_MS);
    inFlight--;
    // The fake keeps every request it saw; nothing here needs them.
    api.requests.length = 0;
    const expirydate = expiryOf.get(request.param ?? '');
    if (expirydate === undefined) return { status: 404, body: { error: 'domain not found' } };
    return {
      body: {
        expirydate,
        active: 'true',
        expired: String(expirydate < today),
        transferredAway: 'false',
      },
    };
  });
  return {
    url: api.url,
    token: api.token,
    stats: async (): Promise<ApiStats> => ({ ...stats }),
    reset: async () => {
      stats.peak = 0;
      stats.lookups = 0;
    },
    stop: () => api.stop(),
  };
}

type Api = Awaited<ReturnType<typeof startApi>>;

type ChildMessage =
  | { type: 'ready'; url: string; token: string }
  | { type: 'stats'; stats: ApiStats }
  | { type: 'done' };

/** The fake API in a child process (this file again, under the same loader), driven over IPC. */
async function forkApi(today: string, domains: number): Promise<Api> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [CHILD_FLAG, today, String(domains)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = (type: ChildMessage['type']) =>
    new Promise<ChildMessage>((resolve, reject) => {
      const onMessage = (message: ChildMessage) => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message);
      };
      const onExit = (code: number | null) => reject(new Error(`the fake API process exited (${code})`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const ready = await next('ready');
  if (ready.type !== 'ready') throw new Error('unexpected message');
  const ask = async (type: 'stats' | 'reset'): Promise<ChildMessage> => {
    const answer = next(type === 'stats' ? 'stats' : 'done');
    child.send({ type });
    return answer;
  };
  return {
    url: ready.url,
    token: ready.token,
    stats: async () => {
      const answer = await ask('stats');
      return answer.type === 'stats' ? answer.stats : { peak: Number.NaN, lookups: Number.NaN };
    },
    reset: async () => {
      await ask('reset');
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.send({ type: 'stop' });
      await Promise.race([exited, sleep(5_000).then(() => child.kill('SIGKILL'))]);
    },
  };
}

/** Child side: serve, answer the parent's questions, stop when told. */
async function serveApi(today: string, domains: number): Promise<void> {
  const api = await startApi(today, domains);
  const send = (message: ChildMessage) => process.send?.(message);
  process.on('message', (message: { type: string }) => {
    if (message.type === 'stats') void api.stats().then((stats) => send({ type: 'stats', stats }));
    if (message.type === 'reset') void api.reset().then(() => send({ type: 'done' }));
    if (message.type === 'stop') void api.stop().then(() => process.disconnect());
  });
  // Ends with the parent, whatever happens to it.
  process.on('disconnect', () => void api.stop().finally(() => process.exit(0)));
  send({ type: 'ready', url: api.url, token: api.token });
}

if (process.argv[2] === CHILD_FLAG) {
  void serveApi(process.argv[3] ?? '', Number(process.argv[4]));
}

class RecordingMessages implements BotMessages {
  readonly bodies: MessageBody[] = [];
  async post(_channelId: string, body: MessageBody): Promise<string> {
    this.bodies.push(body);
    return String(this.bodies.length);
  }
  async edit(): Promise<void> {}
}

interface Sample {
  rss: number;
  heapUsed: number;
}

const pct = (value: number, reference: number) => `${((value / reference - 1) * 100).toFixed(1)} %`;

export const watch: Metric = {
  name: 'watch',
  title: 'Domain watch run',
  async run(): Promise<MetricResult> {
    const dir = join(TMP, 'watch');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const discard = new Writable({ write: (_chunk, _encoding, callback) => callback() });
    const { logger } = createLogger({ level: LOG_LEVEL, destination: discard });
    const today = DateTime.now().setZone(ZONE).toISODate() ?? '';
    const api = IN_PROCESS ? await startApi(today, DOMAINS) : await forkApi(today, DOMAINS);
    let store: Awaited<ReturnType<typeof openStore>> | undefined;
    let hosting: HostingClient | undefined;
    try {
      store = await openStore(`sqlite:${join(dir, 'watch.db')}`);
      hosting = new HostingClient({
        baseUrl: api.url,
        token: api.token,
        timeoutMs: 15_000,
        timeZone: ZONE,
        logger,
        maxConnections: CONCURRENCY,
      });
      const messages = new RecordingMessages();
      const domainWatch = new DomainWatch(
        store,
        hosting,
        messages,
        {
          channelId: CHANNEL,
          leadDays: LEAD_DAYS,
          mentionRoleIds: [ROLE],
          concurrency: CONCURRENCY,
          maxDomains: 100_000,
          timeZone: ZONE,
          locale: 'en',
        },
        logger,
      );
      const names = Array.from({ length: DOMAINS }, (_, n) => ({ domain: nameOf(n), unicode: nameOf(n) }));
      const added = await domainWatch.add(names, '100000000000000001');
      if (added.added.length !== DOMAINS) throw new Error(`only ${added.added.length} of ${DOMAINS} added`);

      // The API's own time through the same client, one call at a time (this also opens a connection).
      const own: number[] = [];
      for (let n = 0; n < OWN_TIME_CALLS; n++) {
        const t = performance.now();
        await hosting.getDomainInfo(nameOf(0));
        own.push(performance.now() - t);
      }
      await api.reset();

      const samples: Sample[] = [];
      const sample = () => {
        const { rss, heapUsed } = process.memoryUsage();
        samples.push({ rss, heapUsed });
      };
      sample();
      const baseline = samples[0] as Sample;
      const sampler = setInterval(sample, SAMPLE_MS);
      const cpu = process.cpuUsage();
      const summary = await domainWatch.run('schedule');
      const cpuMs = (({ user, system }) => (user + system) / 1000)(process.cpuUsage(cpu));
      clearInterval(sampler);
      sample();
      const { peak, lookups } = await api.stats();

      const during = samples.slice(1);
      const peakRss = Math.max(...during.map((s) => s.rss));
      const peakHeap = Math.max(...during.map((s) => s.heapUsed));
      const ideal = (DOMAINS / CONCURRENCY) * API_MS;
      const idealOwn = (DOMAINS / CONCURRENCY) * median(own);
      const count = <K>(keys: K[]) => {
        const counts = new Map<K, number>();
        for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
        return counts;
      };
      const byKind = count(summary.alerts.map((a) => a.kind));
      const byThreshold = count(summary.alerts.flatMap((a) => (a.kind === 'expiry' ? [a.threshold] : [])));
      const embeds = messages.bodies.map((b) => b.embeds?.length ?? 0);
      const chars = messages.bodies.map((b) =>
        (b.embeds ?? []).reduce((sum, e) => sum + (e.title?.length ?? 0) + (e.description?.length ?? 0), 0),
      );
      const lines = messages.bodies.reduce(
        (sum, b) => sum + (b.embeds ?? []).reduce((s, e) => s + (e.description ?? '').split('\n').length, 0),
        0,
      );
      const where = IN_PROCESS ? 'in the bench process' : 'in a child process';

      return {
        rows: [
          ratioRow(
            `Watch run, ${DOMAINS.toLocaleString('en-US')} domains (API ${API_MS} ms, concurrency ${CONCURRENCY})`,
            summary.durationMs,
            ideal,
            1.15,
            ms,
            `ideal ${DOMAINS}/${CONCURRENCY} × ${API_MS} ms`,
          ),
          {
            metric: 'Watch run: peak memory (sampled every 100 ms)',
            hostops: `RSS ${mb(peakRss)} · heap ${mb(peakHeap)}`,
            reference: `before the run: RSS ${mb(baseline.rss)} · heap ${mb(baseline.heapUsed)}`,
            ratio: `${peakRss >= baseline.rss ? '+' : ''}${mb(peakRss - baseline.rss)} RSS`,
            target: 'reported',
            met: null,
          },
          {
            metric: 'Watch run: digest',
            hostops: `${messages.bodies.length} messages`,
            reference: `${summary.alerts.length} alerts`,
            ratio: '',
            target: 'reported',
            met: null,
          },
        ],
        details: [
          `${DOMAINS.toLocaleString('en-US')} watched domains in a SQLite file; DomainWatch.run('schedule') in the bench process, HostingClient with ${CONCURRENCY} connections; the fake API ${where}, sleeping ${API_MS} ms in its responder`,
          `run: ${ms(summary.durationMs)} against the ideal ${ms(ideal)}: ${pct(summary.durationMs, ideal)} over; outcome ${summary.outcome}, checked ${summary.checked}, failed ${summary.failed}; CPU ${ms(cpuMs)} (${(cpuMs / DOMAINS).toFixed(2)} ms per domain)`,
          `API's own time (the client, sequential, ${OWN_TIME_CALLS} calls): median ${ms(median(own))}; the ideal with it is ${ms(idealOwn)}, which the run is ${pct(summary.durationMs, idealOwn)} over`,
          `lookups in flight at most ${peak} (limit ${CONCURRENCY}); lookups made ${lookups}; ${((summary.checked / summary.durationMs) * 1000).toFixed(1)} domains/s`,
          `memory (process.memoryUsage every ${SAMPLE_MS} ms, ${during.length} samples${IN_PROCESS ? ', fake API included' : ''}): before the run RSS ${mb(baseline.rss)}, heap ${mb(baseline.heapUsed)}; peak RSS ${mb(peakRss)}, heap ${mb(peakHeap)}; after RSS ${mb(samples.at(-1)?.rss ?? 0)}, heap ${mb(samples.at(-1)?.heapUsed ?? 0)}`,
          `alerts: ${summary.alerts.length} (${[...byKind].map(([k, v]) => `${k} ${v}`).join(', ')}; expiry by threshold: ${[
            ...byThreshold,
          ]
            .sort((a, b) => b[0] - a[0])
            .map(([t, v]) => `≤ ${t}: ${v}`)
            .join(', ')})`,
          `digest: ${messages.bodies.length} messages, ${lines} lines; embeds per message ${[...new Set(embeds)].join('/')}; embed characters per message max ${Math.max(0, ...chars)}, total ${chars.reduce((a, b) => a + b, 0)}`,
        ],
      };
    } finally {
      await hosting?.close(true);
      await store?.close();
      await api.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
