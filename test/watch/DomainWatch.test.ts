// The watch run in-process: a real SQLite store, the real HostingClient against the fake API, and a
// recording BotMessages (the port the run posts through).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HostingClient } from '../../src/hosting/HostingClient.js';
import type { BotMessages, MessageBody } from '../../src/replies/ReplyBody.js';
import { openStore, type Store } from '../../src/store/index.js';
import { DomainWatch, type RunSummary, type WatchSettings } from '../../src/watch/DomainWatch.js';
import { captureLogs } from '../support/captureLogs.js';
import { FakeHostingApi, type ReceivedRequest, type Reply } from '../support/FakeHostingApi.js';

const CHANNEL = '400000000000000042';
const ROLE = '300000000000000077';
const USER = '100000000000000001';
const ZONE = 'Europe/Berlin';
/** 08:00 in Berlin. */
const NOW = new Date('2030-03-01T07:00:00.000Z');
const DAY = 86_400_000;

const tmp = mkdtempSync(join(tmpdir(), 'hostops-watch-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

class RecordingMessages implements BotMessages {
  readonly posts: { channelId: string; body: MessageBody }[] = [];
  readonly edits: { channelId: string; messageId: string; body: MessageBody }[] = [];
  async post(channelId: string, body: MessageBody): Promise<string> {
    this.posts.push({ channelId, body: structuredClone(body) });
    return `5000000000000000${String(this.posts.length).padStart(2, '0')}`;
  }
  async edit(channelId: string, messageId: string, body: MessageBody): Promise<void> {
    this.edits.push({ channelId, messageId, body });
  }
  lines(): string[] {
    return this.posts.flatMap((p) => (p.body.embeds ?? []).flatMap((e) => (e.description ?? '').split('\n')));
  }
}

/** What the fake API answers per domain; the responder counts lookups in flight. */
type Answer =
  | { expiry: string | null; active?: boolean; expired?: boolean; transferredAway?: boolean }
  | Reply;

let api: FakeHostingApi;
let logs: ReturnType<typeof captureLogs>;
let answers: Map<string, Answer>;
/** Answers ahead of `answers`, when it returns one. */
let intercept: ((domain: string) => Reply | undefined) | undefined;
let inFlight = 0;
let peak = 0;
/** Time each lookup spends "at the provider". */
let apiMs = 5;
const clients: HostingClient[] = [];
const stores: Store[] = [];

beforeAll(async () => {
  api = await FakeHostingApi.start();
});
afterAll(async () => {
  await api.stop();
});

beforeEach(() => {
  logs = captureLogs();
  answers = new Map();
  intercept = undefined;
  inFlight = 0;
  peak = 0;
  apiMs = 5;
  api.respond('domainInfo', async (request: ReceivedRequest) => {
    inFlight++;
    peak = Math.max(peak, inFlight);
    try {
      await sleep(apiMs);
      const answer = intercept?.(request.param ?? '') ?? answers.get(request.param ?? '');
      if (answer === undefined) return { status: 404, body: { error: 'domain not found' } };
      if (!('expiry' in answer)) return answer;
      return {
        body: {
          expirydate: answer.expiry ?? '',
          active: String(answer.active ?? true),
          expired: String(answer.expired ?? false),
          transferredAway: String(answer.transferredAway ?? false),
        },
      };
    } finally {
      inFlight--;
    }
  });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(stores.splice(0).map((s) => s.close()));
  api.reset();
});

let dbs = 0;
const freshUrl = () => `sqlite:${join(tmp, `watch-${++dbs}.db`)}`;

async function open(url: string): Promise<Store> {
  const store = await openStore(url);
  stores.push(store);
  return store;
}

function hosting(maxConnections = 10): HostingClient {
  const client = new HostingClient({
    baseUrl: api.url,
    token: api.token,
    timeoutMs: 10_000,
    timeZone: ZONE,
    logger: logs.logger,
    maxConnections,
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
  });
  clients.push(client);
  return client;
}

const settings = (overrides: Partial<WatchSettings> = {}): WatchSettings => ({
  channelId: CHANNEL,
  leadDays: [30, 14, 7, 3, 1],
  mentionRoleIds: [ROLE],
  concurrency: 4,
  maxDomains: 10_000,
  timeZone: ZONE,
  locale: 'en',
  ...overrides,
});

interface Setup {
  store: Store;
  messages: RecordingMessages;
  watch: DomainWatch;
  clock: { now: Date };
}

async function setup(
  domains: string[],
  overrides: Partial<WatchSettings> = {},
  url = freshUrl(),
): Promise<Setup> {
  const store = await open(url);
  const messages = new RecordingMessages();
  const clock = { now: NOW };
  const watch = new DomainWatch(
    store,
    hosting(),
    messages,
    settings(overrides),
    logs.logger,
    undefined,
    () => clock.now,
  );
  await watch.add(
    domains.map((domain) => ({ domain, unicode: domain })),
    USER,
  );
  return { store, messages, watch, clock };
}

/** `YYYY-MM-DD`, `days` after NOW's date in Berlin. */
const inDays = (days: number) => new Date(NOW.getTime() + days * DAY).toISOString().slice(0, 10);

const byName = (lines: string[]) => lines.map((line) => /\*\*(.+?)\*\*/.exec(line)?.[1]);

describe('a watch run', () => {
  beforeEach(() => {
    answers.set('d2.example', { expiry: inDays(2) });
    answers.set('d10.example', { expiry: inDays(10) });
    answers.set('d20.example', { expiry: inDays(20) });
    answers.set('d60.example', { expiry: inDays(60) });
  });
  const DOMAINS = ['d2.example', 'd10.example', 'd20.example', 'd60.example'];

  it('posts one digest with the right thresholds, pinging the configured role only', async () => {
    const { watch, messages, store } = await setup(DOMAINS);
    const summary = await watch.run('schedule');
    expect(summary).toMatchObject({ checked: 4, failed: 0, messages: 1, outcome: 'ok' });
    expect(messages.posts).toHaveLength(1);
    const [post] = messages.posts;
    expect(post?.channelId).toBe(CHANNEL);
    expect(post?.body.content).toBe(`<@&${ROLE}>`);
    expect(post?.body.allowed_mentions).toEqual({ parse: [], roles: [ROLE] });
    expect(messages.lines()).toEqual([
      `⏰ **d2.example** expires in 2 days (${inDays(2)}; ≤ 3 days)`,
      `⏰ **d10.example** expires in 10 days (${inDays(10)}; ≤ 14 days)`,
      `⏰ **d20.example** expires in 20 days (${inDays(20)}; ≤ 30 days)`,
    ]);
    expect(messages.edits).toEqual([]);
    // What it saw is stored.
    const rows = (await store.watch.list({ limit: 10, offset: 0 })).rows;
    expect(rows.map((r) => [r.domain, r.status, r.expiryDate, r.active])).toEqual([
      ['d2.example', 'ok', inDays(2), true],
      ['d10.example', 'ok', inDays(10), true],
      ['d20.example', 'ok', inDays(20), true],
      ['d60.example', 'ok', inDays(60), true],
    ]);
    expect(rows.every((r) => r.checkedAt?.getTime() === NOW.getTime())).toBe(true);
  });

  it('a second run posts nothing; the next day posts only what is new', async () => {
    const { watch, messages, clock } = await setup(DOMAINS);
    await watch.run('schedule');
    const again = await watch.run('manual');
    expect(again).toMatchObject({ checked: 4, alerts: [], messages: 0, outcome: 'ok' });
    expect(messages.posts).toHaveLength(1);

    clock.now = new Date(NOW.getTime() + DAY);
    const tomorrow = await watch.run('schedule');
    expect(tomorrow.alerts.map((a) => a.kind === 'expiry' && [a.domain, a.daysLeft, a.threshold])).toEqual([
      ['d2.example', 1, 1],
    ]);
    expect(messages.posts).toHaveLength(2);
  });

  it('two overlapping runs post the alerts once in total', async () => {
    const { watch, messages } = await setup(DOMAINS);
    const runs = await Promise.all([watch.run('schedule'), watch.run('manual')]);
    expect(runs.flatMap((r) => r.alerts).map((a) => a.domain)).toEqual(
      expect.arrayContaining(['d2.example', 'd10.example', 'd20.example']),
    );
    expect(runs.flatMap((r) => r.alerts)).toHaveLength(3);
    expect(messages.posts.length).toBeGreaterThanOrEqual(1);
    expect(byName(messages.lines()).sort()).toEqual(['d10.example', 'd2.example', 'd20.example']);
    // And together with a later, third run, still nothing twice.
    await watch.run('manual');
    expect(messages.lines()).toHaveLength(3);
  });

  it('overlapping runs of two replicas (two watches, one store) post each alert once', async () => {
    const url = freshUrl();
    const one = await setup(DOMAINS, {}, url);
    const other = new DomainWatch(
      await open(url),
      hosting(),
      one.messages,
      settings(),
      logs.logger,
      undefined,
      () => NOW,
    );
    await Promise.all([one.watch.run('schedule'), other.run('schedule'), one.watch.run('manual')]);
    expect(byName(one.messages.lines()).sort()).toEqual(['d10.example', 'd2.example', 'd20.example']);
  });

  it('a new DomainWatch on the same store (a restart) posts nothing new', async () => {
    const url = freshUrl();
    const first = await setup(DOMAINS, {}, url);
    await first.watch.run('schedule');
    expect(first.messages.posts).toHaveLength(1);
    await first.store.close();
    stores.splice(stores.indexOf(first.store), 1);

    const messages = new RecordingMessages();
    const restarted = new DomainWatch(
      await open(url),
      hosting(),
      messages,
      settings(),
      logs.logger,
      undefined,
      () => NOW,
    );
    const summary = await restarted.run('schedule');
    expect(summary).toMatchObject({ checked: 4, alerts: [], messages: 0 });
    expect(messages.posts).toEqual([]);
  });

  it('a flag changed at the provider → one alert, once', async () => {
    const { watch, messages } = await setup(DOMAINS);
    await watch.run('schedule');
    answers.set('d60.example', { expiry: inDays(60), transferredAway: true });
    await watch.run('schedule');
    await watch.run('schedule');
    expect(messages.posts).toHaveLength(2);
    expect(messages.posts[1]?.body.embeds?.[0]?.description).toBe(
      '🚩 **d60.example** is now transferred away (was with us)',
    );
  });

  it('a domain the provider no longer knows → one alert, not one per run', async () => {
    const { watch, messages } = await setup(DOMAINS);
    await watch.run('schedule');
    answers.delete('d60.example');
    for (let n = 0; n < 3; n++) await watch.run('schedule');
    expect(messages.posts).toHaveLength(2);
    expect(messages.lines().at(-1)).toBe('❓ **d60.example** is no longer known to the provider (404)');
  });

  it('no role configured → nobody is pinged', async () => {
    const { watch, messages } = await setup(DOMAINS, { mentionRoleIds: [] });
    await watch.run('schedule');
    expect(messages.posts[0]?.body.content).toBeUndefined();
    expect(messages.posts[0]?.body.allowed_mentions).toEqual({ parse: [], roles: [] });
  });

  it('BOT_LOCALE=de → the digest is in German, with German dates', async () => {
    const { watch, messages } = await setup(DOMAINS, { locale: 'de' });
    await watch.run('schedule');
    const german = (iso: string) => iso.split('-').reverse().join('.');
    expect(messages.posts[0]?.body.embeds?.[0]?.title).toBe('Domain-Überwachung: 3 Warnungen');
    expect(messages.lines()).toEqual([
      `⏰ **d2.example** läuft in 2 Tagen ab (${german(inDays(2))}; ≤ 3 Tage)`,
      `⏰ **d10.example** läuft in 10 Tagen ab (${german(inDays(10))}; ≤ 14 Tage)`,
      `⏰ **d20.example** läuft in 20 Tagen ab (${german(inDays(20))}; ≤ 30 Tage)`,
    ]);
  });
});

describe('the provider under load', () => {
  it('honours 429 Retry-After (the client retries) and never exceeds the concurrency', async () => {
    const names = Array.from({ length: 24 }, (_, n) => `load-${String(n).padStart(2, '0')}.example`);
    for (const name of names) answers.set(name, { expiry: inDays(200) });
    answers.set('load-03.example', { expiry: inDays(5) });
    // The first lookup of load-03 is refused with Retry-After: 1 (second).
    let refused = false;
    intercept = (domain) => {
      if (domain !== 'load-03.example' || refused) return undefined;
      refused = true;
      return { status: 429, headers: { 'retry-after': '1' }, body: { error: 'slow down' } };
    };
    apiMs = 15;
    const { watch, messages } = await setup(names, { concurrency: 3 });
    const summary = await watch.run('schedule');

    expect(summary).toMatchObject({ checked: 24, failed: 0, outcome: 'ok', messages: 1 });
    expect(byName(messages.lines())).toEqual(['load-03.example']);
    const attempts = api.requestsFor('domainInfo').filter((r) => r.param === 'load-03.example');
    expect(attempts).toHaveLength(2);
    const [first, second] = attempts;
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(990);
    expect(peak).toBeLessThanOrEqual(3);
    expect(peak).toBe(3);
    expect(api.requestsFor('domainInfo')).toHaveLength(25);
  });

  it('the concurrency holds with a bigger list and a connection pool larger than it', async () => {
    const names = Array.from({ length: 60 }, (_, n) => `many-${n}.example`);
    for (const name of names) answers.set(name, { expiry: inDays(365) });
    const { watch } = await setup(names, { concurrency: 4 });
    const summary = await watch.run('schedule');
    expect(summary).toMatchObject({ checked: 60, failed: 0, alerts: [] });
    expect(peak).toBe(4);
  });

  it('overlapping runs and the look-up of new domains share WATCH_CONCURRENCY; the connection cap holds too', async () => {
    const names = Array.from({ length: 40 }, (_, n) => `overlap-${n}.example`);
    for (const name of names) answers.set(name, { expiry: inDays(365) });
    apiMs = 10;
    const { watch } = await setup(names, { concurrency: 2 });
    // One limit per process: a scheduled run, a manual one and /watch add's look-up never pass it together.
    await Promise.all([watch.run('schedule'), watch.run('manual'), watch.run('added', names.slice(0, 10))]);
    expect(peak).toBe(2);

    // HOSTING_API_MAX_CONNECTIONS (the client's pool) caps every run together.
    peak = 0;
    const store = await open(freshUrl());
    const capped = new DomainWatch(
      store,
      hosting(3),
      new RecordingMessages(),
      settings({ concurrency: 3 }),
      logs.logger,
      undefined,
      () => NOW,
    );
    await capped.add(
      names.map((domain) => ({ domain, unicode: domain })),
      USER,
    );
    await Promise.all([capped.run('schedule'), capped.run('manual'), capped.run('manual')]);
    expect(peak).toBe(3);
  });

  it('a failing domain alerts once, at the 3rd run in a row', async () => {
    answers.set('fine.example', { expiry: inDays(300) });
    answers.set('broken.example', { status: 503, body: { error: 'maintenance' } });
    const { watch, messages, store } = await setup(['fine.example', 'broken.example']);
    const summaries: RunSummary[] = [];
    for (let n = 0; n < 5; n++) summaries.push(await watch.run('schedule'));
    expect(summaries.map((s) => [s.outcome, s.failed, s.alerts.length])).toEqual([
      ['partial', 1, 0],
      ['partial', 1, 0],
      ['partial', 1, 1],
      ['partial', 1, 0],
      ['partial', 1, 0],
    ]);
    expect(messages.posts).toHaveLength(1);
    expect(messages.lines()).toEqual([
      '⚠️ **broken.example** could not be checked 3 runs in a row (upstream)',
    ]);
    // 503 is retried within each lookup: three attempts per run.
    expect(api.requestsFor('domainInfo').filter((r) => r.param === 'broken.example')).toHaveLength(15);
    const broken = (await store.watch.all()).find((r) => r.domain === 'broken.example');
    expect(broken).toMatchObject({ status: 'failed', failures: 5, expiryDate: null });

    // Back to normal, then failing again: the count started over.
    answers.set('broken.example', { expiry: inDays(300) });
    await watch.run('schedule');
    answers.set('broken.example', { status: 503, body: { error: 'maintenance' } });
    await watch.run('schedule');
    await watch.run('schedule');
    expect(messages.posts).toHaveLength(1);
    await watch.run('schedule');
    expect(messages.posts).toHaveLength(2);
  });

  it('a failing run keeps what was known about the domain', async () => {
    answers.set('known.example', { expiry: inDays(100), active: false });
    const { watch, store } = await setup(['known.example']);
    await watch.run('schedule');
    answers.set('known.example', { status: 502, body: 'bad gateway' });
    const summary = await watch.run('schedule');
    expect(summary).toMatchObject({ failed: 1, outcome: 'failed', alerts: [] });
    expect((await store.watch.all())[0]).toMatchObject({
      status: 'ok',
      failures: 1,
      expiryDate: inDays(100),
      active: false,
    });
  });
});
