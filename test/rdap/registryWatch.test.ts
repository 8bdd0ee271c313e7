// The watch with the registry's word beside the provider's: a real SQLite store, the real HostingClient
// against the fake hosting API, the real RDAP client against three fake registries over HTTPS (a test CA in
// Node's trust store), and the provider and the registries disagreeing in every way issue 44 names.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { registryBeside } from '../../commands/domain/registryBeside.js';
import { parseConfig } from '../../src/config.js';
import { encodeDnsRecords } from '../../src/hosting/dnsRecords.js';
import { HostingClient } from '../../src/hosting/HostingClient.js';
import { translator } from '../../src/i18n/Translator.js';
import { Metrics } from '../../src/observability/Metrics.js';
import type { RegistryCheck } from '../../src/rdap/RegistryCheck.js';
import type { BotMessages, MessageBody } from '../../src/replies/ReplyBody.js';
import { createRegistryCheck } from '../../src/runtime/createRegistryCheck.js';
import { openStore, type Store } from '../../src/store/index.js';
import { DomainWatch, type WatchObserver } from '../../src/watch/DomainWatch.js';
import { alertLine } from '../../src/watch/renderDigest.js';
import { captureLogs } from '../support/captureLogs.js';
import { FakeHostingApi } from '../support/FakeHostingApi.js';
import { bootstrapFile, domainObject, FakeRdapServer } from '../support/FakeRdapServer.js';
import { newChange } from '../support/storeEngines.js';
import { makeTestCa, type TestCa } from '../support/testCa.js';

const CHANNEL = '400000000000000042';
const USER = '100000000000000001';
const ZONE = 'Europe/Berlin';
const NOW = new Date('2030-03-01T07:00:00.000Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

class RecordingMessages implements BotMessages {
  readonly posts: MessageBody[] = [];
  async post(_channelId: string, body: MessageBody): Promise<string> {
    this.posts.push(structuredClone(body));
    return `50000000000000000${this.posts.length}`;
  }
  async edit(): Promise<void> {}
  lines(): string[] {
    return this.posts.flatMap((p) => (p.embeds ?? []).flatMap((e) => (e.description ?? '').split('\n')));
  }
}

let ca: TestCa;
let api: FakeHostingApi;
let alpha: FakeRdapServer;
let beta: FakeRdapServer;
let gamma: FakeRdapServer;
let tmp: string;
let provider: Map<string, string>;
const closing: { close(): Promise<unknown> }[] = [];

beforeAll(async () => {
  ca = makeTestCa();
  setDefaultCACertificates([...getCACertificates('default'), ca.caPem]);
  tmp = mkdtempSync(join(tmpdir(), 'hostops-rdap-watch-'));
  [api, alpha, beta, gamma] = await Promise.all([
    FakeHostingApi.start(),
    FakeRdapServer.start(ca),
    FakeRdapServer.start(ca),
    FakeRdapServer.start(ca),
  ]);
});
afterAll(async () => {
  await Promise.all([api?.stop(), alpha?.stop(), beta?.stop(), gamma?.stop()]);
  ca?.dispose();
  rmSync(tmp, { recursive: true, force: true });
});
beforeEach(() => {
  provider = new Map();
  api.respond('domainInfo', (request) => {
    const expiry = provider.get(request.param ?? '');
    if (expiry === undefined) return { status: 404, body: { error: 'not found' } };
    return { body: { expirydate: expiry, active: 'true', expired: 'false', transferredAway: 'false' } };
  });
  for (const server of [alpha, beta, gamma]) server.reset();
  // alpha also serves the bootstrap file; .zzz has no RDAP service.
  alpha.responder = (path) =>
    path === '/dns.json'
      ? {
          body: bootstrapFile([
            [['alpha'], [alpha.base]],
            [['beta'], [beta.base]],
            [['gamma'], [gamma.base]],
          ]),
        }
      : undefined;
});
afterEach(async () => {
  await Promise.all(closing.splice(0).map((c) => c.close()));
  api.reset();
});

let dbs = 0;
async function setup(env: Record<string, string> = {}, observer?: WatchObserver) {
  const config = parseConfig({
    DISCORD_TOKEN: 'x',
    DISCORD_GUILD_ID: '300000000000000001',
    HOSTING_API_URL: api.url,
    HOSTING_API_TOKEN: api.token,
    RDAP_BOOTSTRAP_URL: `${alpha.origin}/dns.json`,
    RDAP_MAX_PER_SERVER: '1',
    RDAP_MIN_INTERVAL_MS: '20',
    ...env,
  });
  const logs = captureLogs();
  const store = await openStore(`sqlite:${join(tmp, `rdap-${++dbs}.db`)}`);
  closing.push(store);
  const clock = { now: NOW };
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
    observer,
    () => clock.now,
    registry,
  );
  return { store, watch, messages, clock, registry, logger: logs.logger };
}

const requests = () => [...alpha.paths, ...beta.paths, ...gamma.paths];

const DOMAINS = [
  'same.alpha',
  'differ.alpha',
  'moving.alpha',
  'missing.alpha',
  'held.beta',
  'unlock.beta',
  'ns.gamma',
  'own.gamma',
  'broken.gamma',
  'none.zzz',
];

/** The registries' answers on the first day. */
function firstDay() {
  for (const domain of DOMAINS) provider.set(domain, '2031-01-10');
  // 23:30 UTC is the next day in Berlin: one calendar day apart is not a difference.
  alpha.domains.set('same.alpha', { body: domainObject('same.alpha', { expires: '2031-01-10T23:30:00Z' }) });
  alpha.domains.set('differ.alpha', {
    body: domainObject('differ.alpha', { expires: '2031-03-01T12:00:00Z' }),
  });
  alpha.domains.set('moving.alpha', {
    body: domainObject('moving.alpha', { expires: '2031-01-10T12:00:00Z', status: ['pending transfer'] }),
  });
  beta.domains.set('held.beta', {
    body: domainObject('held.beta', {
      expires: '2031-01-10T12:00:00Z',
      status: ['client hold', 'client transfer prohibited'],
    }),
  });
  beta.domains.set('unlock.beta', { body: domainObject('unlock.beta', { expires: '2031-01-10T12:00:00Z' }) });
  gamma.domains.set('ns.gamma', {
    body: domainObject('ns.gamma', {
      expires: '2031-01-10T12:00:00Z',
      nameservers: ['a.ns.example', 'b.ns.example'],
    }),
  });
  gamma.domains.set('own.gamma', {
    body: domainObject('own.gamma', {
      expires: '2031-01-10T12:00:00Z',
      nameservers: ['a.ns.example', 'b.ns.example'],
    }),
  });
  gamma.domains.set('broken.gamma', {
    body: '{"objectClassName":"domain","events":[{"eventAction":"expiration","eventDate":"soon"}]}',
  });
}

/** What changes at the registries by the second day. */
function secondDay() {
  beta.domains.set('unlock.beta', {
    body: domainObject('unlock.beta', { expires: '2031-01-10T12:00:00Z', status: ['active'] }),
  });
  gamma.domains.set('ns.gamma', {
    body: domainObject('ns.gamma', {
      expires: '2031-01-10T12:00:00Z',
      nameservers: ['c.ns.example', 'd.ns.example'],
    }),
  });
  gamma.domains.set('own.gamma', {
    body: domainObject('own.gamma', {
      expires: '2031-01-10T12:00:00Z',
      nameservers: ['x.ns.example', 'y.ns.example'],
    }),
  });
}

/** HostOps itself sent own.gamma's new nameservers (a DNS change whose set the DNS memory holds). */
async function sendOwnNameservers(store: Store, at: Date) {
  const change = newChange({ target: 'own.gamma', operation: 'submitDnsRecords', createdAt: at });
  await store.changes.insert(change);
  const records = encodeDnsRecords([
    { name: '@', type: 'NS', content: 'x.ns.example', ttl: 3600 },
    { name: '@', type: 'NS', content: 'y.ns.example', ttl: 3600 },
  ]);
  expect(
    await store.changes.transition(
      change.id,
      'pending',
      'sending',
      { sends: { domain: 'own.gamma', records } },
      { now: at },
    ),
  ).toBe(true);
  expect(await store.changes.transition(change.id, 'sending', 'done', {}, { now: at })).toBe(true);
}

describe('the registry check in the watch', () => {
  it('reports each finding once per change, in both languages, within every server limit', async () => {
    const { store, watch, messages, clock } = await setup();
    await watch.add(
      DOMAINS.map((domain) => ({ domain, unicode: domain })),
      USER,
    );
    firstDay();

    const first = await watch.run('schedule');
    expect(first.outcome).toBe('ok');
    expect(messages.lines().sort()).toEqual(
      [
        "📅 **differ.alpha**: the registry says it expires 2031-03-01, the provider 2031-01-10 (the provider's date is earlier)",
        '🚩 **moving.alpha**: a transfer is pending at the registry (pending transfer)',
        '🚩 **held.beta**: held or being deleted at the registry (client hold)',
        '⚠️ **broken.gamma**: registry answer unreadable (expiration date is not a date)',
      ].sort(),
    );
    const german = translator('de');
    expect(first.alerts.map((alert) => alertLine(alert, german)).sort()).toEqual(
      [
        '📅 **differ.alpha**: laut Registry läuft sie am 01.03.2031 ab, laut Provider am 10.01.2031 (das Datum des Providers ist früher)',
        '🚩 **moving.alpha**: bei der Registry ist ein Transfer im Gang (pending transfer)',
        '🚩 **held.beta**: bei der Registry gesperrt oder in Löschung (client hold)',
        '⚠️ **broken.gamma**: Antwort der Registry unlesbar (expiration date is not a date)',
      ].sort(),
    );
    // One bootstrap file and one request per domain with RDAP; .zzz has none, so nothing is asked for it.
    expect(alpha.paths.filter((p) => p === '/dns.json')).toHaveLength(1);
    expect(
      requests()
        .filter((p) => p.includes('/domain/'))
        .sort(),
    ).toEqual(
      DOMAINS.filter((d) => !d.endsWith('.zzz'))
        .map((d) => `/rdap/domain/${d}`)
        .sort(),
    );
    for (const server of [alpha, beta, gamma]) {
      expect(server.peak).toBe(1);
      expect(server.tooMany).toBe(0);
    }
    const stored = new Map((await store.registry.get(DOMAINS)).map((r) => [r.domain, r]));
    expect(stored.get('none.zzz')?.outcome).toBe('no_rdap');
    expect(stored.get('missing.alpha')?.outcome).toBe('not_found');
    expect(stored.get('same.alpha')).toMatchObject({
      outcome: 'ok',
      expiresAt: '2031-01-10T23:30:00.000Z',
      flags: [],
    });
    expect(stored.get('held.beta')?.flags).toEqual(['held']);
    expect((await store.registry.flagged()).map((f) => f.domain).sort()).toEqual([
      'broken.gamma',
      'differ.alpha',
      'held.beta',
      'moving.alpha',
    ]);

    // Later the same day: the registry is not asked again, and nothing is repeated.
    for (const server of [alpha, beta, gamma]) server.paths.length = 0;
    clock.now = new Date(NOW.getTime() + 2 * HOUR);
    messages.posts.length = 0;
    const again = await watch.run('schedule');
    expect(again.alerts).toEqual([]);
    expect(requests()).toEqual([]);

    // The next day: the transfer lock is gone, ns.gamma's nameservers changed, own.gamma's too — but
    // HostOps sent that change itself.
    secondDay();
    clock.now = new Date(NOW.getTime() + DAY);
    await sendOwnNameservers(store, new Date(NOW.getTime() + 12 * HOUR));
    const second = await watch.run('schedule');
    expect(messages.lines().sort()).toEqual(
      [
        '🚩 **unlock.beta**: the transfer lock is off at the registry (no client transfer prohibited any more)',
        '🚩 **ns.gamma**: nameservers changed at the registry: a.ns.example, b.ns.example → c.ns.example, d.ns.example',
      ].sort(),
    );
    expect(second.alerts.map((alert) => alertLine(alert, german)).sort()).toEqual(
      [
        '🚩 **unlock.beta**: die Transfersperre ist bei der Registry aufgehoben (kein client transfer prohibited mehr)',
        '🚩 **ns.gamma**: Nameserver bei der Registry geändert: a.ns.example, b.ns.example → c.ns.example, d.ns.example',
      ].sort(),
    );
    // Asked once more each (a day later), not repeated: each finding once per change.
    messages.posts.length = 0;
    clock.now = new Date(NOW.getTime() + 2 * DAY);
    const third = await watch.run('schedule');
    expect(third.alerts).toEqual([]);
    expect(messages.posts).toEqual([]);
    expect((await store.registry.get(['unlock.beta']))[0]?.flags).toEqual(['transfer_lock_off']);
  });

  it('asks at once for a newly added domain, whatever the schedule', async () => {
    const { watch, clock, messages } = await setup();
    provider.set('fresh.beta', '2031-01-10');
    beta.domains.set('fresh.beta', {
      body: domainObject('fresh.beta', { expires: '2031-01-10T12:00:00Z', status: ['redemption period'] }),
    });
    clock.now = new Date(NOW.getTime() + 5 * HOUR);
    await watch.add([{ domain: 'fresh.beta', unicode: 'fresh.beta' }], USER);
    const added = await watch.run('added', ['fresh.beta']);
    // The answer about the new domains does not wait for the registry; its finding follows in a digest.
    expect(added.alerts).toEqual([]);
    await watch.registrySettled();
    expect(beta.paths).toEqual(['/rdap/domain/fresh.beta']);
    expect(messages.lines()).toEqual([
      '🚩 **fresh.beta**: held or being deleted at the registry (redemption period)',
    ]);
  });

  it('sends nothing to any registry with RDAP_CHECK=off', async () => {
    const { watch, messages, registry } = await setup({ RDAP_CHECK: 'off' });
    expect(registry).toBeUndefined();
    firstDay();
    await watch.add(
      DOMAINS.map((domain) => ({ domain, unicode: domain })),
      USER,
    );
    const run = await watch.run('schedule');
    expect(run.checked).toBe(DOMAINS.length);
    expect(requests()).toEqual([]);
    expect(messages.posts).toEqual([]);
  });

  it('an unreachable bootstrap falls back to the copy held; a stored one is reused, refreshed daily', async () => {
    const { store, registry: check, clock } = await setup();
    const registry = check as RegistryCheck;
    expect(await registry.bootstrap.serversFor('x.beta')).toEqual([beta.base]);
    expect(alpha.paths).toEqual(['/dns.json']);
    expect(await store.settings.get('rdap.bootstrap')).toContain(beta.base);
    // The same day: from memory. A day later: fetched again — and when that fails, the stored copy stays.
    clock.now = new Date(NOW.getTime() + 3 * HOUR);
    await registry.bootstrap.serversFor('x.gamma');
    expect(alpha.paths).toEqual(['/dns.json']);
    alpha.responder = () => ({ status: 503 });
    clock.now = new Date(NOW.getTime() + DAY);
    // The copy held answers at once; the refresh runs beside it.
    expect(await registry.bootstrap.serversFor('x.gamma')).toEqual([gamma.base]);
    await registry.bootstrap.settled();
    expect(alpha.paths).toEqual(['/dns.json', '/dns.json']);
    expect(await registry.bootstrap.serversFor('x.gamma')).toEqual([gamma.base]);
  });

  it('starts from the shipped copy when neither the store nor the network has a bootstrap file', async () => {
    const { registry } = await setup({ RDAP_BOOTSTRAP_URL: 'https://127.0.0.1:1/dns.json' });
    expect(await registry?.bootstrap.serversFor('example.com')).toEqual([
      'https://rdap.verisign.com/com/v1/',
    ]);
    // Not named by the shipped copy: not known to have no RDAP, so nobody is told it has none.
    expect(await registry?.bootstrap.serversFor('example.zzz')).toBeUndefined();
    expect(await registry?.ask('example.zzz')).toEqual({ kind: 'failed', why: 'no_bootstrap' });
  });

  it('a registry that gave no answer is not asked again for that domain for 15 minutes: a command shows what is stored at once', async () => {
    const { registry: check, clock } = await setup();
    const registry = check as RegistryCheck;
    beta.domains.set('down.beta', { status: 503, body: { errorCode: 503 } });
    const entry = { domain: 'down.beta', unicode: 'down.beta', watched: false };
    const options = { maxAgeMs: DAY, urgent: true };
    const first = await registry.refresh(entry, '2031-01-10', options);
    expect(first.failed).toBeDefined();
    const asked = beta.paths.length;
    expect(asked).toBeGreaterThan(0);
    clock.now = new Date(NOW.getTime() + 14 * 60_000);
    expect((await registry.refresh(entry, '2031-01-10', options)).failed).toBe(first.failed);
    expect(beta.paths).toHaveLength(asked);
    // Past the pause, asked again; an answer ends the pause.
    beta.domains.set('down.beta', { body: domainObject('down.beta', { expires: '2031-01-10T12:00:00Z' }) });
    clock.now = new Date(NOW.getTime() + 16 * 60_000);
    const answered = await registry.refresh(entry, '2031-01-10', options);
    expect(answered.failed).toBeUndefined();
    expect(answered.record?.expiresAt).toBe('2031-01-10T12:00:00.000Z');
    expect(beta.paths.length).toBeGreaterThan(asked);
  });

  it("a finding a command's look-up makes is counted in hostops_watch_alerts_total like a run's (the alert rule reads it)", async () => {
    const metrics = new Metrics();
    const { store, watch, registry, clock, messages, logger } = await setup({}, metrics);
    provider.set('cmd.gamma', '2031-01-10');
    const answer = (nameservers: string[]) => ({
      body: domainObject('cmd.gamma', { expires: '2031-01-10T12:00:00Z', nameservers }),
    });
    gamma.domains.set('cmd.gamma', answer(['a.ns.example', 'b.ns.example']));
    await watch.add([{ domain: 'cmd.gamma', unicode: 'cmd.gamma' }], USER);
    await watch.run('added', ['cmd.gamma']);
    await watch.registrySettled();
    // A day later the nameservers changed; /domain info (not a run) is the one that finds it.
    gamma.domains.set('cmd.gamma', answer(['c.ns.example', 'd.ns.example']));
    clock.now = new Date(NOW.getTime() + DAY);
    messages.posts.length = 0;
    const context = { registry, watch, store, logger, now: () => clock.now };
    await registryBeside(context, [
      { domain: 'cmd.gamma', unicode: 'cmd.gamma', providerExpiry: '2031-01-10' },
    ]);
    expect(messages.lines()).toEqual([
      '🚩 **cmd.gamma**: nameservers changed at the registry: a.ns.example, b.ns.example → c.ns.example, d.ns.example',
    ]);
    expect(await metrics.registry.getSingleMetricAsString('hostops_watch_alerts_total')).toContain(
      'hostops_watch_alerts_total{kind="registry_nameservers_changed"} 1',
    );
  });
});
