import { describe, expect, it } from 'vitest';
import { parseIpAddress, parseIpv4WithPrefix } from '../../src/validation/parseIp.js';
import { de, expectInvalid } from './expectInvalid.js';

describe('parseIpv4WithPrefix', () => {
  it('accepts an address with or without a prefix, returned as typed', () => {
    expect(parseIpv4WithPrefix('203.0.113.7')).toBe('203.0.113.7');
    expect(parseIpv4WithPrefix(' 203.0.113.7/32 ')).toBe('203.0.113.7/32');
    expect(parseIpv4WithPrefix('203.0.113.0/24')).toBe('203.0.113.0/24');
    expect(parseIpv4WithPrefix('0.0.0.0/0')).toBe('0.0.0.0/0');
    expect(parseIpv4WithPrefix('10.0.0.0/8')).toBe('10.0.0.0/8');
  });

  it('rejects prefixes outside /0–/32', () => {
    expectInvalid(
      () => parseIpv4WithPrefix('203.0.113.7/33'),
      'prefix length "/33" is not between /0 and /32',
    );
    expectInvalid(() => parseIpv4WithPrefix('203.0.113.7/-1'), /prefix length "\/-1"/);
    expectInvalid(() => parseIpv4WithPrefix('203.0.113.7/100'), /prefix length "\/100"/);
    expectInvalid(() => parseIpv4WithPrefix('203.0.113.7/'), /prefix length "\/"/);
    expectInvalid(() => parseIpv4WithPrefix('203.0.113.7/24/8'), /prefix length "\/24\/8"/);
    expectInvalid(() => parseIpv4WithPrefix('203.0.113.7/ 24'), /prefix length/);
  });

  it('rejects prefixes with a leading zero', () => {
    expectInvalid(() => parseIpv4WithPrefix('10.0.0.0/08'), /prefix length "\/08"/);
    expectInvalid(() => parseIpv4WithPrefix('10.0.0.0/00'), /prefix length "\/00"/);
  });

  it('rejects malformed addresses', () => {
    expectInvalid(() => parseIpv4WithPrefix('1.2.3'), '"1.2.3" is not a valid IPv4 address');
    expectInvalid(() => parseIpv4WithPrefix('256.1.1.1'), '"256.1.1.1" is not a valid IPv4 address');
    expectInvalid(() => parseIpv4WithPrefix('01.2.3.4'), '"01.2.3.4" is not a valid IPv4 address');
    expectInvalid(() => parseIpv4WithPrefix('1.2.3.4.5'), /not a valid IPv4 address/);
    expectInvalid(() => parseIpv4WithPrefix('example.com'), /not a valid IPv4 address/);
    expectInvalid(() => parseIpv4WithPrefix('1.2.3.4 5'), /not a valid IPv4 address/);
    expectInvalid(() => parseIpv4WithPrefix('a b&c=d#e+f%g'), /not a valid IPv4 address/);
    expectInvalid(() => parseIpv4WithPrefix('１.２.３.４'), /not a valid IPv4 address/);
  });

  it('rejects IPv6', () => {
    expectInvalid(() => parseIpv4WithPrefix('2001:db8::1'), '"2001:db8::1" is an IPv6 address');
    expectInvalid(() => parseIpv4WithPrefix('2001:db8::/32'), '"2001:db8::" is an IPv6 address');
  });

  it('rejects empty and very long input without echoing it all', () => {
    expectInvalid(() => parseIpv4WithPrefix(''), 'no IPv4 address given');
    expectInvalid(() => parseIpv4WithPrefix('  '), 'no IPv4 address given');
    const error = expectInvalid(() => parseIpv4WithPrefix('1'.repeat(10_000)), /not a valid IPv4 address/);
    expect(error.message.length).toBeLessThan(120);
  });
});

describe('parseIpAddress', () => {
  it('accepts IPv4 and IPv6 addresses, returned as typed', () => {
    expect(parseIpAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(parseIpAddress(' 2001:DB8::1 ')).toBe('2001:DB8::1');
    expect(parseIpAddress('::')).toBe('::');
    expect(parseIpAddress('::ffff:203.0.113.7')).toBe('::ffff:203.0.113.7');
  });

  it('rejects prefixes and zone indexes', () => {
    expectInvalid(() => parseIpAddress('203.0.113.0/24'), /has a prefix length/);
    expectInvalid(() => parseIpAddress('2001:db8::/32'), /has a prefix length/);
    expectInvalid(() => parseIpAddress('fe80::1%eth0'), /has a zone index/);
  });

  it('rejects malformed addresses', () => {
    expectInvalid(() => parseIpAddress('256.1.1.1'), '"256.1.1.1" is not a valid IP address');
    expectInvalid(() => parseIpAddress('01.2.3.4'), /not a valid IP address/);
    expectInvalid(() => parseIpAddress('2001:db8:::1'), /not a valid IP address/);
    expectInvalid(() => parseIpAddress('[2001:db8::1]'), /not a valid IP address/);
    expectInvalid(() => parseIpAddress('example.com'), /not a valid IP address/);
    expectInvalid(() => parseIpAddress('a b&c=d#e+f%g'), /./);
    expectInvalid(() => parseIpAddress('1.2.3.4😀'), /not a valid IP address/);
    expectInvalid(() => parseIpAddress(''), 'no IP address given');
  });
});

describe('IP addresses in German', () => {
  it('says what is wrong and what is expected in German', () => {
    const v6 = expectInvalid(() => parseIpv4WithPrefix('2001:db8::1'), '"2001:db8::1" is an IPv6 address');
    expect(de.render(v6.problem)).toBe('"2001:db8::1" ist eine IPv6-Adresse');
    expect(de.render(v6.expected)).toBe(
      'eine IPv4-Adresse wie 203.0.113.7, optional mit Präfix wie 203.0.113.0/24',
    );
    const prefix = expectInvalid(
      () => parseIpv4WithPrefix('203.0.113.0/33'),
      'prefix length "/33" is not between /0 and /32',
    );
    expect(de.render(prefix.problem)).toBe('Präfixlänge "/33" liegt nicht zwischen /0 und /32');
    const zone = expectInvalid(() => parseIpAddress('fe80::1%eth0'), /has a zone index/);
    expect(de.render(zone.problem)).toBe('"fe80::1%eth0" hat einen Zonenindex ("%…"); lass ihn weg');
    expect(de.render(zone.expected)).toBe(
      'eine IPv4-Adresse wie 203.0.113.7 oder eine IPv6-Adresse wie 2001:db8::1',
    );
  });
});
