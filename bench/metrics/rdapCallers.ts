// Issue 48, the callers' side: the registry never holds the provider's answer. In this process, on real
// SQLite stores, with the real DomainWatch, HostingClient, RDAP client and /domain info's handler
// (commands/domain/infoAnswer.ts, without Discord: the time to the handler's first answer, which is what
// the reply's edit carries); the fake API and the fake registries run in this process too (their clocks
// share its event loop: figures are upper bounds).
// Rows: (1) a watch run of BENCH_RDAP_CALLERS_DOMAINS (10,000) over 5 registries, one answering every
// request 429 Retry-After: 86400 — the time to the provider's digest against the same run with all five
// answering; (2) that run's other four registries' findings complete against their ideal (N/5 domains at
// 10/s each); (3) /domain info, 200 sequential, API 50 ms, the registry unreachable or answering in 300 ms:
// time to the provider's answer against RDAP_CHECK=off, p50/p99; (4) a watch run at the default pace (1
// request/s per registry): time to the provider's digest against RDAP_CHECK=off.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { DateTime } from 'luxon';
import { infoAnswer } from '../../commands/domain/infoAnswer.js';
import { parseConfig } from '../../src/config.js';
import { HostingClient } from '../../src/hosting/HostingClient.js';
import { translator } from '../../src/i18n/Translator.js';
import { createLogger, type Logger } from '../../src/logger.js';
import { RdapClient } from '../../src/rdap/RdapClient.js';
import { RegistryCheck } from '../../src/rdap/RegistryCheck.js';
import type { BotMessages, MessageBody } from '../../src/replies/ReplyBody.js';
import { openStore, type Store } from '../../src/store/index.js';
import { parseDomain } from '../../src/validation/parseDomain.js';
import { DomainWatch } from '../../src/watch/DomainWatch.js';
import { RunDeadline } from '../../src/watch/RegistryLanes.js';
import { FakeHostingApi, type ReceivedRequest } from '../../test/support/FakeHostingApi.js';
import { bootstrapFile, domainObject, FakeRdapServer } from '../../test/support/FakeRdapServer.js';
import { LOG_LEVEL, TMP } from '../botSetup.js';
import { type Metric, type MetricResult, ratioRow } from '../report.js';
import { ms, percentile } from '../stats.js';

const DOMAINS = Number(process.env.BENCH_RDAP_CALLERS_DOMAINS ?? 10_000);
const SERVERS = 5;
const PER_SECOND = 10;
const API_MS = 50;
const CONCURRENCY = 4;
const INFOS = 200;
const ZONE = 'Europe/Berlin';

const tldOf = (n: number) => `tld${n % SERVERS}`;
const nameOf = (n: number) => `cb-${String(n).padStart(5, '0')}.${tldOf(n)}`;

class TimedMessages implements BotMessages {
  readonly at: number[] = [];
  async post(_channelId: string, _body: MessageBody): Promise<string> {
    this.at.push(performance.now());
    return String(this.at.length);
  }
  async edit(): Promise<void> {}
}

export const rdapCallers: Metric = {
  name: 'rdap-callers',
  title: "The registry never holds the provider's answer (issue 48)",
  async run(): Promise<MetricResult> {
    const dir = join(TMP, 'rdap-callers');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const discard = new Writable({ write: (_chunk, _encoding, callback) => callback() });
    const { logger } = createLogger({ level: LOG_LEVEL, destination: discard });
    const today = DateTime.now().setZone(ZONE).startOf('day');
    const api = await FakeHostingApi.start();
    api.respond('domainInfo', async (request: ReceivedRequest) => {
      await sleep(API_MS);
      api.requests.length = 0;
      const n = Number(/-(\d+)\./.exec(request.param ?? '')?.[1] ?? 0);
      // One domain in a hundred expires within 20 days: the provider's digest has lines.
      const days = n % 100 === 3 ? 20 : 200;
      return {
        body: {
          expirydate: today.plus({ days }).toISODate(),
          active: 'true',
          expired: 'false',
          transferredAway: 'false',
        },
      };
    });
    const registries = await Promise.all(Array.from({ length: SERVERS }, () => FakeRdapServer.start()));
    const answering = (registry: FakeRdapServer, i: number, delayMs = 50) => {
      registry.reset();
      registry.perSecond = PER_SECOND;
      registry.delayMs = delayMs;
      registry.responder = (path) => {
        if (path === '/dns.json') {
          return { body: bootstrapFile(registries.map((r, j) => [[tldOf(j)], [r.base]])), delayMs: 0 };
        }
        const name = /\/domain\/([^/]+)$/.exec(path)?.[1] ?? '';
        // One in fifty has a transfer pending at the registry: findings to post.
        const pending = Number(/-(\d+)\./.exec(name)?.[1] ?? 0) % 50 === i;
        return {
          body: domainObject(name, {
            expires: today.plus({ days: 200 }).set({ hour: 12 }).toUTC().toISO() ?? '',
            ...(pending ? { status: ['pending transfer'] } : {}),
          }),
        };
      };
    };
    const answerAll = (delayMs = 50) => {
      for (const [i, registry] of registries.entries()) answering(registry, i, delayMs);
    };
    const bootstrapUrl = `${registries[0]?.origin}/dns.json`;
    const closers: (() => Promise<unknown>)[] = [];
    let dbs = 0;

    const registryCheck = (store: Store, minIntervalMs: number, maxPerServer: number, url = bootstrapUrl) =>
      new RegistryCheck(
        store,
        new RdapClient({ maxPerServer, minIntervalMs, allowHttp: true }),
        url,
        ZONE,
        logger,
      );

    /** A watch run: ms to the provider's digest, and to the end of the run (its registries' findings). */
    const watchRun = async (
      registry: ((store: Store) => RegistryCheck) | undefined,
      endAtDigest: boolean,
    ) => {
      const store = await openStore(`sqlite:${join(dir, `run-${++dbs}.db`)}`);
      closers.push(() => store.close());
      const hosting = new HostingClient({
        baseUrl: api.url,
        token: api.token,
        timeoutMs: 15_000,
        timeZone: ZONE,
        logger,
        maxConnections: CONCURRENCY,
      });
      closers.push(() => hosting.close(true));
      const check = registry?.(store);
      if (check) closers.push(() => check.close());
      const messages = new TimedMessages();
      const watch = new DomainWatch(
        store,
        hosting,
        messages,
        {
          channelId: '400000000000000097',
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
        check,
      );
      await watch.add(
        Array.from({ length: DOMAINS }, (_, n) => ({ domain: nameOf(n), unicode: nameOf(n) })),
        '100000000000000001',
      );
      await check?.bootstrap.serversFor(nameOf(0));
      await hosting.getDomainInfo(nameOf(0));
      const deadline = new RunDeadline(23 * 3_600_000);
      const started = performance.now();
      const running = watch.run('schedule', { deadline });
      if (endAtDigest) {
        while (messages.at.length === 0) await sleep(20);
        deadline.end();
      }
      const summary = await running;
      return {
        digestMs: (messages.at[0] ?? Number.NaN) - started,
        endMs: performance.now() - started,
        summary,
      };
    };

    /** 200 sequential /domain info: ms to the provider's answer (the handler's first answer). */
    const infos = async (registry: ((store: Store) => RegistryCheck) | undefined, label: string) => {
      const store = await openStore(`sqlite:${join(dir, `info-${label}.db`)}`);
      closers.push(() => store.close());
      const hosting = new HostingClient({
        baseUrl: api.url,
        token: api.token,
        timeoutMs: 15_000,
        timeZone: ZONE,
        logger,
        maxConnections: 8,
      });
      closers.push(() => hosting.close(true));
      const check = registry?.(store);
      if (check) closers.push(() => check.close());
      const config = parseConfig({
        DISCORD_TOKEN: 'x',
        DISCORD_GUILD_ID: '300000000000000001',
        HOSTING_API_URL: api.url,
        HOSTING_API_TOKEN: api.token,
      });
      const context = {
        hosting,
        call: {},
        now: () => new Date(),
        config,
        t: translator('en'),
        registry: check,
        watch: undefined,
        store,
        logger: logger as Logger,
      };
      await hosting.getDomainInfo(nameOf(0));
      const samples: number[] = [];
      const tails: Promise<unknown>[] = [];
      for (let i = 0; i < INFOS; i++) {
        const started = performance.now();
        const answer = await infoAnswer(context, parseDomain(`info-${i}.${tldOf(i)}`));
        samples.push(performance.now() - started);
        if (answer.later) tails.push(answer.later);
      }
      // The registry's edits are not what is timed; they are let go (an unreachable one ends at its bound).
      check?.stop();
      await Promise.allSettled(tails);
      return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
    };

    try {
      // (1, 2) All five answering vs one paused for a day.
      answerAll();
      const allFive = await watchRun((store) => registryCheck(store, 1000 / PER_SECOND, 2), true);
      const tooManyAllFive = registries.map((r) => r.tooMany);
      answerAll();
      const paused = registries[SERVERS - 1] as FakeRdapServer;
      const pausedResponder = paused.responder;
      paused.responder = (path) =>
        path.includes('/domain/')
          ? { status: 429, headers: { 'retry-after': '86400' }, body: { errorCode: 429 } }
          : pausedResponder?.(path);
      const oneDown = await watchRun((store) => registryCheck(store, 1000 / PER_SECOND, 2), false);
      // 429s the four answering registries sent for arrivals past their 10/s (the paused one's are all 429).
      const tooManyOneDown = registries.slice(0, -1).map((r) => r.tooMany);
      const idealFour = (DOMAINS / SERVERS / PER_SECOND) * 1000;
      // (4) Default pace vs off.
      answerAll();
      const off = await watchRun(undefined, true);
      const defaultPace = await watchRun((store) => registryCheck(store, 1000, 1), true);
      // (3) /domain info: off, an unreachable registry (a black-holed address), one answering in 300 ms.
      const infoOff = await infos(undefined, 'off');
      answerAll(300);
      const slow = await infos((store) => registryCheck(store, 0, 4), 'slow');
      const blackhole = registries[1] as FakeRdapServer;
      blackhole.responder = (path) =>
        path === '/dns.json'
          ? { body: bootstrapFile(registries.map((_, j) => [[tldOf(j)], ['https://10.255.255.1/rdap/']])) }
          : undefined;
      const unreachable = await infos(
        (store) => registryCheck(store, 0, 4, `${blackhole.origin}/dns.json`),
        'unreachable',
      );
      const size = DOMAINS.toLocaleString('en-US');
      const infoRows = (label: string, on: { p50: number; p99: number }) => [
        ratioRow(
          `/domain info, ${label}: provider's answer p50`,
          on.p50,
          infoOff.p50,
          1.1,
          ms,
          'RDAP_CHECK=off',
        ),
        ratioRow(
          `/domain info, ${label}: provider's answer p99`,
          on.p99,
          infoOff.p99,
          1.5,
          ms,
          'RDAP_CHECK=off',
        ),
      ];
      return {
        rows: [
          ratioRow(
            `watch run of ${size} over ${SERVERS} registries, one 429 Retry-After 86400: time to the provider's digest`,
            oneDown.digestMs,
            allFive.digestMs,
            1.05,
            ms,
            'all five answering',
          ),
          ratioRow(
            'same run: the other four registries’ findings complete',
            oneDown.endMs,
            idealFour,
            1.15,
            ms,
            `ideal ${size}/${SERVERS} at ${PER_SECOND}/s`,
          ),
          ...infoRows('registry unreachable', unreachable),
          ...infoRows('registry answering in 300 ms', slow),
          ratioRow(
            `watch run of ${size} at the default pace (1/s per registry): time to the provider's digest`,
            defaultPace.digestMs,
            off.digestMs,
            1.05,
            ms,
            'RDAP_CHECK=off',
          ),
        ],
        details: [
          `fakes in this process (API ${API_MS} ms, registries 50 ms and ${PER_SECOND}/s each, 429 beyond); HostOps at RDAP_MIN_INTERVAL_MS=${1000 / PER_SECOND}, RDAP_MAX_PER_SERVER=2 for rows 1-2, the defaults (1000 ms, 1) for the last`,
          `429s for arrivals past ${PER_SECOND}/s, per registry: all five answering (until the digest) ${tooManyAllFive.join(', ')}; one paused, the other four (whole run) ${tooManyOneDown.join(', ')}`,
          `one registry paused: run ended after ${ms(oneDown.endMs)}, ${oneDown.summary.alerts.length} alerts, waiting: ${oneDown.summary.waits.map((w) => `${w.tlds.join(',')} ${w.count}${w.until ? ' (paused)' : ''}`).join('; ') || 'none'}`,
          `/domain info p50/p99: off ${ms(infoOff.p50)}/${ms(infoOff.p99)}, unreachable ${ms(unreachable.p50)}/${ms(unreachable.p99)}, 300 ms ${ms(slow.p50)}/${ms(slow.p99)}`,
        ],
      };
    } finally {
      for (const close of closers.reverse()) await close().catch(() => {});
      await Promise.all([api.stop(), ...registries.map((r) => r.stop())]);
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
