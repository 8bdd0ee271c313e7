import { describe, expect, it } from 'vitest';
import { parseHostname } from '../../src/validation/parseHostname.js';
import { de, en, expectInvalid } from './expectInvalid.js';

describe('parseHostname', () => {
  it('returns the ASCII form without the trailing dot', () => {
    expect(parseHostname('ns1.example.com')).toBe('ns1.example.com');
    expect(parseHostname(' NS1.Example.COM. ')).toBe('ns1.example.com');
    expect(parseHostname('mail.bücher.de')).toBe('mail.xn--bcher-kva.de');
  });

  it('applies the domain rules, with a host-name hint', () => {
    const error = expectInvalid(() => parseHostname('ns1'), '"ns1" has no top-level domain');
    expect(en.render(error.expected)).toBe('a fully-qualified host name such as ns1.example.com');
    expectInvalid(() => parseHostname(''), 'no domain name given');
    expectInvalid(() => parseHostname('-ns.example.com'), 'label "-ns" starts or ends with "-"');
    expectInvalid(() => parseHostname('203.0.113.7'), /is an IP address/);
    expectInvalid(() => parseHostname('ns1.example.com:53'), /contains ":"/);
  });

  it('does not allow underscores', () => {
    expectInvalid(() => parseHostname('my_host.example.com'), 'label "my_host" contains "_"');
  });
});

describe('parseHostname in German', () => {
  it('keeps the domain problem and gives the host-name example in German', () => {
    const error = expectInvalid(() => parseHostname('ns1'), '"ns1" has no top-level domain');
    expect(de.render(error.problem)).toBe('"ns1" hat keine Top-Level-Domain');
    expect(de.render(error.expected)).toBe('ein vollständiger Hostname wie ns1.example.com');
  });
});
