import { DateTime } from 'luxon';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostingApiError } from '../../src/hosting/HostingApiError.js';
import { HostingClient } from '../../src/hosting/HostingClient.js';
import { SANDBOX_SERVER_IDS } from '../../src/sandbox/sandboxData.js';
import { SANDBOX_HEADER, type Sandbox, startSandbox } from '../../src/sandbox/startSandbox.js';

// Pinned clock: 2026-11-22 11:00 in Europe/Berlin (CET, UTC+1).
const NOW = new Date('2026-11-22T10:00:00Z');
const ZONE = 'Europe/Berlin';

let sandbox: Sandbox;
let client: HostingClient;

function clientFor(token: string): HostingClient {
  return new HostingClient({
    baseUrl: sandbox.url,
    token,
    timeoutMs: 3000,
    timeZone: ZONE,
    logger: pino({ level: 'silent' }),
    retry: { maxAttempts: 1 },
  });
}

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => NOW });
  client = clientFor(sandbox.token);
});
afterAll(async () => {
  await client?.close();
  await sandbox?.close();
});

/** The HostingApiError a call fails with. */
async function failure(call: Promise<unknown>): Promise<HostingApiError> {
  const error = await call.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HostingApiError);
  return error as HostingApiError;
}

/** A raw HTTP request, to see exactly what the sandbox sends. */
async function raw(method: string, target: string, token = sandbox.token) {
  const response = await fetch(`${sandbox.url}${target}`, {
    method,
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const isoDate = (days: number) => DateTime.fromJSDate(NOW, { zone: ZONE }).plus({ days }).toISODate();

describe('sandbox through the real HostingClient', () => {
  it('listens on 127.0.0.1 with a token of its own', () => {
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.token.length).toBeGreaterThanOrEqual(20);
  });

  it('GET /server/logs/{id}: the newest entry, its timestamps read in Europe/Berlin', async () => {
    expect(SANDBOX_SERVER_IDS).toContain(42);
    const entry = await client.getServerLog(42);
    expect(entry).toEqual({
      type: 'reinstall',
      status: 'success',
      // 27 h 14 min before the pinned clock, 6 min 12 s long.
      start: new Date('2026-11-21T06:46:00Z'),
      end: new Date('2026-11-21T06:52:12Z'),
    });
  });

  it('GET /server/logs/{id}: a job still running has no end', async () => {
    const entry = await client.getServerLog(4711);
    expect(entry.status).toBe('running');
    expect(entry.start).toEqual(new Date('2026-11-22T09:48:00Z'));
    expect(entry.end).toBeNull();
  });

  it('GET /domain/info/{domain}: a normal domain', async () => {
    const info = await client.getDomainInfo('example.com');
    expect(info.expiryDate?.toISODate()).toBe(isoDate(214));
    expect(info).toMatchObject({ active: true, expired: false, transferredAway: false });
  });

  it('GET /domain/info/{domain}: an IDN by its punycode', async () => {
    const info = await client.getDomainInfo('xn--bcher-kva.example');
    expect(info.expiryDate?.toISODate()).toBe(isoDate(96));
    expect(info.active).toBe(true);
  });

  it('GET /domain/info/{domain}: expiry dates within 7, 14 and 30 days', async () => {
    const days = async (domain: string) => {
      const info = await client.getDomainInfo(domain);
      return info.expiryDate?.diff(DateTime.fromJSDate(NOW, { zone: ZONE }).startOf('day'), 'days').days;
    };
    expect(await days('example.net')).toBe(5);
    expect(await days('example.org')).toBe(12);
    expect(await days('shop.example')).toBe(27);
  });

  it('GET /domain/info/{domain}: an expired, an inactive and a transferred one', async () => {
    const expired = await client.getDomainInfo('old-brand.example');
    expect(expired).toMatchObject({ active: false, expired: true, transferredAway: false });
    expect(expired.expiryDate?.toISODate()).toBe(isoDate(-9));
    expect(await client.getDomainInfo('parked.example')).toMatchObject({
      active: false,
      expired: false,
      transferredAway: false,
    });
    expect(await client.getDomainInfo('moved-away.example')).toMatchObject({
      expired: false,
      transferredAway: true,
    });
  });

  it('an unknown domain or server is not_found (404)', async () => {
    const domain = await failure(client.getDomainInfo('nowhere.example'));
    expect(domain).toMatchObject({ kind: 'not_found', status: 404 });
    expect(domain.snippet).toContain('nowhere.example');
    const server = await failure(client.getServerLog(999));
    expect(server).toMatchObject({ kind: 'not_found', status: 404 });
    const rdns = await failure(
      client.setReverseDns({ serverId: 999, ip: '203.0.113.9', hostname: 'x.example.com', validate: false }),
    );
    expect(rdns.kind).toBe('not_found');
    const dns = await failure(
      client.submitDnsRecords({
        domain: 'nowhere.example',
        records: [{ name: '@', type: 'A', content: '192.0.2.1', ttl: 3600 }],
      }),
    );
    expect(dns.kind).toBe('not_found');
  });

  it('PUT /server/set/network/ipv4/rdns is accepted and remembered (and logged on the server)', async () => {
    await client.setReverseDns({
      serverId: 42,
      ip: '203.0.113.7/32',
      hostname: 'www.example.com',
      validate: true,
    });
    expect(sandbox.state.servers.get(42)?.rdns.get('203.0.113.7/32')).toBe('www.example.com');
    const entry = await client.getServerLog(42);
    expect(entry).toMatchObject({ type: 'rdns', status: 'success', end: NOW });
  });

  it('PUT rdns with validate=true refuses a name that cannot resolve', async () => {
    const error = await failure(
      client.setReverseDns({ serverId: 7, ip: '203.0.113.80', hostname: 'host.invalid', validate: true }),
    );
    expect(error).toMatchObject({ kind: 'upstream', status: 400 });
    expect(error.snippet).toContain('does not resolve');
  });

  it('POST /musikbot/user answers the user with increasing ids', async () => {
    const input = {
      username: 'dj-sandbox',
      password: 'Secr3t-Passw0rd',
      email: 'dj@example.com',
      storage: 5_368_709_120,
      bots: 2,
    };
    const first = await client.createMusicBotUser(input);
    expect(first).toEqual({
      id: expect.any(Number),
      username: 'dj-sandbox',
      email: 'dj@example.com',
      storage: 5_368_709_120,
      bots: 2,
    });
    const second = await client.createMusicBotUser({ ...input, username: 'dj-two' });
    expect(second.id).toBe(first.id + 1);
  });

  it('POST /panel/license/binding is accepted and remembered', async () => {
    await client.bindPanelLicense({ license: 'PANEL-TEST-1234', ip: '2001:db8::10' });
    expect(sandbox.state.licenseBindings.get('PANEL-TEST-1234')).toBe('2001:db8::10');
  });

  it('POST /domain/create: afterwards /domain/info knows the domain, active, one year out', async () => {
    await expect(client.getDomainInfo('new-shop.example')).rejects.toMatchObject({ kind: 'not_found' });
    await client.createDomain({
      domain: 'new-shop.example',
      ownerC: 'OWN-1',
      adminC: 'ADM-1',
      techC: 'TEC-1',
      zoneC: 'ZON-1',
      ns1: 'ns1.example.net',
      ns2: 'ns2.example.net',
    });
    const info = await client.getDomainInfo('new-shop.example');
    expect(info).toMatchObject({ active: true, expired: false, transferredAway: false });
    expect(info.expiryDate?.toISODate()).toBe(isoDate(365));
  });

  it('POST /domain/create refuses a domain that is already registered here', async () => {
    const error = await failure(
      client.createDomain({
        domain: 'example.com',
        ownerC: 'OWN-1',
        adminC: 'ADM-1',
        techC: 'TEC-1',
        zoneC: 'ZON-1',
        ns1: 'ns1.example.net',
        ns2: 'ns2.example.net',
      }),
    );
    expect(error).toMatchObject({ kind: 'upstream', status: 409 });
  });

  it('POST /domain/dns stores the records of the JSON array string', async () => {
    const records = [
      { name: '@', type: 'A' as const, content: '192.0.2.10', ttl: 3600 },
      { name: '@', type: 'MX' as const, content: 'mail.example.com', ttl: 3600, prio: 10 },
    ];
    await client.submitDnsRecords({ domain: 'example.org', records });
    expect(sandbox.state.domains.get('example.org')?.records).toEqual(records);
  });

  it('a wrong token is unauthorized (401)', async () => {
    const stranger = clientFor('not-the-sandbox-token');
    try {
      const error = await failure(stranger.getDomainInfo('example.com'));
      expect(error).toMatchObject({ kind: 'unauthorized', status: 401 });
    } finally {
      await stranger.close();
    }
  });
});

describe('sandbox on the wire', () => {
  it('quotes booleans and integers as the spec sample bodies do, and marks itself', async () => {
    const info = await raw('GET', '/domain/info/example.com');
    expect(info.status).toBe(200);
    expect(info.headers.get('content-type')).toMatch(/^application\/json/);
    expect(info.headers.get(SANDBOX_HEADER)).toBe('true');
    expect(JSON.parse(info.text)).toEqual({
      expirydate: isoDate(214),
      active: 'true',
      expired: 'false',
      transferredAway: 'false',
    });
    const user = await raw(
      'POST',
      '/musikbot/user?username=raw&password=pw-123456&email=raw%40example.com&storage=1024&bots=1',
    );
    const body = JSON.parse(user.text) as Record<string, unknown>;
    expect(body).toMatchObject({ username: 'raw', email: 'raw@example.com', storage: '1024', bots: '1' });
    expect(body.id).toMatch(/^\d+$/);
    expect(user.text).not.toContain('pw-123456');
    expect(await raw('POST', '/panel/license/binding?license=L-1&ip_address=192.0.2.7')).toMatchObject({
      status: 200,
      text: '{}',
    });
  });

  it('looks a Unicode name up by its punycode', async () => {
    const info = await raw('GET', `/domain/info/${encodeURIComponent('bücher.example')}`);
    expect(info.status).toBe(200);
  });

  it('answers 400 with a small JSON error for a missing or malformed parameter', async () => {
    const missing = await raw(
      'PUT',
      '/server/set/network/ipv4/rdns?serverid=42&ip=203.0.113.7&validate=false',
    );
    expect(missing.status).toBe(400);
    expect(JSON.parse(missing.text)).toEqual({ error: 'bad_request', message: 'missing parameter: rdns' });
    const records = await raw(
      'POST',
      `/domain/dns?domain=example.com&records=${encodeURIComponent('[{"name":')}`,
    );
    expect(records.status).toBe(400);
    expect(JSON.parse(records.text)).toMatchObject({ error: 'bad_request' });
    const storage = await raw(
      'POST',
      '/musikbot/user?username=a&password=b&email=a%40example.com&storage=lots&bots=1',
    );
    expect(storage.status).toBe(400);
  });

  it('answers 401 without the bearer token, 404 for an unknown route, 405 for a wrong method', async () => {
    const anonymous = await fetch(`${sandbox.url}/domain/info/example.com`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: 'unauthorized' });
    expect((await raw('GET', '/domain/list')).status).toBe(404);
    expect((await raw('GET', '/domain/create?domain=x.example')).status).toBe(405);
  });

  it('a second sandbox starts fresh, with another token', async () => {
    const other = await startSandbox({ now: () => NOW });
    try {
      expect(other.token).not.toBe(sandbox.token);
      expect(other.state.domains.has('new-shop.example')).toBe(false);
    } finally {
      await other.close();
    }
  });
});
