// A look-up is bounded as a whole, the bootstrap file included, and only the registry's own answers are
// remembered as the registry's: the real RDAP client and a real SQLite store against fake registries and a
// fake bootstrap file over HTTPS on loopback (a test CA in Node's trust store).
import { createServer, type Socket } from 'node:net';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RdapClient } from '../../src/rdap/RdapClient.js';
import { RegistryCheck, SERVER_RETRY_MS } from '../../src/rdap/RegistryCheck.js';
import { openStore, type Store } from '../../src/store/index.js';
import { captureLogs } from '../support/captureLogs.js';
import { bootstrapFile, domainObject, FakeRdapServer } from '../support/FakeRdapServer.js';
import { makeTestCa, type TestCa } from '../support/testCa.js';

const NOW = new Date('2030-03-01T07:00:00.000Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let ca: TestCa;
/** Serves the bootstrap file(s). */
let iana: FakeRdapServer;
let alpha: FakeRdapServer;
let beta: FakeRdapServer;
const logs = captureLogs();
const opened: { close(): Promise<unknown> }[] = [];
let clock: { now: Date };

beforeAll(async () => {
  ca = makeTestCa();
  setDefaultCACertificates([...getCACertificates('default'), ca.caPem]);
  [iana, alpha, beta] = await Promise.all([
    FakeRdapServer.start(ca),
    FakeRdapServer.start(ca),
    FakeRdapServer.start(ca),
  ]);
});
afterAll(async () => {
  await Promise.all([iana, alpha, beta].map((s) => s?.stop()));
  ca?.dispose();
});
beforeEach(() => {
  clock = { now: NOW };
  for (const server of [iana, alpha, beta]) server.reset();
});
afterEach(async () => {
  for (const item of opened.splice(0).reverse()) await item.close();
});

const bootstrap = () =>
  bootstrapFile([
    [['alpha'], [alpha.base]],
    [['beta'], [beta.base]],
  ]);

/** A registry check as createRegistryCheck makes it, with a client timeout long enough to see a stall. */
async function check(
  bootstrapPath = '/dns.json',
  store?: Store,
): Promise<{ registry: RegistryCheck; store: Store }> {
  const db = store ?? (await openStore('sqlite::memory:'));
  if (!store) opened.push(db);
  const client = new RdapClient({ maxPerServer: 1, minIntervalMs: 0, allowHttp: false, timeoutMs: 60_000 });
  const registry = new RegistryCheck(
    db,
    client,
    `${iana.origin}${bootstrapPath}`,
    'UTC',
    logs.logger,
    () => clock.now,
  );
  opened.push(registry);
  return { registry, store: db };
}

const domainPaths = (server: FakeRdapServer) => server.paths.filter((p) => p.includes('/domain/'));
const domain = (name: string) => ({ domain: name, unicode: name, watched: true });

describe('the bootstrap file within a look-up’s bound', () => {
  it('a first fetch that stalls does not hold a look-up past its deadline', async () => {
    let release: () => void = () => {};
    const stalled = new Promise<void>((resolve) => (release = resolve));
    iana.responder = () => ({ body: bootstrap(), hold: stalled });
    try {
      const { registry } = await check();
      // The file is answered only after the look-up has ended (release() below): the look-up cannot have
      // waited for it. (The client's own timeout is a minute: without the deadline it would wait that long.)
      const answer = await registry.ask('x.alpha', { deadline: Date.now() + 500 });
      expect(answer).toEqual({ kind: 'failed', why: 'no_bootstrap' });
      expect(domainPaths(alpha)).toEqual([]);
      // Once it comes, the next look-up uses it.
      release();
      await registry.bootstrap.settled();
      expect(await registry.bootstrap.serversFor('x.alpha')).toEqual([alpha.base]);
    } finally {
      release();
    }
  });

  it('a held copy answers at once while its refresh stalls in the background', async () => {
    const { registry, store } = await check();
    iana.responder = () => ({ body: bootstrap() });
    alpha.domains.set('x.alpha', { body: domainObject('x.alpha') });
    expect((await registry.ask('x.alpha')).kind).toBe('ok');
    // A day later the file is due, and IANA stalls: the copy held is used, the fetch goes on beside.
    let release: () => void = () => {};
    const stalled = new Promise<void>((resolve) => (release = resolve));
    iana.responder = () => ({ body: bootstrap(), hold: stalled });
    clock.now = new Date(NOW.getTime() + DAY);
    try {
      // Answered before the file is (release() comes after): from the copy held.
      const again = await registry.ask('x.alpha', { deadline: Date.now() + 5000 });
      expect(again.kind).toBe('ok');
    } finally {
      release();
    }
    await registry.bootstrap.settled();
    expect(iana.paths).toEqual(['/dns.json', '/dns.json']);
    expect(await store.settings.get('rdap.bootstrap')).toContain(alpha.base);
  });

  it('a failing bootstrap URL is fetched once per back-off, also right after RDAP_BOOTSTRAP_URL changed', async () => {
    iana.responder = (path) => (path === '/dns.json' ? { body: bootstrap() } : { status: 503 });
    const first = await check('/dns.json');
    expect(await first.registry.bootstrap.serversFor('x.alpha')).toEqual([alpha.base]);
    // The operator points RDAP_BOOTSTRAP_URL elsewhere, and that URL fails.
    const { registry } = await check('/moved.json', first.store);
    for (let i = 0; i < 10; i++) {
      // The last good file (from the old URL) still answers.
      expect(await registry.bootstrap.serversFor('x.alpha')).toEqual([alpha.base]);
      await registry.bootstrap.settled();
    }
    expect(iana.paths).toEqual(['/dns.json', '/moved.json']);
    // Within the hour: still not asked again; past it, once more.
    clock.now = new Date(NOW.getTime() + HOUR - 60_000);
    await registry.bootstrap.serversFor('x.alpha');
    await registry.bootstrap.settled();
    expect(iana.paths).toEqual(['/dns.json', '/moved.json']);
    clock.now = new Date(NOW.getTime() + HOUR);
    for (let i = 0; i < 10; i++) {
      await registry.bootstrap.serversFor('x.alpha');
      await registry.bootstrap.settled();
    }
    expect(iana.paths).toEqual(['/dns.json', '/moved.json', '/moved.json']);
  });
});

describe('what is remembered as the registry’s', () => {
  it('"busy" (our own queue) is never stored: a later watch look-up asks the registry', async () => {
    iana.responder = () => ({ body: bootstrap() });
    const { registry } = await check();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    alpha.domains.set('slow.alpha', { body: domainObject('slow.alpha'), hold: held });
    alpha.domains.set('queued.alpha', { body: domainObject('queued.alpha') });
    try {
      // slow.alpha takes the server's one slot; a command's look-up of queued.alpha waits its turn and gives up.
      const slow = registry.refresh(domain('slow.alpha'), null, { maxAgeMs: DAY });
      await expect.poll(() => alpha.inFlight).toBe(1);
      const command = await registry.refresh(domain('queued.alpha'), null, {
        maxAgeMs: DAY,
        urgent: true,
        deadline: Date.now() + 300,
      });
      expect(command.failed).toBe('busy');
      release();
      await slow;
    } finally {
      release();
    }
    const watch = await registry.refresh(domain('queued.alpha'), null, { maxAgeMs: DAY });
    expect(watch.failed).toBeUndefined();
    expect(watch.record?.outcome).toBe('ok');
    expect(domainPaths(alpha)).toEqual(['/rdap/domain/slow.alpha', '/rdap/domain/queued.alpha']);
  });

  it('a command’s failed look-up never suppresses the watch’s; it does spare the next command the wait', async () => {
    iana.responder = () => ({ body: bootstrap() });
    const { registry } = await check();
    alpha.domains.set('down.alpha', { status: 503, body: { errorCode: 503 } });
    const command = await registry.refresh(domain('down.alpha'), null, { maxAgeMs: DAY, urgent: true });
    expect(command.failed).toBe('status');
    expect(domainPaths(alpha)).toHaveLength(1);
    // The next command within 15 minutes shows what is stored at once.
    expect((await registry.refresh(domain('down.alpha'), null, { maxAgeMs: DAY, urgent: true })).failed).toBe(
      'status',
    );
    expect(domainPaths(alpha)).toHaveLength(1);
    // The watch asks anyway.
    alpha.domains.set('down.alpha', { body: domainObject('down.alpha') });
    const watch = await registry.refresh(domain('down.alpha'), null, { maxAgeMs: DAY });
    expect(watch.failed).toBeUndefined();
    expect(domainPaths(alpha)).toHaveLength(2);
  });

  it('a server a command could not reach is spared by the next commands for a while, whatever the domain; the watch and a re-ask still ask', async () => {
    // A registry whose connections end before TLS: every look-up would be a new connection, failing alike.
    let connections = 0;
    const sockets = new Set<Socket>();
    const broken = createServer((socket) => {
      connections++;
      sockets.add(socket);
      socket.destroy();
    });
    await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
    opened.push({
      close: () => new Promise<void>((resolve) => broken.close(() => resolve())),
    });
    const port = (broken.address() as { port: number }).port;
    iana.responder = () => ({ body: bootstrapFile([[['gamma'], [`https://127.0.0.1:${port}/rdap/`]]]) });
    const { registry } = await check();
    const first = await registry.refresh(domain('a.gamma'), null, { maxAgeMs: DAY, urgent: true });
    expect(first.failed).toBe('network');
    expect(connections).toBe(1);
    // Another domain of that server, by a command: told at once, no new connection.
    const second = await registry.refresh(domain('b.gamma'), null, { maxAgeMs: DAY, urgent: true });
    expect(second.failed).toBe('network');
    expect(connections).toBe(1);
    // The watch asks; so does an operator's re-ask (maxAgeMs 0).
    await registry.refresh(domain('e.gamma'), null, { maxAgeMs: DAY });
    expect(connections).toBe(2);
    await registry.refresh(domain('c.gamma'), null, { maxAgeMs: 0, urgent: true });
    expect(connections).toBe(3);
    // Once the while is over, commands ask it again; b.gamma was not remembered as failed (never asked).
    clock.now = new Date(NOW.getTime() + SERVER_RETRY_MS);
    await registry.refresh(domain('b.gamma'), null, { maxAgeMs: DAY, urgent: true });
    expect(connections).toBe(4);
  });

  it('a paused server does not delay another server’s look-ups under one deadline', async () => {
    iana.responder = () => ({ body: bootstrap() });
    const { registry } = await check();
    alpha.responder = (path) =>
      path.includes('/domain/') ? { status: 429, headers: { 'retry-after': '86400' } } : undefined;
    for (const name of ['b1.beta', 'b2.beta']) beta.domains.set(name, { body: domainObject(name) });
    // As a watch run does: one deadline for all of it, each domain in turn (a minute: room for a loaded
    // machine's handshakes; the paused server's look-ups must not use it up).
    const deadline = Date.now() + 60_000;
    const outcomes = [];
    for (const name of ['a1.alpha', 'b1.beta', 'a2.alpha', 'b2.beta'])
      outcomes.push(await registry.refresh(domain(name), null, { maxAgeMs: DAY, deadline }));
    expect(outcomes.map((o) => o.failed ?? o.record?.outcome)).toEqual(['paused', 'ok', 'paused', 'ok']);
    expect(outcomes[2]).toMatchObject({ server: alpha.origin, until: expect.any(Date) });
    // a2.alpha was not sent: the server is paused.
    expect(domainPaths(alpha)).toEqual(['/rdap/domain/a1.alpha']);
    expect(registry.pauses()).toEqual([{ server: alpha.origin, until: expect.any(Date) }]);
  }, 120_000);
});
