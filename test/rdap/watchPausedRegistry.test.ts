// Issue 48: a registry that asks us to wait a day (429, Retry-After: 86400) holds nothing but its own
// domains. The real watch on a real store (SQLite and PostgreSQL), the real HostingClient against the fake
// hosting API, the real RDAP client against two fake registries over HTTPS (a test CA in Node's trust
// store): the provider's digest and the other registry's finding go out, the run ends and writes its
// last_run, the domains it could not ask are said and asked by the next run, and scheduled ticks go on.
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { HostingClient } from '../../src/hosting/HostingClient.js';
import { translator } from '../../src/i18n/Translator.js';
import type { BotMessages, MessageBody } from '../../src/replies/ReplyBody.js';
import { createRegistryCheck } from '../../src/runtime/createRegistryCheck.js';
import { openStore, type Store } from '../../src/store/index.js';
import { DomainWatch, type RunSummary } from '../../src/watch/DomainWatch.js';
import { counted } from '../../src/watch/formatDate.js';
import { RunDeadline } from '../../src/watch/RegistryLanes.js';
import { WatchScheduler } from '../../src/watch/WatchScheduler.js';
import { captureLogs } from '../support/captureLogs.js';
import { FakeHostingApi } from '../support/FakeHostingApi.js';
import { bootstrapFile, domainObject, FakeRdapServer } from '../support/FakeRdapServer.js';
import { STORE_ENGINES } from '../support/storeEngines.js';
import { makeTestCa, type TestCa } from '../support/testCa.js';

const CHANNEL = '400000000000000042';
const USER = '100000000000000001';
const ZONE = 'Europe/Berlin';
const NOW = new Date('2030-03-01T07:00:00.000Z');
const en = translator('en');

class RecordingMessages implements BotMessages {
  readonly posts: MessageBody[] = [];
  async post(_channelId: string, body: MessageBody): Promise<string> {
    this.posts.push(structuredClone(body));
    return `50000000000000000${this.posts.length}`;
  }
  async edit(): Promise<void> {}
  text(index: number): string {
    const post = this.posts[index];
    return (post?.embeds ?? []).map((e) => `${e.title ?? ''}\n${e.description ?? ''}`).join('\n');
  }
}

let ca: TestCa;
let api: FakeHostingApi;
let alpha: FakeRdapServer;
let beta: FakeRdapServer;
const closing: { close(): Promise<unknown> }[] = [];

const PAUSED = { status: 429, headers: { 'retry-after': '86400' }, body: { errorCode: 429 } };
const BETA = ['one.beta', 'two.beta', 'three.beta'];

beforeAll(async () => {
  ca = makeTestCa();
  setDefaultCACertificates([...getCACertificates('default'), ca.caPem]);
  [api, alpha, beta] = await Promise.all([
    FakeHostingApi.start(),
    FakeRdapServer.start(ca),
    FakeRdapServer.start(ca),
  ]);
});
afterAll(async () => {
  await Promise.all([api?.stop(), alpha?.stop(), beta?.stop()]);
  ca?.dispose();
});
beforeEach(() => {
  api.respond('domainInfo', (request) => {
    // soon.alpha expires in 10 days: the provider's digest has an alert to post.
    const expiry = request.param === 'soon.alpha' ? '2030-03-11' : '2031-01-10';
    return { body: { expirydate: expiry, active: 'true', expired: 'false', transferredAway: 'false' } };
  });
  for (const server of [alpha, beta]) server.reset();
  alpha.responder = (path) =>
    path === '/dns.json'
      ? {
          body: bootstrapFile([
            [['alpha'], [alpha.base]],
            [['beta'], [beta.base]],
          ]),
        }
      : undefined;
  alpha.domains.set('soon.alpha', { body: domainObject('soon.alpha', { expires: '2030-03-11T12:00:00Z' }) });
  alpha.domains.set('moving.alpha', {
    body: domainObject('moving.alpha', { expires: '2031-01-10T12:00:00Z', status: ['pending transfer'] }),
  });
  // The registry for .beta asks every request to wait a day.
  beta.responder = (path) => (path.includes('/domain/') ? PAUSED : undefined);
});
afterEach(async () => {
  await Promise.all(closing.splice(0).map((c) => c.close()));
  api.reset();
});

function watchOn(store: Store, clock: { now: Date }, runs: RunSummary[] = []) {
  const config = parseConfig({
    DISCORD_TOKEN: 'x',
    DISCORD_GUILD_ID: '300000000000000001',
    HOSTING_API_URL: api.url,
    HOSTING_API_TOKEN: api.token,
    RDAP_BOOTSTRAP_URL: `${alpha.origin}/dns.json`,
    RDAP_MAX_PER_SERVER: '1',
    RDAP_MIN_INTERVAL_MS: '20',
    // The registry's day is taken as asked (the default cap is an hour).
    RDAP_MAX_RETRY_AFTER_S: '86400',
  });
  const logs = captureLogs();
  const registry = createRegistryCheck({ config, store, logger: logs.logger, now: () => clock.now });
  if (registry) closing.unshift(registry);
  const hosting = new HostingClient({
    baseUrl: api.url,
    token: api.token,
    timeoutMs: 10_000,
    timeZone: ZONE,
    logger: logs.logger,
    maxConnections: 4,
  });
  closing.unshift(hosting);
  const messages = new RecordingMessages();
  const watch = new DomainWatch(
    store,
    hosting,
    messages,
    {
      channelId: CHANNEL,
      leadDays: [30, 14, 7, 3, 1],
      mentionRoleIds: [],
      concurrency: 4,
      maxDomains: 1000,
      timeZone: ZONE,
      locale: 'en',
    },
    logs.logger,
    { watchRun: (summary) => runs.push(summary), watchAlerts: () => {} },
    () => clock.now,
    registry,
  );
  return { watch, messages, logs };
}

const domainRequests = (server: FakeRdapServer) => server.paths.filter((p) => p.includes('/domain/'));

describe.each(STORE_ENGINES)('a registry paused for a day ($engine)', ({ engine, freshUrl }) => {
  it('holds only its own domains: digest, the other registry’s finding and last_run go out; its domains are said and carried', {
    timeout: 60_000,
  }, async () => {
    const store = await openStore(await freshUrl(`paused-${engine}`));
    closing.push(store);
    const clock = { now: NOW };
    const { watch, messages, logs } = watchOn(store, clock);
    await watch.add(
      ['soon.alpha', 'moving.alpha', ...BETA].map((domain) => ({ domain, unicode: domain })),
      USER,
    );

    const run = await watch.run('schedule', { deadline: new RunDeadline(10 * 60_000) });
    // First the provider's digest, then the other registry's finding, then what could not be asked.
    expect(messages.posts).toHaveLength(3);
    expect(messages.text(0)).toContain('soon.alpha');
    expect(messages.text(0)).not.toContain('moving.alpha');
    expect(messages.text(1)).toContain(
      en('rdap.alert.transfer_pending', { name: '**moving.alpha**', statuses: 'pending transfer' }),
    );
    // Paused from 08:00 Berlin time for a day: until 08:00 the next day.
    expect(messages.text(2)).toContain(
      en('rdap.watch.paused', { ...counted(en, 3), tlds: '.beta', until: '2030-03-02 08:00' }),
    );
    expect(messages.posts[2]?.allowed_mentions).toEqual({ parse: [], roles: [] });
    expect(run.waits).toMatchObject([{ tlds: ['.beta'], count: 3 }]);
    expect(run.alerts.map((a) => `${a.kind} ${a.domain}`).sort()).toEqual([
      'expiry soon.alpha',
      'registry_transfer_pending moving.alpha',
    ]);
    // The registry was asked once (its 429), never again while it asks us to wait.
    expect(domainRequests(beta)).toHaveLength(1);
    expect(await watch.lastRun()).toMatchObject({ outcome: 'ok', checked: 5 });
    expect((await store.registry.get(BETA)).filter((r) => r.outcome === 'ok')).toEqual([]);

    // An hour later, the same process: the registry still asks us to wait; said again, still not asked.
    clock.now = new Date(NOW.getTime() + 3_600_000);
    messages.posts.length = 0;
    const later = await watch.run('schedule', { deadline: new RunDeadline(10 * 60_000) });
    expect(later.waits).toMatchObject([{ tlds: ['.beta'], count: 3 }]);
    expect(domainRequests(beta)).toHaveLength(1);
    // The finding was posted once.
    expect(later.alerts).toEqual([]);

    // A day later (a restarted process: the registry answers again): the carried domains are asked.
    beta.responder = undefined;
    for (const domain of BETA)
      beta.domains.set(domain, { body: domainObject(domain, { expires: '2031-01-10T12:00:00Z' }) });
    clock.now = new Date(NOW.getTime() + 25 * 3_600_000);
    const next = watchOn(store, clock);
    const third = await next.watch.run('schedule', { deadline: new RunDeadline(10 * 60_000) });
    expect(third.waits).toEqual([]);
    expect(domainRequests(beta).slice(1).sort()).toEqual(BETA.map((d) => `/rdap/domain/${d}`).sort());
    expect((await store.registry.get(BETA)).map((r) => r.outcome)).toEqual(['ok', 'ok', 'ok']);
    // Nothing about the registries' pause is reported as the provider's failure.
    expect(logs.lines.filter((l) => (JSON.parse(l) as { level: number }).level >= 50)).toEqual([]);
  });

  it('scheduled ticks go on while the registry asks us to wait', { timeout: 60_000 }, async () => {
    const store = await openStore(await freshUrl(`ticks-${engine}`));
    closing.push(store);
    const runs: RunSummary[] = [];
    const { watch } = watchOn(store, { now: NOW }, runs);
    await watch.add(
      ['moving.alpha', ...BETA].map((domain) => ({ domain, unicode: domain })),
      USER,
    );
    const scheduler = new WatchScheduler(
      watch,
      store,
      'replica-1',
      '* * * * * *',
      ZONE,
      captureLogs().logger,
    );
    try {
      await vi.waitFor(() => expect(runs.length).toBeGreaterThanOrEqual(3), {
        timeout: 45_000,
        interval: 100,
      });
    } finally {
      await scheduler.stop();
    }
    // Every run ended and said what it could not ask (on a busy machine, .alpha's turn may not come
    // within a one-second run either: then it is said too).
    for (const run of runs) expect(run.waits.map((w) => w.tlds)).toContainEqual(['.beta']);
    expect(await watch.lastRun()).toBeDefined();
  });

  it('a tick that fell between start-up and the start of the schedule runs at once', async () => {
    const store = await openStore(await freshUrl(`missed-${engine}`));
    closing.push(store);
    const runs: RunSummary[] = [];
    const { watch } = watchOn(store, { now: NOW }, runs);
    await watch.add([{ domain: 'moving.alpha', unicode: 'moving.alpha' }], USER);
    // Yearly: the next tick is months away, so a run can only be the one missed (1 January) since `since`.
    const year = new Date().getUTCFullYear();
    const since = new Date(Date.UTC(year - 1, 11, 31, 12));
    const scheduler = new WatchScheduler(
      watch,
      store,
      'replica-1',
      '0 0 1 1 *',
      ZONE,
      captureLogs().logger,
      since,
    );
    try {
      await vi.waitFor(() => expect(runs).toHaveLength(1), { timeout: 20_000, interval: 100 });
    } finally {
      await scheduler.stop();
    }
    // The tick claimed is the missed one (midnight of 1 January in the API's zone), so no other replica runs it again.
    expect(
      await store.claims.claimJobRun('watch', `${year - 1}-12-31T23:00:00`, 'replica-2', new Date()),
    ).toBe(false);
  });
});
