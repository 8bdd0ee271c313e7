// The RDAP client against registries that misbehave the way real ones do — a Retry-After of a day, one
// larger than a timer holds, one that is no number at all; redirects in a loop, to addresses inside the
// network, to hundreds of origins — over real HTTPS on loopback (a test CA in Node's trust store).
import { type LookupOptions, lookup } from 'node:dns';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isPublicAddress } from '../../src/rdap/publicAddress.js';
import { RdapClient, type RdapRequestEvent } from '../../src/rdap/RdapClient.js';
import { RdapMetrics } from '../../src/rdap/RdapMetrics.js';
import { domainObjectSchema } from '../../src/rdap/rdapSchemas.js';
import { MAX_TIMER_MS } from '../../src/rdap/ServerGate.js';
import { domainObject, FakeRdapServer } from '../support/FakeRdapServer.js';
import { makeTestCa, type TestCa } from '../support/testCa.js';

const HOUR = 3_600_000;
let ca: TestCa;
/** Two registries the bootstrap names. */
let alpha: FakeRdapServer;
let beta: FakeRdapServer;
/** Servers no bootstrap names: a redirect must never connect to them. */
let inside: FakeRdapServer;
let otherLoopback: FakeRdapServer;
const clients: RdapClient[] = [];
let events: RdapRequestEvent[];

function client(options: Partial<ConstructorParameters<typeof RdapClient>[0]> = {}): RdapClient {
  const made = new RdapClient({
    maxPerServer: 1,
    minIntervalMs: 0,
    allowHttp: false,
    timeoutMs: 5000,
    onRequest: (event) => events.push(event),
    ...options,
  });
  made.nameOrigins([alpha.origin, beta.origin]);
  clients.push(made);
  return made;
}

const url = (server: FakeRdapServer, name: string) => new URL(`domain/${name}`, server.base);
const servers = () => [alpha, beta, inside, otherLoopback];

beforeAll(async () => {
  ca = makeTestCa();
  setDefaultCACertificates([...getCACertificates('default'), ca.caPem]);
  [alpha, beta, inside, otherLoopback] = await Promise.all([
    FakeRdapServer.start(ca),
    FakeRdapServer.start(ca),
    FakeRdapServer.start(ca),
    // Another loopback address: nothing the bootstrap names lives there.
    FakeRdapServer.start(ca, '127.0.0.2'),
  ]);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(servers().map((s) => s?.stop()));
  ca?.dispose();
});
beforeEach(() => {
  events = [];
  for (const server of servers()) server.reset();
});

describe('a registry’s Retry-After', () => {
  it('of a day pauses that server for RDAP_MAX_RETRY_AFTER_S; a look-up due before then is told at once when', async () => {
    alpha.responder = () => ({ status: 429, headers: { 'retry-after': '86400' } });
    beta.domains.set('free.beta', { body: domainObject('free.beta') });
    const c = client({ maxPauseMs: HOUR });
    const asked = Date.now();
    const first = await c.getJson(url(alpha, 'a.alpha'), domainObjectSchema, { deadline: Date.now() + 8000 });
    expect(first).toMatchObject({ kind: 'failed', why: 'paused', status: 429 });
    const until = first.kind === 'failed' ? (first.until?.getTime() ?? 0) : 0;
    // Capped at the hour, not the day asked for.
    expect(until).toBeGreaterThanOrEqual(asked + HOUR - 1000);
    expect(until).toBeLessThanOrEqual(Date.now() + HOUR + 1000);
    // The next look-up of that server is not sent, and not held to its deadline either: "paused", not "busy".
    const second = await c.getJson(url(alpha, 'b.alpha'), domainObjectSchema, {
      deadline: Date.now() + 8000,
    });
    expect(second).toMatchObject({ kind: 'failed', why: 'paused' });
    const again = second.kind === 'failed' ? (second.until?.getTime() ?? 0) : 0;
    expect(Math.abs(again - until)).toBeLessThan(1000);
    expect(alpha.paths).toEqual(['/rdap/domain/a.alpha']);
    // Another server goes on as before.
    expect((await c.getJson(url(beta, 'free.beta'), domainObjectSchema)).kind).toBe('ok');
  });

  it('of a day answers a look-up queued behind it "paused" at once, whatever instant its deadline is', async () => {
    alpha.responder = () => ({ status: 429, headers: { 'retry-after': '86400' } });
    const c = client({ maxPauseMs: 24 * HOUR });
    // A watch run's deadline, as the run computes it (performance.now()'s fractions); the second look-up
    // waits in the server's turn behind the first (one request at a time) when the 429 comes.
    const deadline = Date.now() + 10 * 60_000 + 0.25;
    const [first, queued] = await Promise.all([
      c.getJson(url(alpha, 'a.alpha'), domainObjectSchema, { deadline }),
      c.getJson(url(alpha, 'b.alpha'), domainObjectSchema, { deadline }),
    ]);
    expect(first).toMatchObject({ kind: 'failed', why: 'paused', status: 429 });
    expect(queued).toMatchObject({ kind: 'failed', why: 'paused' });
    // Told the same end of the pause (read off the clock twice: within a second).
    const until = (answer: typeof first) => (answer.kind === 'failed' ? (answer.until?.getTime() ?? 0) : 0);
    expect(Math.abs(until(queued) - until(first))).toBeLessThan(1000);
    expect(until(first)).toBeGreaterThan(Date.now() + 23 * HOUR);
    expect(alpha.paths).toEqual(['/rdap/domain/a.alpha']);
  });

  it('larger than a timer holds is held to what a timer holds: no overflow into a 1 ms loop', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      // 2^31 ms and more, with the operator's cap set as high as it goes.
      alpha.responder = () => ({ status: 429, headers: { 'retry-after': '9999999' } });
      const c = client({ maxPauseMs: 2_147_483_000 });
      const first = await c.getJson(url(alpha, 'a.alpha'), domainObjectSchema);
      // A caller without a deadline waits in the queue (a timer is set) until its signal ends the wait.
      const second = await c.getJson(url(alpha, 'b.alpha'), domainObjectSchema, {
        signal: AbortSignal.timeout(300),
      });
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((name) => name === 'TimeoutOverflowWarning')).toEqual([]);
      expect(first).toMatchObject({ kind: 'failed', why: 'paused' });
      expect(second).toMatchObject({ kind: 'failed', why: 'paused' });
      const until = second.kind === 'failed' ? (second.until?.getTime() ?? 0) : 0;
      expect(until).toBeLessThanOrEqual(Date.now() + MAX_TIMER_MS);
      expect(until).toBeGreaterThan(Date.now() + 24 * 24 * HOUR);
      expect(alpha.paths).toEqual(['/rdap/domain/a.alpha']);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('that is neither a number nor an HTTP-date is no Retry-After: the usual short pause, then asked again', async () => {
    let limited = true;
    alpha.responder = (path) => {
      if (!limited) return { body: domainObject(path.split('/').at(-1) ?? '') };
      limited = false;
      // Date.parse would read this as 1 January 2099.
      return { status: 429, headers: { 'retry-after': 'in a while 2099' } };
    };
    const answer = await client().getJson(url(alpha, 'later.alpha'), domainObjectSchema);
    expect(answer.kind).toBe('ok');
    expect(alpha.paths).toEqual(['/rdap/domain/later.alpha', '/rdap/domain/later.alpha']);
  });
});

describe('redirects', () => {
  it('a loop between two servers ends at its first repeat, counted under the server first asked', async () => {
    alpha.responder = () => ({ status: 302, headers: { location: `${beta.base}domain/loop.alpha` } });
    beta.responder = () => ({ status: 302, headers: { location: `${alpha.base}domain/loop.alpha` } });
    const answer = await client().getJson(url(alpha, 'loop.alpha'), domainObjectSchema);
    expect(answer).toMatchObject({ kind: 'failed', why: 'status', status: 302 });
    expect(alpha.paths).toEqual(['/rdap/domain/loop.alpha']);
    expect(beta.paths).toEqual(['/rdap/domain/loop.alpha']);
    expect(events.map((e) => [e.server, e.status])).toEqual([
      [alpha.origin, '302'],
      [alpha.origin, '302'],
    ]);
  });

  it('to an address inside the network, or a name that resolves to one, is refused with no connection made there', async () => {
    const targets = [
      `https://127.0.0.2:${new URL(otherLoopback.origin).port}/rdap/domain/x.alpha`,
      // Loopback, but not an origin the bootstrap names.
      `${inside.base}domain/x.alpha`,
      `https://localhost:${new URL(inside.origin).port}/rdap/domain/x.alpha`,
      // DNS rebinding: a name whose address is looked up at connect time.
      `https://rebound.example:${new URL(inside.origin).port}/rdap/domain/x.alpha`,
      'https://169.254.169.254/latest/meta-data/',
      'https://10.1.2.3/rdap/domain/x.alpha',
      'https://100.64.0.1/rdap/domain/x.alpha',
      'https://[::ffff:10.0.0.1]/rdap/domain/x.alpha',
      'https://[fd00::1]/rdap/domain/x.alpha',
    ];
    const c = client({
      // rebound.example resolves to loopback, as a rebinding attacker's DNS would answer; the rest as usual.
      lookup: ((hostname: string, options: LookupOptions, callback: (...args: unknown[]) => void) =>
        hostname === 'rebound.example'
          ? callback(null, [{ address: '127.0.0.1', family: 4 }])
          : lookup(hostname, options, callback as never)) as typeof lookup,
    });
    for (const target of targets) {
      events = [];
      alpha.responder = () => ({ status: 302, headers: { location: target } });
      expect(await c.getJson(url(alpha, 'x.alpha'), domainObjectSchema), target).toMatchObject({
        kind: 'failed',
        why: 'refused',
      });
      expect(
        events.map((e) => [e.server, e.status]),
        target,
      ).toEqual([
        [alpha.origin, '302'],
        [alpha.origin, 'refused'],
      ]);
    }
    expect(otherLoopback.connections).toBe(0);
    expect(inside.connections).toBe(0);
    // To an origin the bootstrap names, a loopback one included, it goes on.
    alpha.responder = () => ({ status: 301, headers: { location: `${beta.base}domain/moved.alpha` } });
    beta.domains.set('moved.alpha', { body: domainObject('moved.alpha') });
    expect((await c.getJson(url(alpha, 'moved.alpha'), domainObjectSchema)).kind).toBe('ok');
    expect(beta.paths).toEqual(['/rdap/domain/moved.alpha']);
  });

  it('300 look-ups redirected to 300 origins add no metric series and no per-server state', async () => {
    const registry = new Registry();
    const metrics = new RdapMetrics(registry);
    alpha.responder = (path) => {
      const n = Number(/r(\d+)\.alpha$/.exec(path)?.[1]);
      // Port 1 on 300 loopback addresses: nothing listens there, and nothing may be tried.
      return {
        status: 302,
        headers: { location: `https://127.1.${n >> 8}.${n & 255}:1/domain/r${n}.alpha` },
      };
    };
    const c = client({ onRequest: (event) => metrics.request(event) });
    for (let n = 1; n <= 300; n++) {
      expect((await c.getJson(url(alpha, `r${n}.alpha`), domainObjectSchema)).kind).toBe('failed');
    }
    const series = (await registry.getMetricsAsJSON()).find((m) => m.name === 'hostops_rdap_requests_total');
    expect(series?.values.map((v) => [v.labels.server, v.labels.status, v.value])).toEqual([
      [alpha.origin, '302', 300],
      [alpha.origin, 'refused', 300],
    ]);
    // 600 requests one after another: room for a loaded machine (this judges what was counted, not speed).
  }, 120_000);
});

describe('isPublicAddress (ipaddr.js’s special-purpose ranges)', () => {
  it.each([
    ['8.8.8.8', true],
    ['2606:4700:4700::1111', true],
    ['::ffff:8.8.8.8', true],
    ['127.0.0.2', false],
    ['10.0.0.1', false],
    ['172.16.5.4', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['224.0.0.1', false],
    ['0.0.0.0', false],
    ['255.255.255.255', false],
    ['192.0.2.1', false],
    ['198.51.100.7', false],
    ['203.0.113.9', false],
    ['::1', false],
    ['::', false],
    ['fe80::1', false],
    ['fd12:3456::1', false],
    ['ff02::1', false],
    ['2001:db8::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['not an address', false],
  ])('%s → %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});
