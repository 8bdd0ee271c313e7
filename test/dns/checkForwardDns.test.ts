import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemResolver } from '../../src/dns/AddressResolver.js';
import { checkForwardDns } from '../../src/dns/checkForwardDns.js';
import { FakeDnsServer } from '../support/FakeDnsServer.js';

let dns: FakeDnsServer;
beforeAll(async () => {
  dns = await FakeDnsServer.start();
  dns.set('mail.example.com', { a: ['203.0.113.7'] });
  dns.set('multi.example.com', { a: ['198.51.100.2', '203.0.113.7'] });
  dns.set('other.example.com', { a: ['198.51.100.9', '198.51.100.1'] });
  dns.set('empty.example.com', 'nodata');
  dns.set('silent.example.com', 'silent');
});
afterAll(() => dns.stop());

const check = (hostname: string, budgetMs = 2_000) =>
  checkForwardDns(hostname, '203.0.113.7', { resolver: systemResolver([dns.address]), budgetMs });

describe('checkForwardDns against a local DNS server', () => {
  it('match: the host name resolves to the address', async () => {
    expect(await check('mail.example.com')).toEqual({ kind: 'match', addresses: ['203.0.113.7'] });
    expect(await check('multi.example.com')).toEqual({
      kind: 'match',
      addresses: ['198.51.100.2', '203.0.113.7'],
    });
  });

  it('mismatch: it resolves to other addresses only, named', async () => {
    expect(await check('other.example.com')).toEqual({
      kind: 'mismatch',
      addresses: ['198.51.100.1', '198.51.100.9'],
    });
  });

  it('no address: NXDOMAIN, or the name has no A record', async () => {
    expect(await check('nothing.example.com')).toEqual({ kind: 'no_address' });
    expect(await check('empty.example.com')).toEqual({ kind: 'no_address' });
  });

  it('a silent server: unchecked (timeout) within the budget', async () => {
    const started = performance.now();
    const result = await check('silent.example.com', 600);
    expect(result).toMatchObject({ kind: 'unchecked', reason: 'timeout' });
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
