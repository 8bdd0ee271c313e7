// Asking the registry for one domain through the real RDAP client and a real SQLite store, against a fake
// registry on loopback (plain http: its bootstrap URL is http): hostile expiration dates are unreadable,
// never a wrong date; a command asks only when the stored answer is a day old.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { registryBeside } from '../../commands/domain/registryBeside.js';
import { parseConfig } from '../../src/config.js';
import type { RegistryCheck } from '../../src/rdap/RegistryCheck.js';
import { createRegistryCheck } from '../../src/runtime/createRegistryCheck.js';
import { openStore, type Store } from '../../src/store/index.js';
import { captureLogs } from '../support/captureLogs.js';
import { bootstrapFile, domainObject, FakeRdapServer } from '../support/FakeRdapServer.js';

const NOW = new Date('2030-03-01T07:00:00.000Z');
const HOUR = 3_600_000;

let fake: FakeRdapServer;
let store: Store;
let registry: RegistryCheck;
const clock = { now: NOW };
const logs = captureLogs();

beforeAll(async () => {
  fake = await FakeRdapServer.start();
  store = await openStore('sqlite::memory:');
  const config = parseConfig({
    DISCORD_TOKEN: 'x',
    DISCORD_GUILD_ID: '300000000000000001',
    HOSTING_API_URL: 'https://api.example.com',
    HOSTING_API_TOKEN: 'tok-123456',
    RDAP_BOOTSTRAP_URL: `${fake.origin}/dns.json`,
    RDAP_MIN_INTERVAL_MS: '0',
  });
  registry = createRegistryCheck({
    config,
    store,
    logger: logs.logger,
    now: () => clock.now,
  }) as RegistryCheck;
});
afterAll(async () => {
  await registry?.close();
  await store?.close();
  await fake?.stop();
});
beforeEach(() => {
  fake.reset();
  clock.now = NOW;
  fake.responder = (path) =>
    path === '/dns.json' ? { body: bootstrapFile([[['alpha'], [fake.base]]]) } : undefined;
});

const domainPaths = () => fake.paths.filter((p) => p.includes('/domain/'));

describe('the registry’s expiration date', () => {
  it.each([
    ['a bare number (Date.parse: 2001-01-01)', '1'],
    ['words (Date.parse: 7 March 2001)', 'March 7'],
    ['a day the month does not have (Date.parse: 2 March)', '2031-02-30T00:00:00Z'],
    ['no offset (Date.parse: the process’s own zone)', '2031-01-10T12:00:00'],
    ['a year alone', '2031'],
  ])('%s is unreadable, never a date', async (_name, eventDate) => {
    fake.domains.set('odd.alpha', {
      body: {
        ...domainObject('odd.alpha'),
        events: [{ eventAction: 'expiration', eventDate }],
      },
    });
    expect(await registry.ask('odd.alpha')).toEqual({
      kind: 'unreadable',
      server: fake.origin,
      why: 'expiration date is not a date',
    });
  });

  it('an RFC 3339 date-time with its offset is read as that instant', async () => {
    fake.domains.set('fine.alpha', {
      body: domainObject('fine.alpha', { expires: '2031-01-10T23:30:00.5-02:00' }),
    });
    expect(await registry.ask('fine.alpha')).toMatchObject({
      kind: 'ok',
      expiresAt: '2031-01-11T01:30:00.500Z',
    });
  });
});

describe('a command’s look-up', () => {
  it('asks only when the stored answer is a day old', async () => {
    fake.domains.set('cmd.alpha', {
      body: domainObject('cmd.alpha', { expires: '2031-01-10T12:00:00Z' }),
    });
    const context = { registry, store, logger: logs.logger, now: () => clock.now };
    const entry = { domain: 'cmd.alpha', unicode: 'cmd.alpha', providerExpiry: '2031-01-10' };
    const first = (await registryBeside(context, [entry])).get('cmd.alpha');
    expect(first?.record?.readAt).toEqual(NOW);
    expect(domainPaths()).toEqual(['/rdap/domain/cmd.alpha']);
    // 23 h 59 min later: the stored answer is shown, nothing is asked.
    clock.now = new Date(NOW.getTime() + 24 * HOUR - 60_000);
    const again = (await registryBeside(context, [entry])).get('cmd.alpha');
    expect(again?.record?.readAt).toEqual(NOW);
    expect(domainPaths()).toHaveLength(1);
    // A day old: asked again.
    clock.now = new Date(NOW.getTime() + 24 * HOUR);
    const day = (await registryBeside(context, [entry])).get('cmd.alpha');
    expect(day?.record?.readAt).toEqual(clock.now);
    expect(domainPaths()).toHaveLength(2);
  });
});
