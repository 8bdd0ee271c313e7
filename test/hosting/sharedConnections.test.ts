// How the HostingClient shares the provider's connections (issue 34): identical reads in flight share one
// request, waiting for a connection is not the provider's time, and callers are served fairly. The real
// client with a real connection limit, against the fake hosting API over real sockets.
import { setTimeout as sleep } from 'node:timers/promises';
import pLimit from 'p-limit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HostingApiError } from '../../src/hosting/HostingApiError.js';
import { HostingClient } from '../../src/hosting/HostingClient.js';
import type { HostingClientOptions } from '../../src/hosting/HostingClientOptions.js';
import { captureLogs } from '../support/captureLogs.js';
import { defaultResponders, FakeHostingApi, type ReceivedRequest } from '../support/FakeHostingApi.js';

let api: FakeHostingApi;
const logs = captureLogs();
const clients: HostingClient[] = [];

function client(overrides: Partial<HostingClientOptions> = {}): HostingClient {
  const created = new HostingClient({
    baseUrl: api.url,
    token: api.token,
    timeoutMs: 5_000,
    timeZone: 'Europe/Berlin',
    logger: logs.logger,
    retry: { baseDelayMs: 10, maxDelayMs: 50 },
    ...overrides,
  });
  clients.push(created);
  return created;
}

/** A domain's answer, its expiry date as given. */
const answer = (expirydate: string) => ({
  body: { expirydate, active: 'true', expired: 'false', transferredAway: 'false' },
});

/** Holds every request of an operation until `open()`; counts them as they arrive. */
function gate(operation: 'domainInfo' | 'setReverseDns', expirydate = '2027-06-30') {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  api.respond(operation, async (request) => {
    await opened;
    return operation === 'domainInfo' ? answer(expirydate) : defaultResponders[operation](request);
  });
  return { open };
}

async function until(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

const settle = <T>(promise: Promise<T>) =>
  promise.then(
    (value) => ({ value, error: undefined }),
    (error: unknown) => ({ value: undefined, error }),
  );

beforeAll(async () => {
  api = await FakeHostingApi.start();
});
afterAll(async () => {
  await api.stop();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close(true)));
  api.reset();
});

describe('identical reads', () => {
  it('a fresh read (a read-back) never joins one already in flight: its answer must postdate the change', async () => {
    const c = client();
    const held = gate('domainInfo');
    const earlier = c.getDomainInfo('example.com', { correlationId: 'info' });
    await until(() => api.requestsFor('domainInfo').length === 1, 'the earlier read');
    const readBack = c.getDomainInfo('example.com', { correlationId: 'read-back', fresh: true });
    await until(() => api.requestsFor('domainInfo').length === 2, 'the read-back’s own request');
    held.open();
    await Promise.all([earlier, readBack]);
    expect(api.requestsFor('domainInfo')).toHaveLength(2);
  });

  it('in flight at the same moment: one request, every reader answered; after the answer: a new request with the new data', async () => {
    const c = client();
    const held = gate('domainInfo', '2027-06-30');
    const readers = Array.from({ length: 5 }, (_, n) =>
      c.getDomainInfo('example.com', { correlationId: `reader${n}` }),
    );
    await until(() => api.requestsFor('domainInfo').length === 1, 'the first request');
    await sleep(100);
    held.open();
    const infos = await Promise.all(readers);
    expect(infos.map((info) => info.expiryDate?.toISODate())).toEqual(Array(5).fill('2027-06-30'));
    expect(api.requestsFor('domainInfo')).toHaveLength(1);

    api.respond('domainInfo', () => answer('2031-01-31'));
    const later = await c.getDomainInfo('example.com');
    expect(later.expiryDate?.toISODate()).toBe('2031-01-31');
    expect(api.requestsFor('domainInfo')).toHaveLength(2);
  });

  it('reads of other domains or operations are not merged', async () => {
    const c = client();
    const held = gate('domainInfo');
    const reads = [c.getDomainInfo('a.example'), c.getDomainInfo('b.example'), c.getServerLog(7)];
    await until(() => api.requests.length === 3, 'three requests');
    held.open();
    await Promise.all(reads);
    expect(api.requests.map((r) => r.rawUrl).sort()).toEqual([
      '/domain/info/a.example',
      '/domain/info/b.example',
      '/server/logs/7',
    ]);
  });

  it('one reader giving up (its signal) does not fail the others, and the request goes on', async () => {
    const c = client();
    const held = gate('domainInfo');
    const quitter = new AbortController();
    const first = settle(c.getDomainInfo('example.com', { signal: quitter.signal }));
    const others = [c.getDomainInfo('example.com'), c.getDomainInfo('example.com')];
    await until(() => api.requestsFor('domainInfo').length === 1, 'the request');
    quitter.abort(new Error('shutting down'));
    expect((await first).error).toEqual(new Error('shutting down'));
    held.open();
    const infos = await Promise.all(others);
    expect(infos.map((info) => info.active)).toEqual([true, true]);
    expect(api.requestsFor('domainInfo')).toHaveLength(1);
  });

  it('a reader whose answer can no longer be delivered stops waiting for a connection; the others are answered', async () => {
    const c = client({ maxConnections: 1 });
    const held = gate('domainInfo');
    const blocking = c.getDomainInfo('holds-the-connection.example');
    await until(() => api.requestsFor('domainInfo').length === 1, 'the connection to be taken');
    // Its interaction can take an answer only as long as the provider's own budget: no time to wait.
    const late = settle(c.getDomainInfo('example.com', { answerBy: performance.now() + 5_000 }));
    const patient = c.getDomainInfo('example.com');
    const error = (await late).error;
    expect(error).toBeInstanceOf(HostingApiError);
    expect((error as HostingApiError).kind).toBe('no_connection');
    expect((error as HostingApiError).attempts).toBe(0);
    held.open();
    await blocking;
    expect((await patient).active).toBe(true);
    expect(api.requestsFor('domainInfo').map((r) => r.param)).toEqual([
      'holds-the-connection.example',
      'example.com',
    ]);
  });

  it('changes are never merged: two identical PUTs are two requests', async () => {
    const c = client();
    const held = gate('setReverseDns');
    const input = { serverId: 7, ip: '203.0.113.7', hostname: 'host.example.com', validate: true };
    const puts = [c.setReverseDns(input), c.setReverseDns(input)];
    await until(() => api.requestsFor('setReverseDns').length === 2, 'both PUTs');
    held.open();
    await Promise.all(puts);
    expect(api.requestsFor('setReverseDns')).toHaveLength(2);
  });
});

describe('waiting for a connection', () => {
  it('is not the provider time: a read queued longer than the timeout is answered', async () => {
    api.latencyMs = 400;
    const c = client({ maxConnections: 1, timeoutMs: 1_000 });
    const started = performance.now();
    // One connection, 400 ms each: the fourth waits 1.2 s, longer than the 1 s the provider is given.
    const infos = await Promise.all(
      ['a', 'b', 'c', 'd'].map((name) => c.getDomainInfo(`${name}.example`, { correlationId: name })),
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_550);
    expect(infos.map((info) => info.active)).toEqual([true, true, true, true]);
    expect(api.requestsFor('domainInfo')).toHaveLength(4);
  });

  it('a change that waited too long is never sent: no_connection, not a timeout or an unknown outcome', async () => {
    const c = client({ maxConnections: 1, queueTimeoutMs: 1_000 });
    const held = gate('domainInfo');
    const blocking = c.getDomainInfo('holds-the-connection.example');
    await until(() => api.requestsFor('domainInfo').length === 1, 'the connection to be taken');
    const started = performance.now();
    const result = await settle(
      c.setReverseDns({ serverId: 7, ip: '203.0.113.7', hostname: 'host.example.com', validate: true }),
    );
    const error = result.error as HostingApiError;
    expect(error).toBeInstanceOf(HostingApiError);
    expect(error.kind).toBe('no_connection');
    expect(error.timeoutMs).toBeGreaterThanOrEqual(990);
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
    held.open();
    await blocking;
    await sleep(100);
    expect(api.requestsFor('setReverseDns')).toHaveLength(0);
  });

  it('closing the client refuses what waits, unsent; what holds a connection finishes', async () => {
    const c = client({ maxConnections: 1 });
    const held = gate('domainInfo');
    const blocking = c.getDomainInfo('holds-the-connection.example');
    await until(() => api.requestsFor('domainInfo').length === 1, 'the connection to be taken');
    const waiting = settle(c.getServerLog(42));
    const closed = c.close();
    const error = (await waiting).error as HostingApiError;
    expect(error.kind).toBe('no_connection');
    expect(error.timeoutMs).toBeUndefined();
    held.open();
    await expect(blocking).resolves.toMatchObject({ active: true });
    await closed;
    expect(api.requestsFor('serverLog')).toHaveLength(0);
  });
});

describe('fairness', () => {
  // Which connection goes to whom is held exactly in ConnectionQueue.test.ts; here the real client over real
  // sockets, judged by order of arrival at the provider only (how long it took is the bench's business).
  it('a single read issued while a bulk check and the watch want every connection goes ahead of their queues', async () => {
    const CONNECTIONS = 4;
    const arrivals: ReceivedRequest[] = [];
    api.respond('domainInfo', async (request) => {
      arrivals.push(request);
      await sleep(100);
      return answer('2027-06-30');
    });
    const c = client({ maxConnections: CONNECTIONS });
    // /domain expiry: 50 look-ups, 8 at a time, all under one invocation.
    const bulkLimit = pLimit(8);
    const bulk = Array.from({ length: 50 }, (_, n) =>
      settle(bulkLimit(() => c.getDomainInfo(`bulk-${n}.example`, { correlationId: 'bulk' }))),
    );
    // The watch run: its own share, WATCH_CONCURRENCY 4.
    const watchLimit = pLimit(4);
    const watch = Array.from({ length: 100 }, (_, n) =>
      settle(watchLimit(() => c.getDomainInfo(`watched-${n}.example`, { caller: 'watch' }))),
    );
    await until(() => arrivals.length >= CONNECTIONS * 2, 'the bulk work to be under way');
    const issuedAt = performance.now();
    const single = await settle(c.getDomainInfo('single.example', { correlationId: 'single' }));
    expect(single.error).toBeUndefined();
    const singleAt = arrivals.findIndex((r) => r.param === 'single.example');
    // Only requests already given a connection when it was issued (at most one per connection, still on their
    // way) may arrive before it; first come, first served it would wait behind a dozen of the bulk check's.
    const before = arrivals.slice(0, singleAt).filter((r) => r.at > issuedAt);
    expect(before.length).toBeLessThan(CONNECTIONS);
    const rest = await Promise.all([...bulk, ...watch]);
    expect(rest.filter((r) => r.error !== undefined)).toEqual([]);
    expect(arrivals).toHaveLength(151);
  });
});
