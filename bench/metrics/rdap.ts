// The registry's word beside the provider's (issue 44): a watch run of BENCH_RDAP_DOMAINS watched domains
// (default 10,000) spread over 5 fake RDAP servers that answer in 50 ms and allow 10 requests a second
// each (429 with Retry-After beyond), HostOps at RDAP_MIN_INTERVAL_MS=100 and RDAP_MAX_PER_SERVER=2
// (what those limits allow). Rows: the run's time against the ideal those limits allow (N / (5 × 10/s)),
// the 429s received against the requests made, and the provider's side of the run against the same run
// with RDAP_CHECK=off. The real DomainWatch, HostingClient and RDAP client run in the bench process on
// real SQLite stores; the fake API and the fake registries run in a child process of their own (this
// file, started with --bench-rdap-fakes), so their clocks and limits are not bent by the watch's event
// loop, as real ones would not be. One domain in a hundred has a registry date a month off the provider's, so the
// registry's digest has lines.
import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { DateTime } from 'luxon';
import { HostingClient } from '../../src/hosting/HostingClient.js';
import { createLogger, type Logger } from '../../src/logger.js';
import { RdapClient } from '../../src/rdap/RdapClient.js';
import { RegistryCheck } from '../../src/rdap/RegistryCheck.js';
import type { BotMessages, MessageBody } from '../../src/replies/ReplyBody.js';
import { openStore, type Store } from '../../src/store/index.js';
import { DomainWatch, type RunSummary } from '../../src/watch/DomainWatch.js';
import { FakeHostingApi, type ReceivedRequest } from '../../test/support/FakeHostingApi.js';
import { bootstrapFile, domainObject, FakeRdapServer } from '../../test/support/FakeRdapServer.js';
import { LOG_LEVEL, TMP } from '../botSetup.js';
import { type Metric, type MetricResult, ratioRow } from '../report.js';
import { ms } from '../stats.js';

const DOMAINS = Number(process.env.BENCH_RDAP_DOMAINS ?? 10_000);
const SERVERS = 5;
const RDAP_MS = 50;
const PER_SECOND = 10;
const MIN_INTERVAL_MS = 1000 / PER_SECOND;
const MAX_PER_SERVER = 2;
const API_MS = 50;
const CONCURRENCY = 4;
const ZONE = 'Europe/Berlin';

const tldOf = (n: number) => `tld${n % SERVERS}`;
const nameOf = (n: number) => `rdap-${String(n).padStart(5, '0')}.${tldOf(n)}`;
const numberOf = (name: string) => Number(/^rdap-(\d+)\./.exec(name)?.[1] ?? Number.NaN);
/** Days from today to domain n's expiry at the provider: 60 to 459, past every lead threshold. */
const daysLeftOf = (n: number) => 60 + (n % 400);

class RecordingMessages implements BotMessages {
  readonly posts: { at: number; body: MessageBody }[] = [];
  async post(_channelId: string, body: MessageBody): Promise<string> {
    this.posts.push({ at: performance.now(), body });
    return String(this.posts.length);
  }
  async edit(): Promise<void> {}
}

interface FakeStats {
  lookups: number;
  /** Date.now() of the provider's last answer. */
  lastAnswerAt: number;
  /** Registry requests for domains, and those answered 429. */
  requests: number;
  tooMany: number;
  peaks: number[];
  /** The closest two starts at one registry, as it saw them (ms). */
  spacing: number;
}

interface Run {
  summary: RunSummary;
  /** From the start of the run to the provider's last answer. */
  providerMs: number;
  lookups: number;
  stats: FakeStats;
}

type FakesMessage =
  | { type: 'ready'; apiUrl: string; apiToken: string; bootstrapUrl: string }
  | { type: 'stats'; stats: FakeStats }
  | { type: 'done' };

const CHILD_FLAG = '--bench-rdap-fakes';

/** The fake API and the fake registries (the child's side). */
async function startFakes(todayIso: string) {
  const today = DateTime.fromISO(todayIso, { zone: ZONE });
  const expiryOf = (n: number) => today.plus({ days: daysLeftOf(n) });
  const api = await FakeHostingApi.start();
  let lookups = 0;
  let lastAnswerAt = 0;
  api.respond('domainInfo', async (request: ReceivedRequest) => {
    lookups++;
    await sleep(API_MS);
    api.requests.length = 0;
    lastAnswerAt = Date.now();
    const n = numberOf(request.param ?? '');
    return {
      body: {
        expirydate: expiryOf(n).toISODate(),
        active: 'true',
        expired: 'false',
        transferredAway: 'false',
      },
    };
  });
  const registries = await Promise.all(Array.from({ length: SERVERS }, () => FakeRdapServer.start()));
  for (const registry of registries) {
    registry.perSecond = PER_SECOND;
    registry.delayMs = RDAP_MS;
    registry.responder = (path) => {
      if (path === '/dns.json') {
        return { body: bootstrapFile(registries.map((r, i) => [[tldOf(i)], [r.base]])), delayMs: 0 };
      }
      const name = /\/domain\/([^/]+)$/.exec(path)?.[1] ?? '';
      const n = numberOf(name);
      // One in a hundred a month off at the registry.
      const expires = expiryOf(n)
        .plus({ days: n % 100 === 7 ? -30 : 0 })
        .set({ hour: 12 });
      return { body: domainObject(name, { expires: expires.toUTC().toISO() ?? '' }) };
    };
  }
  const bootstrapUrl = `${registries[0]?.origin}/dns.json`;
  const responders = registries.map((r) => r.responder);
  /** Counters back to zero, the limits and answers as they were. */
  const prime = () =>
    registries.forEach((r, i) => {
      r.reset();
      r.perSecond = PER_SECOND;
      r.delayMs = RDAP_MS;
      r.responder = responders[i];
    });

  const stats = (): FakeStats => ({
    lookups,
    lastAnswerAt,
    requests: registries.reduce((sum, r) => sum + r.paths.filter((p) => p.includes('/domain/')).length, 0),
    tooMany: registries.reduce((sum, r) => sum + r.tooMany, 0),
    peaks: registries.map((r) => r.peak),
    spacing: Math.min(...registries.map((r) => r.minSpacing())),
  });
  const reset = () => {
    lookups = 0;
    prime();
  };
  const stop = () => Promise.all([api.stop(), ...registries.map((r) => r.stop())]);
  return { api, bootstrapUrl, stats, reset, stop };
}

/** Child side: serve, answer the parent's questions, stop when told or when the parent goes. */
async function serveFakes(todayIso: string): Promise<void> {
  const fakes = await startFakes(todayIso);
  const send = (message: FakesMessage) => process.send?.(message);
  process.on('message', (message: { type: string }) => {
    if (message.type === 'stats') send({ type: 'stats', stats: fakes.stats() });
    if (message.type === 'reset') {
      fakes.reset();
      send({ type: 'done' });
    }
    if (message.type === 'stop') void fakes.stop().then(() => process.disconnect());
  });
  process.on('disconnect', () => void fakes.stop().finally(() => process.exit(0)));
  send({ type: 'ready', apiUrl: fakes.api.url, apiToken: fakes.api.token, bootstrapUrl: fakes.bootstrapUrl });
}

if (process.argv[2] === CHILD_FLAG) void serveFakes(process.argv[3] ?? '');

/** Parent side: the fakes in a child process (this file again, under the same loader), over IPC. */
async function forkFakes(todayIso: string) {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [CHILD_FLAG, todayIso], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = (type: FakesMessage['type']) =>
    new Promise<FakesMessage>((resolve, reject) => {
      const onMessage = (message: FakesMessage) => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message);
      };
      const onExit = (code: number | null) => reject(new Error(`the fakes' process exited (${code})`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const ready = await next('ready');
  if (ready.type !== 'ready') throw new Error('unexpected message');
  const ask = (type: 'reset' | 'stats') => {
    const answer = next(type === 'stats' ? 'stats' : 'done');
    child.send({ type });
    return answer;
  };
  return {
    apiUrl: ready.apiUrl,
    apiToken: ready.apiToken,
    bootstrapUrl: ready.bootstrapUrl,
    reset: async () => {
      await ask('reset');
    },
    stats: async (): Promise<FakeStats> => {
      const answer = await ask('stats');
      if (answer.type !== 'stats') throw new Error('unexpected message');
      return answer.stats;
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.send({ type: 'stop' });
      await Promise.race([exited, sleep(5_000).then(() => child.kill('SIGKILL'))]);
    },
  };
}

export const rdap: Metric = {
  name: 'rdap',
  title: 'Registry (RDAP) cross-check in the watch run',
  async run(): Promise<MetricResult> {
    const dir = join(TMP, 'rdap');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const discard = new Writable({ write: (_chunk, _encoding, callback) => callback() });
    const { logger } = createLogger({ level: LOG_LEVEL, destination: discard });
    const today = DateTime.now().setZone(ZONE).startOf('day');
    const loadBefore = loadavg()[0] ?? 0;
    const fakes = await forkFakes(today.toISODate() ?? '');
    const { bootstrapUrl } = fakes;

    const stores: Store[] = [];
    const closers: (() => Promise<unknown>)[] = [];
    const watchRun = async (label: string, withRegistry: boolean): Promise<Run> => {
      const store = await openStore(`sqlite:${join(dir, `${label}.db`)}`);
      stores.push(store);
      const hosting = new HostingClient({
        baseUrl: fakes.apiUrl,
        token: fakes.apiToken,
        timeoutMs: 15_000,
        timeZone: ZONE,
        logger,
        maxConnections: CONCURRENCY,
      });
      closers.push(() => hosting.close(true));
      const registry = withRegistry ? registryCheck(store, bootstrapUrl, logger) : undefined;
      if (registry) closers.push(() => registry.close());
      const messages = new RecordingMessages();
      const watch = new DomainWatch(
        store,
        hosting,
        messages,
        {
          channelId: '400000000000000098',
          leadDays: [30, 14, 7, 3, 1],
          mentionRoleIds: [],
          concurrency: CONCURRENCY,
          maxDomains: 100_000,
          timeZone: ZONE,
          locale: 'en',
        },
        logger,
        undefined,
        undefined,
        registry,
      );
      const names = Array.from({ length: DOMAINS }, (_, n) => ({ domain: nameOf(n), unicode: nameOf(n) }));
      await watch.add(names, '100000000000000001');
      // The bootstrap file first (it is cached from then on), and a warm connection to the API.
      await registry?.bootstrap.serversFor(nameOf(0));
      await hosting.getDomainInfo(nameOf(0));
      await fakes.reset();
      const started = Date.now();
      const summary = await watch.run('schedule');
      const stats = await fakes.stats();
      return { summary, providerMs: stats.lastAnswerAt - started, lookups: stats.lookups, stats };
    };

    try {
      const off = await watchRun('off', false);
      const offRequests = off.stats.requests;
      const on = await watchRun('on', true);
      const { requests, tooMany, peaks, spacing } = on.stats;
      const ideal = (DOMAINS / (SERVERS * PER_SECOND)) * 1000;
      const findings = on.summary.alerts.filter((a) => a.kind.startsWith('registry_')).length;
      const size = DOMAINS.toLocaleString('en-US');
      return {
        rows: [
          ratioRow(
            `RDAP: watch run of ${size} domains over ${SERVERS} registries (50 ms, ${PER_SECOND}/s each, 429 beyond)`,
            on.summary.durationMs,
            ideal,
            1.15,
            ms,
            `ideal ${size} / (${SERVERS} × ${PER_SECOND}/s)`,
          ),
          {
            metric: `RDAP: 429s received in that run`,
            hostops: `${tooMany}`,
            reference: `${requests} requests`,
            ratio: `${((tooMany / Math.max(1, requests)) * 100).toFixed(2)} %`,
            target: '≤ 1 %',
            met: tooMany <= requests * 0.01,
          },
          ratioRow(
            `RDAP: the provider's side of that run (${size} lookups, API ${API_MS} ms, concurrency ${CONCURRENCY})`,
            on.providerMs,
            off.providerMs,
            1.05,
            ms,
            'the same run with RDAP_CHECK=off',
          ),
        ],
        details: [
          `${size} watched domains (BENCH_RDAP_DOMAINS), ${DOMAINS / SERVERS} per registry; each of ${SERVERS} fake RDAP servers (plain http: the bootstrap URL is http) answers in ${RDAP_MS} ms and allows ${PER_SECOND} requests in any second, 429 with Retry-After: 1 beyond; HostOps at RDAP_MIN_INTERVAL_MS=${MIN_INTERVAL_MS}, RDAP_MAX_PER_SERVER=${MAX_PER_SERVER}`,
          `with the registry: run ${ms(on.summary.durationMs)} (outcome ${on.summary.outcome}) against the ideal ${ms(ideal)}; ${requests} registry requests, ${tooMany} answered 429; requests in flight per server at most ${peaks.join('/')}; closest two starts at one server ${spacing.toFixed(1)} ms apart (arrival at the fake); ${findings} registry findings (one domain in a hundred is a month off), ${on.summary.messages} digest messages`,
          `machine load (1-minute average, 2 cores shared): ${loadBefore.toFixed(1)} before the runs, ${(loadavg()[0] ?? 0).toFixed(1)} after`,
          `the provider's side: its last answer ${ms(on.providerMs)} after the start with the registry, ${ms(off.providerMs)} with RDAP_CHECK=off (${off.lookups} and ${on.lookups} lookups; ${offRequests} registry requests in the off run); the ideal ${ms((DOMAINS / CONCURRENCY) * API_MS)}`,
        ],
      };
    } finally {
      for (const close of closers) await close().catch(() => {});
      for (const store of stores) await store.close().catch(() => {});
      await fakes.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

function registryCheck(store: Store, bootstrapUrl: string, logger: Logger): RegistryCheck {
  const client = new RdapClient({
    maxPerServer: MAX_PER_SERVER,
    minIntervalMs: MIN_INTERVAL_MS,
    allowHttp: true,
  });
  return new RegistryCheck(store, client, bootstrapUrl, ZONE, logger);
}
