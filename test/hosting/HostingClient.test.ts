import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HostingApiError } from '../../src/hosting/HostingApiError.js';
import { HostingClient } from '../../src/hosting/HostingClient.js';
import type { HostingClientOptions } from '../../src/hosting/HostingClientOptions.js';
import { parseRetryAfter } from '../../src/hosting/httpWire.js';
import { captureLogs } from '../support/captureLogs.js';
import { FakeHostingApi } from '../support/FakeHostingApi.js';
import { freePort } from '../support/freePort.js';

let api: FakeHostingApi;
let logs: ReturnType<typeof captureLogs>;
const clients: HostingClient[] = [];

function client(overrides: Partial<HostingClientOptions> = {}): HostingClient {
  const created = new HostingClient({
    baseUrl: api.url,
    token: api.token,
    timeoutMs: 2_000,
    timeZone: 'Europe/Berlin',
    logger: logs.logger,
    retry: { baseDelayMs: 10, maxDelayMs: 50 },
    ...overrides,
  });
  clients.push(created);
  return created;
}

async function failure(promise: Promise<unknown>): Promise<HostingApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HostingApiError);
  return error as HostingApiError;
}

beforeAll(async () => {
  api = await FakeHostingApi.start();
});
afterAll(async () => {
  await api.stop();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  api.reset();
  logs = captureLogs();
});
logs = captureLogs();

const NASTY = 'a b&c=d#e+f%g';
const UNICODE = 'Grüße-日本語';
const EMOJI = 'rocket🚀';

describe('each operation round-trips', () => {
  it('GET /server/logs/{id} parses timestamps in the API zone', async () => {
    const entry = await client().getServerLog(42);
    const [request] = api.requests;
    expect(request?.method).toBe('GET');
    expect(request?.rawUrl).toBe('/server/logs/42');
    expect(request?.headers.authorization).toBe(`Bearer ${api.token}`);
    expect(entry.type).toBe('reinstall');
    expect(entry.status).toBe('success');
    // 01.03.2026 10:00:00 in Berlin is CET (UTC+1).
    expect(entry.start?.toISOString()).toBe('2026-03-01T09:00:00.000Z');
    expect(entry.end?.toISOString()).toBe('2026-03-01T09:05:30.000Z');
  });

  it('uses summer time where the API zone does', async () => {
    api.enqueue('serverLog', {
      body: { starttime: '15.07.2026 12:00:00', endtime: '', type: 'backup', status: 'running' },
    });
    const entry = await client({ timeZone: 'America/New_York' }).getServerLog(1);
    expect(entry.start?.toISOString()).toBe('2026-07-15T16:00:00.000Z');
    expect(entry.end).toBeNull();
  });

  it('GET /domain/info/{domain} accepts quoted and plain booleans', async () => {
    api.enqueue('domainInfo', {
      body: { expirydate: '2027-01-31', active: true, expired: false, transferredAway: 'true' },
    });
    const info = await client().getDomainInfo('example.com');
    expect(api.requests[0]?.rawUrl).toBe('/domain/info/example.com');
    expect(info).toMatchObject({ active: true, expired: false, transferredAway: true });
    expect(info.expiryDate?.toISODate()).toBe('2027-01-31');
    expect(info.expiryDate?.zoneName).toBe('Europe/Berlin');

    const quoted = await client().getDomainInfo('example.org');
    expect(quoted).toMatchObject({ active: true, expired: false, transferredAway: false });
  });

  it('PUT /server/set/network/ipv4/rdns sends every parameter in the query', async () => {
    await client().setReverseDns({
      serverId: 7,
      ip: '203.0.113.7/32',
      hostname: 'host.example.com',
      validate: false,
    });
    const [request] = api.requests;
    expect(request?.method).toBe('PUT');
    expect(request?.rawUrl).toBe(
      '/server/set/network/ipv4/rdns?serverid=7&ip=203.0.113.7%2F32&rdns=host.example.com&validate=false',
    );
    expect(request?.headers.authorization).toBe(`Bearer ${api.token}`);
  });

  it('POST /musikbot/user returns the created user with quoted integers', async () => {
    const user = await client().createMusicBotUser({
      username: 'dj',
      password: 'S3cret!pw',
      email: 'dj@example.com',
      storage: 1_000_000,
      bots: 2,
    });
    expect(api.requests[0]?.method).toBe('POST');
    expect(api.requests[0]?.rawUrl).toBe(
      '/musikbot/user?username=dj&password=S3cret!pw&email=dj%40example.com&storage=1000000&bots=2',
    );
    expect(user).toEqual({ id: 4711, username: 'dj', email: 'dj@example.com', storage: 1_000_000, bots: 2 });
  });

  it('POST /panel/license/binding', async () => {
    await client().bindPanelLicense({ license: 'LIC-1', ip: '2001:db8::1' });
    expect(api.requests[0]?.method).toBe('POST');
    expect(api.requests[0]?.rawUrl).toBe('/panel/license/binding?license=LIC-1&ip_address=2001%3Adb8%3A%3A1');
  });

  it('POST /domain/create', async () => {
    await client().createDomain({
      domain: 'example.com',
      ownerC: 'O1',
      adminC: 'A1',
      techC: 'T1',
      zoneC: 'Z1',
      ns1: 'ns1.example.net',
      ns2: 'ns2.example.net',
    });
    expect(api.requests[0]?.method).toBe('POST');
    expect(api.requests[0]?.rawUrl).toBe(
      '/domain/create?domain=example.com&ownerC=O1&adminC=A1&techC=T1&zoneC=Z1&ns1=ns1.example.net&ns2=ns2.example.net',
    );
  });

  it('POST /domain/dns', async () => {
    await client().submitDnsRecords({
      domain: 'example.com',
      records: [{ name: 'www', type: 'A', content: '203.0.113.7', ttl: 60 }],
    });
    expect(api.requests[0]?.method).toBe('POST');
    expect(api.requests[0]?.rawUrl).toBe(
      '/domain/dns?domain=example.com&records=' +
        encodeURIComponent('[{"name":"www","type":"A","content":"203.0.113.7","ttl":60}]'),
    );
  });

  it('keeps a path prefix of the base URL', async () => {
    await client({ baseUrl: `${api.url}/api/v1/` }).getServerLog(3);
    expect(api.requests[0]?.rawUrl).toBe('/api/v1/server/logs/3');
  });
});

describe('parameters arrive exactly as given', () => {
  for (const value of [NASTY, UNICODE, EMOJI]) {
    it(`query and path parameters: ${value}`, async () => {
      const c = client();
      await c.getDomainInfo(value);
      await c.setReverseDns({ serverId: 1, ip: value, hostname: value, validate: true });
      await c.createMusicBotUser({ username: value, password: value, email: value, storage: 1, bots: 1 });
      await c.bindPanelLicense({ license: value, ip: value });
      await c.createDomain({
        domain: value,
        ownerC: value,
        adminC: value,
        techC: value,
        zoneC: value,
        ns1: value,
        ns2: value,
      });
      const records = [{ name: value, type: 'TXT', content: value, ttl: 60 }] as const;
      await c.submitDnsRecords({ domain: value, records: [...records] });

      expect(api.requestsFor('domainInfo')[0]?.param).toBe(value);
      const expectQuery = (op: Parameters<FakeHostingApi['requestsFor']>[0], keys: string[]) => {
        const query = api.requestsFor(op)[0]?.query;
        for (const key of keys) expect(query?.get(key), `${op} ${key}`).toBe(value);
      };
      expectQuery('setReverseDns', ['ip', 'rdns']);
      expectQuery('createMusicBotUser', ['username', 'password', 'email']);
      expectQuery('bindPanelLicense', ['license', 'ip_address']);
      expectQuery('createDomain', ['domain', 'ownerC', 'adminC', 'techC', 'zoneC', 'ns1', 'ns2']);
      expectQuery('submitDnsRecords', ['domain']);
      expect(api.requestsFor('submitDnsRecords')[0]?.query.get('records')).toBe(
        JSON.stringify([{ name: value, type: 'TXT', content: value, ttl: 60 }]),
      );
      // encodeURIComponent semantics on the wire, not form encoding.
      if (value === NASTY)
        expect(api.requestsFor('bindPanelLicense')[0]?.rawUrl).toContain(
          'license=a%20b%26c%3Dd%23e%2Bf%25g&',
        );
    });
  }
});

describe('response parsing', () => {
  it('accepts plain integers for the music-bot user', async () => {
    api.enqueue('createMusicBotUser', {
      body: { id: 9, username: 'u', email: 'e@x.y', storage: 5, bots: 1, extra: 'ignored' },
    });
    const user = await client().createMusicBotUser({
      username: 'u',
      password: 'p4ssw0rd',
      email: 'e@x.y',
      storage: 5,
      bots: 1,
    });
    expect(user).toEqual({ id: 9, username: 'u', email: 'e@x.y', storage: 5, bots: 1 });
  });

  it.each([
    [
      '"maybe" for a boolean',
      'domainInfo',
      { expirydate: '2027-01-01', active: 'maybe', expired: 'false', transferredAway: 'false' },
    ],
    [
      '"1" for a boolean',
      'domainInfo',
      { expirydate: '2027-01-01', active: '1', expired: 'false', transferredAway: 'false' },
    ],
    ['a missing flag', 'domainInfo', { expirydate: '2027-01-01', active: 'true', expired: 'false' }],
    [
      'a malformed date',
      'domainInfo',
      { expirydate: '31.01.2027', active: 'true', expired: 'false', transferredAway: 'false' },
    ],
    [
      '"12abc" for an integer',
      'createMusicBotUser',
      { id: '12abc', username: 'u', email: 'e', storage: '1', bots: '1' },
    ],
    [
      'a fractional integer',
      'createMusicBotUser',
      { id: 1.5, username: 'u', email: 'e', storage: '1', bots: '1' },
    ],
    [
      'a malformed timestamp',
      'serverLog',
      { starttime: '2026-03-01 10:00', endtime: '', type: 't', status: 's' },
    ],
  ] as const)('rejects %s as bad_response', async (_label, operation, body) => {
    api.enqueue(operation, { body });
    const c = client();
    const call =
      operation === 'domainInfo'
        ? c.getDomainInfo('example.com')
        : operation === 'serverLog'
          ? c.getServerLog(1)
          : c.createMusicBotUser({ username: 'u', password: 'pw-secret-1', email: 'e', storage: 1, bots: 1 });
    const error = await failure(call);
    // A change answered 2xx may have been carried out: an unreadable answer leaves it unknown.
    expect(error.kind).toBe(operation === 'createMusicBotUser' ? 'outcome_unknown' : 'bad_response');
    expect(error.status).toBe(200);
    expect(api.requestsFor(operation)).toHaveLength(1);
  });

  it.each([
    ['not JSON', 'createDomain', 'OK'],
    ['a JSON array', 'submitDnsRecords', '[]'],
    ['not JSON', 'setReverseDns', '<html>done</html>'],
  ] as const)(
    'a change answered 2xx with %s is outcome_unknown, not retried (%s)',
    async (_label, operation, body) => {
      api.enqueue(operation, { status: 200, body });
      const c = client();
      const call =
        operation === 'createDomain'
          ? c.createDomain({
              domain: 'd.com',
              ownerC: 'o',
              adminC: 'a',
              techC: 't',
              zoneC: 'z',
              ns1: 'n1',
              ns2: 'n2',
            })
          : operation === 'submitDnsRecords'
            ? c.submitDnsRecords({ domain: 'd.com', records: [] })
            : c.setReverseDns({ serverId: 1, ip: '203.0.113.7', hostname: 'h.example.com', validate: true });
      const error = await failure(call);
      expect(error.kind).toBe('outcome_unknown');
      expect(error.message).toContain('may or may not have been applied');
      expect(error.status).toBe(200);
      expect(api.requestsFor(operation)).toHaveLength(1);
    },
  );

  it('an empty {} answers a changing call', async () => {
    api.enqueue('createDomain', { body: '' });
    await expect(
      client().createDomain({
        domain: 'd.com',
        ownerC: 'o',
        adminC: 'a',
        techC: 't',
        zoneC: 'z',
        ns1: 'n1',
        ns2: 'n2',
      }),
    ).resolves.toBeUndefined();
  });
});

describe('error kinds', () => {
  it.each([
    [401, 'unauthorized'],
    [403, 'unauthorized'],
    [404, 'not_found'],
    [500, 'upstream'],
    [418, 'upstream'],
  ] as const)('%i → %s', async (status, kind) => {
    api.enqueue('domainInfo', { status, body: { error: 'nope' } });
    const error = await failure(client().getDomainInfo('example.com'));
    expect(error.kind).toBe(kind);
    expect(error.status).toBe(status);
    expect(error.operation).toBe('domainInfo');
    expect(error.request).toEqual({ method: 'GET', pathTemplate: '/domain/info/{domain}' });
    expect(error.correlationId).toMatch(/^[0-9a-f]{10}$/);
  });

  it('429 carries retryAfterMs when it gives up', async () => {
    api.respond('domainInfo', () => ({ status: 429, headers: { 'retry-after': '120' }, body: {} }));
    const error = await failure(client().getDomainInfo('example.com'));
    expect(error.kind).toBe('rate_limited');
    expect(error.retryAfterMs).toBe(120_000);
    // 120 s is beyond the 2 s budget: not waited for.
    expect(api.requests).toHaveLength(1);
  });

  it.each([
    ['HTML', '<html><body>Bad Gateway</body></html>'],
    ['plain text', 'oops'],
    ['an empty body', ''],
  ])('%s on a read → bad_response with a snippet', async (_label, body) => {
    api.enqueue('serverLog', { body });
    const error = await failure(client().getServerLog(1));
    expect(error.kind).toBe('bad_response');
    expect(error.snippet).toBe(body.trim());
  });

  it('the snippet never carries a panel license key', async () => {
    api.enqueue('bindPanelLicense', { body: '<p>license LIC-SECRET-9876 is invalid</p>' });
    const error = await failure(client().bindPanelLicense({ license: 'LIC-SECRET-9876', ip: '203.0.113.7' }));
    expect(error.kind).toBe('outcome_unknown');
    expect(error.snippet).toBe('<p>license [REDACTED] is invalid</p>');
  });

  it('the snippet never carries a panel license key percent- or form-encoded, in any hex case', async () => {
    const license = 'LIC/SECRET 9876';
    api.enqueue('bindPanelLicense', {
      body: `<p>GET ?license=${encodeURIComponent(license)} or LIC%2fSECRET+9876 failed</p>`,
    });
    const error = await failure(client().bindPanelLicense({ license, ip: '203.0.113.7' }));
    expect(error.snippet).toBe('<p>GET ?license=[REDACTED] or [REDACTED] failed</p>');
  });

  it('the snippet never carries the token or password', async () => {
    api.enqueue('createMusicBotUser', { body: `<p>token ${api.token} pw Hunter2-secret</p>` });
    const error = await failure(
      client().createMusicBotUser({
        username: 'u',
        password: 'Hunter2-secret',
        email: 'e',
        storage: 1,
        bots: 1,
      }),
    );
    expect(error.kind).toBe('outcome_unknown');
    expect(error.snippet).not.toContain(api.token);
    expect(error.snippet).not.toContain('Hunter2-secret');
    expect(error.snippet).toContain('[REDACTED]');
  });

  it('timeout on a read: given up when the budget runs out, not retried past it', async () => {
    api.respond('serverLog', () => ({ hang: true }));
    const started = performance.now();
    const error = await failure(client({ timeoutMs: 300 }).getServerLog(1));
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe('no answer from the provider within 0.3 s');
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(api.requestsFor('serverLog')).toHaveLength(1);
  });

  it('an answer larger than 1 MiB is cut off: bad_response, not retried', async () => {
    api.enqueue('domainInfo', { body: JSON.stringify({ padding: 'x'.repeat(1024 * 1024) }) });
    const error = await failure(client().getDomainInfo('example.com'));
    expect(error.kind).toBe('bad_response');
    expect(error.message).toBe('provider answer too large');
    expect(api.requestsFor('domainInfo')).toHaveLength(1);
    // Just under the cap is read whole (and then judged by its shape).
    api.enqueue('domainInfo', {
      body: {
        expirydate: '2027-01-31',
        active: 'true',
        expired: 'false',
        transferredAway: 'false',
        padding: 'x'.repeat(1024 * 1024 - 200),
      },
    });
    expect((await client().getDomainInfo('example.com')).active).toBe(true);
  });

  it('a provider that accepts the TCP connection but never completes the handshake: the connect timeout, not the budget', async () => {
    // https to a server that never speaks TLS: the connection is never established.
    const silent = await silentServer();
    try {
      const budgetMs = 10_000;
      const started = performance.now();
      const post = await failure(
        client({
          baseUrl: `https://127.0.0.1:${silent.port}`,
          timeoutMs: budgetMs,
          connectTimeoutMs: 200,
        }).bindPanelLicense({
          license: 'L',
          ip: '192.0.2.1',
        }),
      );
      // Never connected, so never sent: `network`, not "outcome unknown".
      expect(post.kind).toBe('network');
      expect(post.message).toContain('UND_ERR_CONNECT_TIMEOUT');
      expect(post.attempts).toBe(1);
      expect(performance.now() - started).toBeLessThan(budgetMs / 2);
    } finally {
      silent.close();
    }
  });

  it('network failure when nothing listens', async () => {
    const port = await freePort();
    const error = await failure(client({ baseUrl: `http://127.0.0.1:${port}` }).getServerLog(1));
    expect(error.kind).toBe('network');
    expect(error.message).toContain('ECONNREFUSED');
    expect(error.attempts).toBe(3);
  });

  it('a PUT that never connects was never sent: network, not outcome unknown', async () => {
    const port = await freePort();
    const error = await failure(
      client({ baseUrl: `http://127.0.0.1:${port}` }).setReverseDns({
        serverId: 1,
        ip: '192.0.2.1',
        hostname: 'h.example.com',
        validate: true,
      }),
    );
    expect(error.kind).toBe('network');
    expect(error.attempts).toBe(3);
  });

  it('a POST that cannot even connect was not sent: network, not outcome unknown', async () => {
    const port = await freePort();
    const error = await failure(
      client({ baseUrl: `http://127.0.0.1:${port}` }).bindPanelLicense({ license: 'L', ip: '192.0.2.1' }),
    );
    expect(error.kind).toBe('network');
    expect(error.attempts).toBe(1);
  });
});

describe('request size', () => {
  const records = (count: number, length: number) =>
    Array.from({ length: count }, (_, i) => ({
      name: `r${i}`,
      type: 'TXT' as const,
      content: 'x'.repeat(length),
      ttl: 3600,
    }));

  it('measures exactly the request target that goes over the wire', async () => {
    const c = client({ baseUrl: `${api.url}/api/v1` });
    const input = { domain: 'bücher.de', records: records(3, 40) };
    const bytes = c.requestTargetBytes('submitDnsRecords', input);
    await c.submitDnsRecords(input);
    expect(Buffer.byteLength(api.requests[0]?.rawUrl ?? '')).toBe(bytes);
  });

  it('refuses a target over maxUrlBytes without sending anything', async () => {
    const c = client({ maxUrlBytes: 1000 });
    const input = { domain: 'example.com', records: records(20, 60) };
    expect(c.requestTargetBytes('submitDnsRecords', input)).toBeGreaterThan(1000);
    const error = await failure(c.submitDnsRecords(input));
    expect(error.kind).toBe('request_too_large');
    expect(error.message).toMatch(/^request of \d+ bytes is larger than the 1000 bytes allowed; not sent$/);
    expect(api.requests).toHaveLength(0);
  });

  for (const status of [414, 431]) {
    it(`maps ${status} to request_too_large, never retried, on a POST and on the retried PUT`, async () => {
      api.enqueue('submitDnsRecords', { status, body: 'URI Too Long' });
      const post = await failure(
        client().submitDnsRecords({ domain: 'example.com', records: records(1, 5) }),
      );
      expect(post.kind).toBe('request_too_large');
      expect(post.status).toBe(status);
      api.enqueue('setReverseDns', { status });
      api.enqueue('setReverseDns', { status });
      const put = await failure(
        client().setReverseDns({ serverId: 1, ip: '203.0.113.7', hostname: 'h.example.com', validate: true }),
      );
      expect(put.kind).toBe('request_too_large');
      expect(api.requestsFor('submitDnsRecords')).toHaveLength(1);
      expect(api.requestsFor('setReverseDns')).toHaveLength(1);
    });
  }
});

describe('retry policy', () => {
  it('retries a GET after 503 with Retry-After and succeeds', async () => {
    api.enqueue('domainInfo', { status: 503, headers: { 'retry-after': '1' }, body: {} });
    const budgetMs = 5_000;
    const started = performance.now();
    const info = await client({ timeoutMs: budgetMs }).getDomainInfo('example.com');
    expect(info.active).toBe(true);
    expect(api.requestsFor('domainInfo')).toHaveLength(2);
    const [first, second] = api.requestsFor('domainInfo');
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(950);
    expect(performance.now() - started).toBeLessThan(budgetMs);
  });

  it('honours Retry-After given as an HTTP date', async () => {
    // An HTTP date has whole seconds: a second from now, rounded up, is 1–2 s away.
    const at = new Date(Math.ceil((Date.now() + 1_000) / 1000) * 1000);
    api.enqueue('domainInfo', { status: 503, headers: { 'retry-after': at.toUTCString() }, body: {} });
    const info = await client({ timeoutMs: 8_000 }).getDomainInfo('example.com');
    expect(info.active).toBe(true);
    const [first, second] = api.requestsFor('domainInfo');
    expect(api.requestsFor('domainInfo')).toHaveLength(2);
    // Not before the date (the fake stamps arrivals on the same clock, give or take a millisecond).
    expect(performance.timeOrigin + (second?.at ?? 0)).toBeGreaterThanOrEqual(at.getTime() - 5);
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(900);
  });

  it.each([502, 503, 504, 429])('retries the idempotent PUT after %i', async (status) => {
    api.enqueue('setReverseDns', { status, headers: { 'retry-after': '0' }, body: {} });
    api.enqueue('setReverseDns', { status, headers: { 'retry-after': '0' }, body: {} });
    await client().setReverseDns({ serverId: 1, ip: '192.0.2.1', hostname: 'h.example.com', validate: true });
    const sent = api.requestsFor('setReverseDns');
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((r) => r.rawUrl)).size).toBe(1);
  });

  it('retries the idempotent PUT after a connection reset', async () => {
    api.enqueue('setReverseDns', { destroy: true });
    await client().setReverseDns({ serverId: 1, ip: '192.0.2.1', hostname: 'h.example.com', validate: true });
    expect(api.requestsFor('setReverseDns')).toHaveLength(2);
  });

  it('a PUT whose connection breaks on every attempt may have been applied: outcome unknown, not network', async () => {
    for (let n = 0; n < 3; n++) api.enqueue('setReverseDns', { destroy: true });
    const error = await failure(
      client().setReverseDns({ serverId: 1, ip: '192.0.2.1', hostname: 'h.example.com', validate: true }),
    );
    expect(error.kind).toBe('outcome_unknown');
    expect(error.message).toBe(
      'connection lost before the provider answered; the change may or may not have been applied',
    );
    expect(error.attempts).toBe(3);
    expect(api.requestsFor('setReverseDns')).toHaveLength(3);
  });

  const rdns = () => ({ serverId: 1, ip: '192.0.2.1', hostname: 'h.example.com', validate: true });

  it.each([
    [503, 'upstream'],
    [429, 'rate_limited'],
  ])(
    'a PUT that lost its connection once sent and then got %i on every retry may have been applied: outcome unknown',
    async (status) => {
      api.enqueue('setReverseDns', { destroy: true });
      api.respond('setReverseDns', () => ({ status, headers: { 'retry-after': '0' }, body: {} }));
      const error = await failure(client().setReverseDns(rdns()));
      expect(error.kind).toBe('outcome_unknown');
      expect(error.message).toBe(
        'connection lost before the provider answered; the change may or may not have been applied',
      );
      // The reason is the attempt that may have arrived, not the retry's status.
      expect(error.status).toBeUndefined();
      expect(error.attempts).toBe(3);
      expect(api.requestsFor('setReverseDns')).toHaveLength(3);
    },
  );

  it.each([502, 504])(
    'a PUT answered %i by a gateway on every attempt may have been applied: outcome unknown',
    async (status) => {
      api.respond('setReverseDns', () => ({
        status,
        headers: { 'retry-after': '0' },
        body: '<html>Bad Gateway</html>',
      }));
      const error = await failure(client().setReverseDns(rdns()));
      expect(error.kind).toBe('outcome_unknown');
      expect(error.status).toBe(status);
      expect(error.message).toBe(
        `provider gateway answered ${status}; the change may or may not have been applied`,
      );
      expect(error.attempts).toBe(3);
      expect(api.requestsFor('setReverseDns')).toHaveLength(3);
    },
  );

  it('a PUT answered 502 and then 503: the gateway may have passed it on, outcome unknown', async () => {
    api.enqueue('setReverseDns', { status: 502, headers: { 'retry-after': '0' }, body: {} });
    api.respond('setReverseDns', () => ({ status: 503, headers: { 'retry-after': '0' }, body: {} }));
    const error = await failure(client().setReverseDns(rdns()));
    expect(error.kind).toBe('outcome_unknown');
    expect(error.status).toBe(502);
  });

  it('a PUT answered 503 on every attempt never reached the provider: upstream, not unknown', async () => {
    api.respond('setReverseDns', () => ({ status: 503, headers: { 'retry-after': '0' }, body: {} }));
    const error = await failure(client().setReverseDns(rdns()));
    expect(error.kind).toBe('upstream');
    expect(error.attempts).toBe(3);
  });

  it('a PUT whose retry is refused as such (404) after a lost connection: the same request was refused, not unknown', async () => {
    api.enqueue('setReverseDns', { destroy: true }, { status: 404, body: { error: 'no such server' } });
    const error = await failure(client().setReverseDns(rdns()));
    expect(error.kind).toBe('not_found');
    expect(api.requestsFor('setReverseDns')).toHaveLength(2);
  });

  it('a PUT that times out may have been applied: outcome unknown, with the time it waited', async () => {
    api.enqueue('setReverseDns', { hang: true });
    const error = await failure(client({ timeoutMs: 300 }).setReverseDns(rdns()));
    expect(error.kind).toBe('outcome_unknown');
    expect(error.timeoutMs).toBe(300);
    expect(error.message).toBe('no answer within 0.3 s; the change may or may not have been applied');
  });

  it('gives up after maxAttempts on repeated 502', async () => {
    api.respond('serverLog', () => ({ status: 502, body: {} }));
    const error = await failure(client().getServerLog(1));
    expect(error.kind).toBe('upstream');
    expect(error.attempts).toBe(3);
    expect(api.requestsFor('serverLog')).toHaveLength(3);
  });

  it('does not retry a 500 or 404', async () => {
    api.enqueue('serverLog', { status: 500, body: {} });
    await failure(client().getServerLog(1));
    expect(api.requestsFor('serverLog')).toHaveLength(1);
  });

  it('a POST hit by a connection reset is sent exactly once and reports outcome unknown', async () => {
    api.enqueue('createDomain', { destroy: true });
    const error = await failure(
      client().createDomain({
        domain: 'd.com',
        ownerC: 'o',
        adminC: 'a',
        techC: 't',
        zoneC: 'z',
        ns1: 'n1',
        ns2: 'n2',
      }),
    );
    expect(error.kind).toBe('outcome_unknown');
    expect(error.attempts).toBe(1);
    expect(api.requestsFor('createDomain')).toHaveLength(1);
  });

  it('a POST that times out reports outcome unknown and is not repeated', async () => {
    api.enqueue('submitDnsRecords', { hang: true });
    const error = await failure(
      client({ timeoutMs: 300 }).submitDnsRecords({ domain: 'd.com', records: [] }),
    );
    expect(error.kind).toBe('outcome_unknown');
    expect(error.message).toContain('no answer within');
    expect(api.requestsFor('submitDnsRecords')).toHaveLength(1);
  });

  it.each([
    [503, 'upstream'],
    [429, 'rate_limited'],
  ])('a POST answered %i is not retried (%s)', async (status, kind) => {
    api.respond('bindPanelLicense', () => ({ status, headers: { 'retry-after': '0' }, body: {} }));
    const error = await failure(client().bindPanelLicense({ license: 'L', ip: '192.0.2.1' }));
    expect(error.kind).toBe(kind);
    expect(error.status).toBe(status);
    expect(error.attempts).toBe(1);
    expect(api.requestsFor('bindPanelLicense')).toHaveLength(1);
  });

  it.each([502, 504])(
    'a POST answered %i by a gateway is "outcome unknown", sent exactly once',
    async (status) => {
      api.respond('createDomain', () => ({
        status,
        headers: { 'retry-after': '0' },
        body: '<html>Bad Gateway</html>',
      }));
      const error = await failure(
        client().createDomain({
          domain: 'd.com',
          ownerC: 'o',
          adminC: 'a',
          techC: 't',
          zoneC: 'z',
          ns1: 'n1',
          ns2: 'n2',
        }),
      );
      expect(error.kind).toBe('outcome_unknown');
      expect(error.status).toBe(status);
      expect(error.message).toBe(
        `provider gateway answered ${status}; the change may or may not have been applied`,
      );
      expect(error.attempts).toBe(1);
      expect(api.requestsFor('createDomain')).toHaveLength(1);
    },
  );
});

describe('connections', () => {
  it('reuses one socket for many sequential calls', async () => {
    const c = client();
    const before = api.connectionCount;
    for (let i = 0; i < 25; i++) await c.getDomainInfo(`d${i}.example`);
    expect(new Set(api.requests.map((r) => r.socketId)).size).toBe(1);
    expect(api.connectionCount - before).toBe(1);
  });

  it('caps requests in flight at maxConnections, and uses them all', async () => {
    const inFlight = { now: 0, max: 0 };
    api.respond('domainInfo', async () => {
      inFlight.now++;
      inFlight.max = Math.max(inFlight.max, inFlight.now);
      // Held until all three connections are busy (or long enough to show they never will be).
      const deadline = performance.now() + 5_000;
      while (inFlight.now < 3 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, 20));
      inFlight.now--;
      return {
        body: { expirydate: '2027-01-31', active: 'true', expired: 'false', transferredAway: 'false' },
      };
    });
    const c = client({ maxConnections: 3, timeoutMs: 10_000 });
    await Promise.all(Array.from({ length: 12 }, (_, i) => c.getDomainInfo(`d${i}.example`)));
    expect(api.requestsFor('domainInfo')).toHaveLength(12);
    expect(inFlight.max).toBe(3);
    expect(new Set(api.requests.map((r) => r.socketId)).size).toBe(3);
  });
});

describe('logging', () => {
  it('logs operation, path template, status and duration, never the token, query or password', async () => {
    const c = client();
    await c.createMusicBotUser({
      username: 'u',
      password: 'Very-Secret-Pw-991',
      email: 'e@x.y',
      storage: 1,
      bots: 1,
    });
    api.enqueue('createMusicBotUser', { destroy: true });
    await failure(
      c.createMusicBotUser({
        username: 'u',
        password: 'Very-Secret-Pw-992',
        email: 'e@x.y',
        storage: 1,
        bots: 1,
      }),
    );
    api.enqueue('domainInfo', { status: 401, body: {} });
    const error = await failure(c.getDomainInfo('example.com'));
    logs.logger.error({ err: error }, 'as the chat layer would log it');

    const entries = logs.entries();
    expect(
      entries.some(
        (e) =>
          e.op === 'createMusicBotUser' &&
          e.path === '/musikbot/user' &&
          e.status === 200 &&
          typeof e.ms === 'number',
      ),
    ).toBe(true);
    expect(entries.some((e) => e.cid === error.correlationId)).toBe(true);
    expect(logs.text).not.toContain(api.token);
    expect(logs.text).not.toContain('Very-Secret-Pw');
    expect(logs.text).not.toContain('password=');
    expect(logs.text).not.toContain('?');
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('3')).toBe(3_000);
    expect(
      parseRetryAfter('Wed, 21 Oct 2026 07:28:10 GMT', Date.parse('Wed, 21 Oct 2026 07:28:00 GMT')),
    ).toBe(10_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    // Neither a number nor an HTTP-date: ignored, not read as a date (Date.parse: 1 January 2099).
    expect(parseRetryAfter('in a while 2099')).toBeUndefined();
    expect(parseRetryAfter('Sunday, 06-Nov-94 08:49:37 GMT', Date.parse('1994-11-06T08:49:30Z'))).toBe(7_000);
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});

/** A TCP server that accepts connections and never says a word (nor completes a TLS handshake). */
async function silentServer(): Promise<{ port: number; close(): void }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    close() {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}
