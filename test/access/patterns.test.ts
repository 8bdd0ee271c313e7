import { describe, expect, it } from 'vitest';
import { covers, parsePattern, resourceOf } from '../../src/access/patterns.js';
import { translator } from '../../src/i18n/Translator.js';
import { InvalidValueError } from '../../src/validation/InvalidValueError.js';

const en = translator('en');
function problemOf(input: string): string {
  try {
    parsePattern(input);
  } catch (error) {
    if (error instanceof InvalidValueError) return en.render(error.problem);
    throw error;
  }
  throw new Error(`${input} was accepted`);
}
const matches = (pattern: string, kind: 'domain' | 'server' | 'ip', value: string | number) => {
  const resource = resourceOf(kind, value);
  return resource !== undefined && covers(parsePattern(pattern), resource);
};

describe('resource patterns', () => {
  it('keeps each pattern in its canonical text', () => {
    expect(parsePattern(' * ').text).toBe('*');
    expect(parsePattern('*.ACME.example').text).toBe('*.acme.example');
    expect(parsePattern('*.Bücher.example').text).toBe('*.xn--bcher-kva.example');
    expect(parsePattern('server:42').text).toBe('server:42');
    expect(parsePattern('SERVER:100-199').text).toBe('server:100-199');
    expect(parsePattern('ip:203.0.113.0/24').text).toBe('ip:203.0.113.0/24');
    expect(parsePattern('ip:2001:DB8::/32').text).toBe('ip:2001:db8::/32');
    expect(parsePattern('ip:198.51.100.7').text).toBe('ip:198.51.100.7/32');
  });

  it('matches domains on their ASCII form, case-insensitively; an IDN typed in Unicode matches its punycode', () => {
    expect(matches('*.acme.example', 'domain', 'Shop.ACME.example')).toBe(true);
    expect(matches('*.acme.example', 'domain', 'a.b.acme.example')).toBe(true);
    expect(matches('*.acme.example', 'domain', 'acme.example')).toBe(false);
    expect(matches('*.acme.example', 'domain', 'evilacme.example')).toBe(false);
    expect(matches('*.acme.example', 'domain', 'acme.example.evil')).toBe(false);
    expect(matches('xn--bcher-kva.example', 'domain', 'bücher.example')).toBe(true);
    expect(matches('bücher.example', 'domain', 'XN--BCHER-KVA.example')).toBe(true);
    expect(matches('*', 'domain', 'anything.example')).toBe(true);
  });

  it('matches servers by id or range, addresses by CIDR of their own family', () => {
    expect(matches('server:100-199', 'server', 100)).toBe(true);
    expect(matches('server:100-199', 'server', 199)).toBe(true);
    expect(matches('server:100-199', 'server', 200)).toBe(false);
    expect(matches('server:42', 'server', 42)).toBe(true);
    expect(matches('ip:203.0.113.0/24', 'ip', '203.0.113.9')).toBe(true);
    expect(matches('ip:203.0.113.0/24', 'ip', '203.0.114.9')).toBe(false);
    expect(matches('ip:203.0.113.0/24', 'ip', '::ffff:203.0.113.9')).toBe(true);
    expect(matches('ip:2001:db8::/32', 'ip', '2001:db8:1::5')).toBe(true);
    expect(matches('ip:2001:db8::/32', 'ip', '2001:db9::5')).toBe(false);
    expect(matches('ip:2001:db8::/32', 'ip', '203.0.113.9')).toBe(false);
    // A pattern of one kind never covers a resource of another.
    expect(matches('server:42', 'domain', 'shop.acme.example')).toBe(false);
  });

  it('refuses hostile patterns with a clear reason', () => {
    expect(problemOf('')).toBe('the pattern is empty');
    expect(problemOf('**.x')).toContain('`*` stands only alone or as the whole first label');
    expect(problemOf('*.*.example')).toContain('`*` stands only alone');
    expect(problemOf('shop*.example')).toContain('`*` stands only alone');
    expect(problemOf(`${'a'.repeat(300)}.example`)).toMatch(/is 308 characters long, at most 256/);
    expect(problemOf(`${'a'.repeat(70)}.example`)).toContain('is not a domain pattern');
    expect(problemOf('ip:203.0.113.0/33')).toContain('is not an address range');
    expect(problemOf('ip:999.0.113.0/24')).toContain('is not an address range');
    expect(problemOf('ip:10.1/8')).toContain('is not an address range');
    expect(problemOf('ip:203.0.113.9/24')).toBe(
      '"ip:203.0.113.9/24" has bits set after its prefix; did you mean "ip:203.0.113.0/24"?',
    );
    expect(problemOf('server:abc')).toContain('is not a server');
    expect(problemOf('server:0')).toContain('is not a server');
    expect(problemOf('server:199-100')).toContain('the range ends before it starts');
    // A Cyrillic `а` among Latin letters, and a label written wholly in Latin look-alikes.
    expect(problemOf('*.\u0430cme.example')).toContain('mixes scripts');
    expect(problemOf('\u0430\u0441\u0435.example')).toContain('look like Latin ones');
    // Real IDNs in one script are fine.
    expect(parsePattern('*.日本.example').text).toBe('*.xn--wgv71a.example');
    expect(parsePattern('москва.example').text).toMatch(/^xn--/);
  });
});
