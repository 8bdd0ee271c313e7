// The RDAP client against fake registries over real HTTPS: a test CA made with openssl and trusted the way
// NODE_EXTRA_CA_CERTS is (Node's own default trust store), answers of every kind a registry gives.
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RdapClient, type RdapRequestEvent } from '../../src/rdap/RdapClient.js';
import { domainObjectSchema } from '../../src/rdap/rdapSchemas.js';
import { domainObject, FakeRdapServer } from '../support/FakeRdapServer.js';
import { makeTestCa, type TestCa } from '../support/testCa.js';

let ca: TestCa;
let untrusted: TestCa;
let registry: FakeRdapServer;
let other: FakeRdapServer;
let stranger: FakeRdapServer;
let plain: FakeRdapServer;
const clients: RdapClient[] = [];
let events: RdapRequestEvent[];

function client(options: Partial<ConstructorParameters<typeof RdapClient>[0]> = {}): RdapClient {
  const made = new RdapClient({
    maxPerServer: 1,
    minIntervalMs: 0,
    allowHttp: false,
    timeoutMs: 2000,
    onRequest: (event) => events.push(event),
    ...options,
  });
  // What the bootstrap file does for the servers it names: they are reached where they are (loopback).
  made.nameOrigins([registry, other, stranger, plain].map((s) => s.origin));
  clients.push(made);
  return made;
}

const domainUrl = (server: FakeRdapServer, name: string) => new URL(`domain/${name}`, server.base);

beforeAll(async () => {
  ca = makeTestCa();
  untrusted = makeTestCa();
  // What NODE_EXTRA_CA_CERTS does at a process's start: the CA joins Node's default trust store.
  setDefaultCACertificates([...getCACertificates('default'), ca.caPem]);
  [registry, other, stranger, plain] = await Promise.all([
    FakeRdapServer.start(ca),
    FakeRdapServer.start(ca),
    FakeRdapServer.start(untrusted),
    FakeRdapServer.start(),
  ]);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all([registry, other, stranger, plain].map((s) => s?.stop()));
  ca?.dispose();
  untrusted?.dispose();
});
beforeEach(() => {
  events = [];
  for (const server of [registry, other, stranger, plain]) server.reset();
});

describe('RdapClient', () => {
  it('reads a domain object over HTTPS verified by the trust store, and counts the request', async () => {
    registry.domains.set('example.alpha', {
      body: domainObject('example.alpha', { expires: '2031-08-13T04:00:00Z', signed: true }),
    });
    const answer = await client().getJson(domainUrl(registry, 'example.alpha'), domainObjectSchema);
    expect(answer.kind).toBe('ok');
    if (answer.kind !== 'ok') return;
    expect(answer.value.events?.find((e) => e.eventAction === 'expiration')?.eventDate).toBe(
      '2031-08-13T04:00:00Z',
    );
    expect(answer.value.secureDNS?.delegationSigned).toBe(true);
    expect(events).toEqual([{ server: registry.origin, status: '200', seconds: expect.any(Number) }]);
  });

  it('refuses a server whose certificate no trusted CA signed, and plain http unless allowed', async () => {
    stranger.domains.set('example.alpha', { body: domainObject('example.alpha') });
    const refused = await client().getJson(domainUrl(stranger, 'example.alpha'), domainObjectSchema);
    expect(refused).toMatchObject({ kind: 'failed', why: 'network' });
    plain.domains.set('example.alpha', { body: domainObject('example.alpha') });
    expect(await client().getJson(domainUrl(plain, 'example.alpha'), domainObjectSchema)).toMatchObject({
      kind: 'failed',
      why: 'refused',
    });
    expect(plain.paths).toEqual([]);
    const allowed = await client({ allowHttp: true }).getJson(
      domainUrl(plain, 'example.alpha'),
      domainObjectSchema,
    );
    expect(allowed.kind).toBe('ok');
  });

  it('404 is "not found"; a malformed, a hostile and an oversized answer are unreadable', async () => {
    const c = client({ maxBytes: 4096 });
    expect(await c.getJson(domainUrl(registry, 'missing.alpha'), domainObjectSchema)).toMatchObject({
      kind: 'not_found',
    });
    registry.domains.set('broken.alpha', { body: '{"objectClassName":"domain", "events": [' });
    registry.domains.set('hostile.alpha', {
      body: { objectClassName: 'domain', status: 'x'.repeat(500), events: [{ eventAction: 7 }] },
    });
    registry.domains.set('huge.alpha', {
      body: { ...domainObject('huge.alpha'), remarks: [{ description: ['x'.repeat(10_000)] }] },
    });
    registry.domains.set('streamed.alpha', { body: 'y'.repeat(10_000), chunked: true });
    for (const [name, why] of [
      ['broken.alpha', 'not JSON'],
      ['hostile.alpha', expect.stringMatching(/^not RDAP/)],
      ['huge.alpha', 'answer too large'],
      ['streamed.alpha', 'answer too large'],
    ] as const) {
      expect(await c.getJson(domainUrl(registry, name), domainObjectSchema)).toMatchObject({
        kind: 'unreadable',
        why,
      });
    }
    expect(events.map((e) => e.status)).toEqual(['404', '200', '200', 'too_large', 'too_large']);
  });

  it('a slow server runs into the timeout; the next request is not held up by it', async () => {
    registry.domains.set('slow.alpha', { body: domainObject('slow.alpha'), delayMs: 1500 });
    registry.domains.set('quick.alpha', { body: domainObject('quick.alpha') });
    const c = client({ timeoutMs: 300 });
    expect(await c.getJson(domainUrl(registry, 'slow.alpha'), domainObjectSchema)).toMatchObject({
      kind: 'failed',
      why: 'timeout',
    });
    expect((await c.getJson(domainUrl(registry, 'quick.alpha'), domainObjectSchema)).kind).toBe('ok');
  });

  it('the caller’s bound ends a request under way too: a timeout (the registry was slow), not busy', async () => {
    // The server would answer within the client's own timeout; the caller's bound is shorter.
    registry.domains.set('slower.alpha', { body: domainObject('slower.alpha'), delayMs: 3000 });
    const c = client({ timeoutMs: 5000 });
    const answer = await c.getJson(domainUrl(registry, 'slower.alpha'), domainObjectSchema, {
      signal: AbortSignal.timeout(300),
      urgent: true,
    });
    expect(answer).toMatchObject({ kind: 'failed', why: 'timeout' });
    expect(registry.paths).toEqual(['/rdap/domain/slower.alpha']);
    expect(events.map((e) => e.status)).toEqual(['timeout']);
  });

  it('follows redirects to https a bounded number of times, never to http', async () => {
    other.domains.set('moved.alpha', { body: domainObject('moved.alpha') });
    registry.responder = (path) => {
      if (path.endsWith('/moved.alpha'))
        return { status: 301, headers: { location: `${other.base}domain/moved.alpha` } };
      if (path.endsWith('/downgrade.alpha'))
        return { status: 302, headers: { location: `${plain.base}domain/x` } };
      if (path.endsWith('/loop.alpha'))
        return { status: 307, headers: { location: '/rdap/domain/loop.alpha' } };
      return undefined;
    };
    const c = client({ maxRedirects: 3 });
    expect((await c.getJson(domainUrl(registry, 'moved.alpha'), domainObjectSchema)).kind).toBe('ok');
    expect(other.paths).toEqual(['/rdap/domain/moved.alpha']);
    expect(await c.getJson(domainUrl(registry, 'downgrade.alpha'), domainObjectSchema)).toMatchObject({
      kind: 'failed',
      why: 'refused',
    });
    expect(plain.paths).toEqual([]);
    expect(await c.getJson(domainUrl(registry, 'loop.alpha'), domainObjectSchema)).toMatchObject({
      kind: 'failed',
      why: 'status',
      status: 307,
    });
    // A redirect to a URL already asked ends the request at once: a loop is not followed round.
    expect(registry.paths.filter((p) => p.endsWith('/loop.alpha'))).toHaveLength(1);
  });

  it('obeys 429 with Retry-After for that server only, then retries', async () => {
    let limited = true;
    registry.responder = (path) => {
      if (!path.endsWith('/busy.alpha')) return undefined;
      if (limited) {
        limited = false;
        return { status: 429, headers: { 'retry-after': '1' } };
      }
      return { body: domainObject('busy.alpha') };
    };
    other.domains.set('free.alpha', { body: domainObject('free.alpha') });
    const c = client();
    const started = performance.now();
    const [busy, free] = await Promise.all([
      c.getJson(domainUrl(registry, 'busy.alpha'), domainObjectSchema),
      (async () => {
        // Another server is not held up by the first one's Retry-After.
        await new Promise((r) => setTimeout(r, 100));
        const answer = await c.getJson(domainUrl(other, 'free.alpha'), domainObjectSchema);
        return { answer, at: performance.now() - started };
      })(),
    ]);
    expect(busy.kind).toBe('ok');
    expect(free.answer.kind).toBe('ok');
    expect(free.at).toBeLessThan(900);
    const [first, second] = registry.starts;
    expect((second as number) - (first as number)).toBeGreaterThanOrEqual(950);
    expect(events.map((e) => e.status)).toContain('429');
  });

  it('stop() ends a wait for a Retry-After at once (a shutdown is not held up by a registry)', async () => {
    registry.responder = () => ({ status: 429, headers: { 'retry-after': '30' } });
    const c = client();
    const started = performance.now();
    const url = domainUrl(registry, 'later.alpha');
    const waiting = c.getJson(url, domainObjectSchema);
    // Stopped once the 429 is in and its wait begun (a fixed 200 ms could stop it before the answer on a
    // loaded machine: a network failure, and a request left to land in the next test).
    while (c.pausedForMs(url.origin) === 0) await new Promise((r) => setTimeout(r, 5));
    c.stop();
    expect(await waiting).toMatchObject({ kind: 'failed', why: 'paused', until: expect.any(Date) });
    // Not held for the 30 s the registry asked for.
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(registry.paths).toEqual(['/rdap/domain/later.alpha']);
  });

  it('keeps each server within its concurrency and spacing, whatever is asked at once', async () => {
    const names = Array.from({ length: 8 }, (_, i) => `d${i}.alpha`);
    for (const name of names) {
      registry.domains.set(name, { body: domainObject(name), delayMs: 30 });
      other.domains.set(name, { body: domainObject(name), delayMs: 30 });
    }
    const c = client({ maxPerServer: 2, minIntervalMs: 100 });
    const answers = await Promise.all(
      names.flatMap((name) =>
        [registry, other].map((s) => c.getJson(domainUrl(s, name), domainObjectSchema)),
      ),
    );
    expect(answers.every((a) => a.kind === 'ok')).toBe(true);
    for (const server of [registry, other]) {
      expect(server.paths).toHaveLength(8);
      expect(server.peak).toBeLessThanOrEqual(2);
      // Starts are spaced by the client; arrival at the fake jitters (a new connection's TLS handshake),
      // so one gap may look shorter (the first request's handshake is late, the second's lands close behind
      // it: seen 0.3–47 ms on a loaded machine), never the whole run: 8 starts take at least 7 intervals.
      const starts = [...server.starts].sort((a, b) => a - b);
      const short = starts.slice(1).filter((start, i) => start - (starts[i] as number) < 50);
      expect(short.length).toBeLessThanOrEqual(1);
      expect((starts.at(-1) as number) - (starts[0] as number)).toBeGreaterThanOrEqual(7 * 100 - 40);
    }
  });
});
