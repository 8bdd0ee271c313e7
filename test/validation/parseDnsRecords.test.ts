import { describe, expect, it } from 'vitest';
import { DNS_RECORD_TYPES, type DnsRecord, encodeDnsRecords } from '../../src/hosting/dnsRecords.js';
import { parseDnsRecords } from '../../src/validation/parseDnsRecords.js';
import { de, en, expectInvalid } from './expectInvalid.js';

const one = (line: string): DnsRecord => {
  const records = parseDnsRecords(line);
  expect(records).toHaveLength(1);
  return records[0] as DnsRecord;
};

describe('parseDnsRecords, zone style', () => {
  it('parses the documented examples', () => {
    const records = parseDnsRecords(
      [
        'www 3600 A 203.0.113.7',
        '@ MX 10 mail.example.com.',
        '@ TXT "v=spf1 -all"',
        '_sip._tcp 3600 SRV 10 5 5060 sip.example.com.',
        '@ CAA 0 issue "letsencrypt.org"',
      ].join('\n'),
    );
    expect(records).toEqual([
      { name: 'www', type: 'A', content: '203.0.113.7', ttl: 3600 },
      { name: '@', type: 'MX', content: 'mail.example.com', ttl: 3600, prio: 10 },
      { name: '@', type: 'TXT', content: 'v=spf1 -all', ttl: 3600 },
      { name: '_sip._tcp', type: 'SRV', content: '5 5060 sip.example.com', ttl: 3600, prio: 10 },
      { name: '@', type: 'CAA', content: '0 issue "letsencrypt.org"', ttl: 3600 },
    ]);
  });

  it('skips blank and comment lines but counts them in line numbers', () => {
    const input = '; zone for example.com\n\n# web\n  www A 203.0.113.7  \r\nbad A 1.2.3\n';
    expectInvalid(() => parseDnsRecords(input), 'line 5: "1.2.3" is not an IPv4 address');
    expect(parseDnsRecords('; c\r\n\r\nwww A 203.0.113.7\r\n')).toHaveLength(1);
  });

  it('accepts the type in any case and an optional IN class', () => {
    expect(one('www 300 a 203.0.113.7')).toEqual({
      name: 'www',
      type: 'A',
      content: '203.0.113.7',
      ttl: 300,
    });
    expect(one('www 300 IN AAAA 2001:db8::7').type).toBe('AAAA');
    expect(one('www in cname web.example.net.').content).toBe('web.example.net');
  });

  it('rejects unknown types', () => {
    const error = expectInvalid(
      () => parseDnsRecords('www 3600 PTR host.example.com.'),
      /^line 1: unknown record type "PTR"; use one of A, AAAA, CNAME, MX, TXT, NS, SRV, CAA$/,
    );
    expect(en.render(error.expected)).toContain('www 3600 A 203.0.113.7');
    expectInvalid(() => parseDnsRecords('www'), 'line 1: record type missing');
    expectInvalid(() => parseDnsRecords('www 3600'), 'line 1: record type missing');
  });

  it('requires content', () => {
    expectInvalid(() => parseDnsRecords('www A'), 'line 1: A content missing');
    expectInvalid(() => parseDnsRecords('@ MX 10'), 'line 1: MX content missing');
  });

  describe('names', () => {
    it('accepts @, relative names, underscores and a leading wildcard', () => {
      expect(one('@ A 203.0.113.7').name).toBe('@');
      expect(one('WWW.Dev A 203.0.113.7').name).toBe('www.dev');
      expect(one('_dmarc TXT "v=DMARC1; p=none"').name).toBe('_dmarc');
      expect(one('s1._domainkey TXT "k=rsa"').name).toBe('s1._domainkey');
      expect(one('* A 203.0.113.7').name).toBe('*');
      expect(one('*.dev A 203.0.113.7').name).toBe('*.dev');
      expect(one('café A 203.0.113.7').name).toBe('xn--caf-dma');
      expect(one('1 A 203.0.113.7').name).toBe('1');
    });

    it('checks internationalised names with IDNA', () => {
      expect(one('xn--caf-dma A 203.0.113.7').name).toBe('xn--caf-dma');
      expectInvalid(
        () => parseDnsRecords('xn--zz A 203.0.113.7'),
        'line 1: name "xn--zz" is not a valid internationalised name',
      );
      expectInvalid(
        () => parseDnsRecords('a\u200db A 203.0.113.7'),
        'line 1: name contains U+200D (zero-width joiner)',
      );
      for (const name of ['xn--a', 'xn--ZZ', 'www.xn--zz', 'xn--example-']) {
        expectInvalid(
          () => parseDnsRecords(`${name} A 203.0.113.7`),
          `line 1: name "${name.toLowerCase()}" is not a valid internationalised name`,
        );
      }
      expect(one('💩 A 203.0.113.7').name).toBe('xn--ls8h');
      expect(one('_dmarc.bücher TXT v=DMARC1').name).toBe('_dmarc.xn--bcher-kva');
    });

    it('refuses a Unicode character that IDNA maps to ASCII a name may not hold', () => {
      expectInvalid(
        () => parseDnsRecords('a／b A 203.0.113.7'),
        'line 1: name "a／b" is not a valid internationalised name',
      );
    });

    it('allows names of up to 253 characters', () => {
      const name253 = `${'a.'.repeat(126)}a`;
      expect(one(`${name253} A 203.0.113.7`).name).toBe(name253);
      expectInvalid(
        () => parseDnsRecords(`${name253}a A 203.0.113.7`),
        /^line 1: name "a\.a.*…" is too long$/,
      );
    });

    it('rejects absolute names, misplaced wildcards and bad characters', () => {
      expectInvalid(
        () => parseDnsRecords('www.example.com. A 203.0.113.7'),
        /^line 1: name "www\.example\.com\." ends with "\."/,
      );
      expectInvalid(
        () => parseDnsRecords('www.* A 203.0.113.7'),
        /^line 1: name "www\.\*": "\*" is only allowed/,
      );
      expectInvalid(
        () => parseDnsRecords('a*b A 203.0.113.7'),
        /"\*" is only allowed as the whole first label/,
      );
      expectInvalid(
        () => parseDnsRecords('a..b A 203.0.113.7'),
        'line 1: name "a..b" contains an empty label',
      );
      expectInvalid(
        () => parseDnsRecords('-www A 203.0.113.7'),
        'line 1: label "-www" starts or ends with "-"',
      );
      expectInvalid(() => parseDnsRecords('w/w A 203.0.113.7'), 'line 1: name "w/w" contains "/"');
      expectInvalid(
        () => parseDnsRecords('b&c=d#e+f%g A 203.0.113.7'),
        'line 1: name "b&c=d#e+f%g" contains "&"',
      );
      expectInvalid(() => parseDnsRecords('%61 A 203.0.113.7'), 'line 1: name "%61" contains "%"');
      expectInvalid(
        () => parseDnsRecords(`${'a'.repeat(64)} A 203.0.113.7`),
        /^line 1: label "a+…" is 64 characters long, at most 63$/,
      );
    });
  });

  describe('TTL', () => {
    it('defaults to 3600 and accepts 60–86400', () => {
      expect(one('www A 203.0.113.7').ttl).toBe(3600);
      expect(one('www 60 A 203.0.113.7').ttl).toBe(60);
      expect(one('www 86400 A 203.0.113.7').ttl).toBe(86_400);
    });

    it('rejects TTLs out of range or not whole numbers', () => {
      const error = expectInvalid(
        () => parseDnsRecords('www A 203.0.113.7\n\nwww 30 A 203.0.113.7'),
        'line 3: TTL 30 out of range (60–86400)',
      );
      expect(en.render(error.expected)).toBe('a line such as `www 3600 A 203.0.113.7`');
      expectInvalid(
        () => parseDnsRecords('www 86401 A 203.0.113.7'),
        'line 1: TTL 86401 out of range (60–86400)',
      );
      expectInvalid(() => parseDnsRecords('www -1 A 203.0.113.7'), 'line 1: TTL "-1" is not a whole number');
      expectInvalid(() => parseDnsRecords('www 1h A 203.0.113.7'), 'line 1: TTL "1h" is not a whole number');
      expectInvalid(() => parseDnsRecords('www 3600.5 A 203.0.113.7'), /TTL "3600\.5" is not a whole number/);
    });
  });

  describe('A and AAAA', () => {
    it('accept IPv4 and IPv6 respectively', () => {
      expect(one('www A 203.0.113.7').content).toBe('203.0.113.7');
      expect(one('www AAAA 2001:db8::7').content).toBe('2001:db8::7');
    });

    it('reject the wrong family and malformed addresses', () => {
      expectInvalid(
        () => parseDnsRecords('www A 2001:db8::7'),
        'line 1: "2001:db8::7" is not an IPv4 address',
      );
      expectInvalid(() => parseDnsRecords('www A 256.0.0.1'), /is not an IPv4 address/);
      expectInvalid(() => parseDnsRecords('www A 203.0.113.7 203.0.113.8'), /is not an IPv4 address/);
      const error = expectInvalid(
        () => parseDnsRecords('www AAAA 203.0.113.7'),
        'line 1: "203.0.113.7" is not an IPv6 address',
      );
      expect(en.render(error.expected)).toBe('a line such as `www 3600 AAAA 2001:db8::7`');
      expectInvalid(() => parseDnsRecords('www AAAA fe80::1%eth0'), /is not an IPv6 address/);
    });
  });

  describe('CNAME, NS and MX targets', () => {
    it('are host names, returned in ASCII without the trailing dot', () => {
      expect(one('shop CNAME Shops.Example.NET.').content).toBe('shops.example.net');
      expect(one('sub NS ns1.example.net').content).toBe('ns1.example.net');
      expect(one('@ MX 0 mail.bücher.de.').content).toBe('mail.xn--bcher-kva.de');
    });

    it('must be fully qualified and valid', () => {
      expectInvalid(
        () => parseDnsRecords('shop CNAME shops'),
        'line 1: target: "shops" has no top-level domain',
      );
      expectInvalid(
        () => parseDnsRecords('sub NS ns_1.example.net'),
        'line 1: target: label "ns_1" contains "_"',
      );
      expectInvalid(
        () => parseDnsRecords('@ MX 10 203.0.113.7'),
        /^line 1: target: "203\.0\.113\.7" is an IP address/,
      );
      expectInvalid(
        () => parseDnsRecords('shop CNAME a.example.net b.example.net'),
        /^line 1: target: .* contains a space$/,
      );
    });
  });

  describe('MX priority', () => {
    it('is required and must be 0–65535', () => {
      expect(one('@ MX 65535 mail.example.com').prio).toBe(65_535);
      const error = expectInvalid(
        () => parseDnsRecords('@ MX mail.example.com.'),
        'line 1: MX needs a priority (0–65535) before the target',
      );
      expect(en.render(error.expected)).toBe('a line such as `@ 3600 MX 10 mail.example.com.`');
      expectInvalid(
        () => parseDnsRecords('@ MX 65536 mail.example.com.'),
        'line 1: priority 65536 out of range (0–65535)',
      );
      expectInvalid(() => parseDnsRecords('@ MX -1 mail.example.com.'), /MX needs a priority/);
    });
  });

  describe('SRV', () => {
    it('takes priority, then weight, port and target', () => {
      expect(one('_xmpp._tcp 300 srv 0 0 5222 XMPP.example.com')).toEqual({
        name: '_xmpp._tcp',
        type: 'SRV',
        content: '0 5222 xmpp.example.com',
        ttl: 300,
        prio: 0,
      });
      expect(one('_imap._tcp SRV 0 0 0 .').content).toBe('0 0 .');
    });

    it('rejects missing parts and numbers out of range', () => {
      expectInvalid(
        () => parseDnsRecords('_sip._tcp SRV sip.example.com.'),
        'line 1: SRV needs a priority (0–65535) before weight, port and target',
      );
      expectInvalid(
        () => parseDnsRecords('_sip._tcp SRV 10 5060 sip.example.com.'),
        /SRV content must be `weight port target`/,
      );
      expectInvalid(
        () => parseDnsRecords('_sip._tcp SRV 10 5 5060 sip.example.com. x'),
        /SRV content must be/,
      );
      expectInvalid(
        () => parseDnsRecords('_sip._tcp SRV 10 5 65536 sip.example.com.'),
        'line 1: port 65536 out of range (0–65535)',
      );
      expectInvalid(
        () => parseDnsRecords('_sip._tcp SRV 10 70000 5060 sip.example.com.'),
        'line 1: weight 70000 out of range (0–65535)',
      );
      expectInvalid(
        () => parseDnsRecords('_sip._tcp SRV 10 5 http sip.example.com.'),
        'line 1: port "http" is not a whole number',
      );
      expectInvalid(
        () => parseDnsRecords('_sip._tcp SRV 10 5 5060 sip'),
        'line 1: target: "sip" has no top-level domain',
      );
    });
  });

  describe('TXT', () => {
    it('unquotes a quoted string, keeping spaces and semicolons', () => {
      expect(one('_dmarc TXT "v=DMARC1; p=none; rua=mailto:d@example.com"').content).toBe(
        'v=DMARC1; p=none; rua=mailto:d@example.com',
      );
    });

    it('joins several quoted strings without a separator', () => {
      expect(one('@ TXT "v=spf1 " "include:_spf.example.net" " -all"').content).toBe(
        'v=spf1 include:_spf.example.net -all',
      );
      expect(one('@ TXT "a""b"').content).toBe('ab');
    });

    it('resolves \\" and \\\\ escapes inside quotes', () => {
      expect(one('@ TXT "say \\"hi\\" \\\\o/"').content).toBe('say "hi" \\o/');
    });

    it('accepts bare text, including unicode and emoji', () => {
      expect(one('@ TXT hello world').content).toBe('hello world');
      expect(one('@ TXT a b&c=d#e+f%g').content).toBe('a b&c=d#e+f%g');
      expect(one('@ TXT "grüße 😀"').content).toBe('grüße 😀');
    });

    it('limits each string to 255 bytes, counting UTF-8 bytes', () => {
      const long = 'x'.repeat(255);
      expect(one(`@ TXT "${long}"`).content).toBe(long);
      expect(one(`@ TXT ${long}`).content).toBe(long);
      expect(one(`@ TXT "${long}" "${long}"`).content).toBe(long + long);
      expectInvalid(
        () => parseDnsRecords(`@ TXT "${long}x"`),
        /^line 1: TXT string is 256 bytes long, at most 255/,
      );
      expectInvalid(() => parseDnsRecords(`@ TXT ${long}x`), /TXT string is 256 bytes long/);
      // 128 two-byte characters.
      expectInvalid(() => parseDnsRecords(`@ TXT "${'ü'.repeat(128)}"`), /TXT string is 256 bytes long/);
    });

    it('rejects broken quoting and empty text', () => {
      expectInvalid(
        () => parseDnsRecords('@ TXT "v=spf1 -all'),
        'line 1: TXT string is missing its closing "',
      );
      expectInvalid(() => parseDnsRecords('@ TXT "v=spf1 \\'), 'line 1: TXT string is missing its closing "');
      expectInvalid(
        () => parseDnsRecords('@ TXT "v=spf1" -all'),
        'line 1: unexpected text "-all" after a quoted TXT string',
      );
      expectInvalid(() => parseDnsRecords('@ TXT v="spf1"'), /TXT text contains a stray "/);
      expectInvalid(() => parseDnsRecords('@ TXT "\\065"'), /decimal escapes/);
      expectInvalid(() => parseDnsRecords('@ TXT ""'), 'line 1: TXT text is empty');
    });
  });

  describe('CAA', () => {
    it('accepts issue, issuewild and iodef and normalises the form', () => {
      expect(one('@ CAA 0 issue "letsencrypt.org"').content).toBe('0 issue "letsencrypt.org"');
      expect(one('@ CAA 128 ISSUEWILD ";"').content).toBe('128 issuewild ";"');
      expect(one('@ CAA 0 issue letsencrypt.org').content).toBe('0 issue "letsencrypt.org"');
      expect(one('@ CAA 0 issue "ca.example; account=1"').content).toBe('0 issue "ca.example; account=1"');
      expect(one('@ CAA 0 iodef "mailto:security@example.com"').content).toBe(
        '0 iodef "mailto:security@example.com"',
      );
      expect(one('@ CAA 0 iodef "https://example.com/caa"').content).toBe(
        '0 iodef "https://example.com/caa"',
      );
    });

    it('rejects other tags, bad flags and malformed values', () => {
      expectInvalid(
        () => parseDnsRecords('@ CAA 0 issuer "letsencrypt.org"'),
        'line 1: unknown CAA tag "issuer"; use one of issue, issuewild, iodef',
      );
      expectInvalid(
        () => parseDnsRecords('@ CAA 256 issue "letsencrypt.org"'),
        'line 1: CAA flags 256 out of range (0–255)',
      );
      expectInvalid(
        () => parseDnsRecords('@ CAA x issue "letsencrypt.org"'),
        'line 1: CAA flags "x" is not a whole number',
      );
      expectInvalid(
        () => parseDnsRecords('@ CAA 0 issue'),
        'line 1: CAA content must be `flags tag "value"`',
      );
      expectInvalid(() => parseDnsRecords('@ CAA 0 issue "a" "b"'), /must be one "quoted" string/);
      expectInvalid(() => parseDnsRecords('@ CAA 0 issue a b'), /must be one "quoted" string/);
      expectInvalid(
        () => parseDnsRecords('@ CAA 0 iodef "security@example.com"'),
        /must be a mailto: or http\(s\):\/\/ URL/,
      );
    });
  });

  it('allows at most 100 records and at least one', () => {
    const lines = (count: number) =>
      Array.from({ length: count }, (_, index) => `h${index} A 203.0.113.7`).join('\n');
    expect(parseDnsRecords(lines(100))).toHaveLength(100);
    expectInvalid(() => parseDnsRecords(lines(101)), '101 records given, at most 100');
    expectInvalid(() => parseDnsRecords(''), 'no records given');
    expectInvalid(() => parseDnsRecords(' \n ; only a comment\n# another\n'), 'no records given');
  });

  it('does not echo very long input', () => {
    const error = expectInvalid(
      () => parseDnsRecords(`www A ${'1'.repeat(10_000)}`),
      /is not an IPv4 address/,
    );
    expect(error.message.length).toBeLessThan(120);
  });
});

describe('parseDnsRecords, JSON', () => {
  it('parses an array of objects with the same rules', () => {
    const records = parseDnsRecords(`
      [
        {"name": "www", "type": "a", "content": "203.0.113.7", "ttl": 300},
        {"name": "@", "type": "MX", "content": "mail.example.com.", "prio": 10},
        {"name": "@", "type": "TXT", "content": "v=spf1 -all"},
        {"name": "_dmarc", "type": "TXT", "content": "\\"v=DMARC1; \\" \\"p=none\\""},
        {"name": "_sip._tcp", "type": "SRV", "content": "5 5060 sip.example.com.", "prio": 10, "ttl": null}
      ]`);
    expect(records).toEqual([
      { name: 'www', type: 'A', content: '203.0.113.7', ttl: 300 },
      { name: '@', type: 'MX', content: 'mail.example.com', ttl: 3600, prio: 10 },
      { name: '@', type: 'TXT', content: 'v=spf1 -all', ttl: 3600 },
      { name: '_dmarc', type: 'TXT', content: 'v=DMARC1; p=none', ttl: 3600 },
      { name: '_sip._tcp', type: 'SRV', content: '5 5060 sip.example.com', ttl: 3600, prio: 10 },
    ]);
  });

  it('names the index of a bad record and shows a JSON example', () => {
    const error = expectInvalid(
      () =>
        parseDnsRecords(
          '[{"name":"www","type":"A","content":"203.0.113.7"},{"name":"@","type":"MX","content":"mx.example.com"}]',
        ),
      'index 1: MX needs a priority (0–65535)',
    );
    expect(en.render(error.expected)).toBe(
      'a record such as {"name":"@","type":"MX","content":"mail.example.com.","ttl":3600,"prio":10}',
    );
    expectInvalid(
      () => parseDnsRecords('[{"name":"www","type":"A","content":"203.0.113.7","ttl":30}]'),
      'index 0: TTL 30 out of range (60–86400)',
    );
  });

  it('checks field types and rejects unknown fields', () => {
    expectInvalid(
      () => parseDnsRecords('[{"name":"www","type":"A","content":"203.0.113.7","ttl":"3600"}]'),
      'index 0: "ttl" must be a whole number',
    );
    expectInvalid(
      () => parseDnsRecords('[{"name":"www","type":"A","content":"203.0.113.7","ttl":3600.5}]'),
      'index 0: "ttl" must be a whole number',
    );
    expectInvalid(
      () => parseDnsRecords('[{"name":"@","type":"MX","content":"mx.example.com","prio":1e400}]'),
      'index 0: "prio" must be a whole number',
    );
    expectInvalid(
      () => parseDnsRecords('[{"name":"@","type":"MX","content":"mx.example.com","priority":10}]'),
      'index 0: unknown field "priority"; use name, type, content, ttl, prio',
    );
    expectInvalid(
      () => parseDnsRecords('[{"name":"www","content":"203.0.113.7"}]'),
      'index 0: "type" must be a string',
    );
    expectInvalid(
      () => parseDnsRecords('[{"name":"www","type":"PTR","content":"x"}]'),
      /^index 0: unknown record type "PTR"/,
    );
    expectInvalid(
      () => parseDnsRecords('[{"type":"A","content":"203.0.113.7"}]'),
      'index 0: "name" must be a string',
    );
    expectInvalid(
      () => parseDnsRecords('[{"name":"www","type":"A","content":7}]'),
      'index 0: "content" must be a string',
    );
    expectInvalid(
      () => parseDnsRecords('[{"name":"www","type":"A","content":""}]'),
      'index 0: A content missing',
    );
    expectInvalid(
      () => parseDnsRecords('[{"name":"","type":"A","content":"203.0.113.7"}]'),
      /^index 0: name missing/,
    );
    expectInvalid(() => parseDnsRecords('["www A 203.0.113.7"]'), 'index 0: not an object');
    expectInvalid(() => parseDnsRecords('[null]'), 'index 0: not an object');
  });

  it('allows prio only on MX and SRV', () => {
    expectInvalid(
      () => parseDnsRecords('[{"name":"www","type":"A","content":"203.0.113.7","prio":10}]'),
      'index 0: A records have no priority',
    );
    expectInvalid(
      () => parseDnsRecords('[{"name":"@","type":"MX","content":"mx.example.com","prio":-1}]'),
      'index 0: priority -1 out of range (0–65535)',
    );
  });

  it('rejects control characters that zone lines cannot contain', () => {
    expectInvalid(
      () => parseDnsRecords('[{"name":"@","type":"TXT","content":"a\\nb"}]'),
      'index 0: content contains U+000A (control character)',
    );
    expectInvalid(
      () => parseDnsRecords('[{"name":"a\\u0000b","type":"TXT","content":"x"}]'),
      'index 0: name contains U+0000 (control character)',
    );
  });

  it('rejects invalid JSON, non-arrays and wrong counts', () => {
    const error = expectInvalid(() => parseDnsRecords('[{"name": "www",'), /^not valid JSON: /);
    expect(en.render(error.expected)).toContain('a JSON array of');
    expect(error.message.length).toBeLessThan(130);
    expectInvalid(() => parseDnsRecords(`[${'x'.repeat(10_000)}]`), /^not valid JSON: .{0,101}$/);
    expectInvalid(() => parseDnsRecords('[]'), 'no records given');
    const many = JSON.stringify(
      Array.from({ length: 101 }, () => ({ name: 'www', type: 'A', content: '203.0.113.7' })),
    );
    expectInvalid(() => parseDnsRecords(many), '101 records given, at most 100');
  });

  it('asks for an array when given a bare object', () => {
    expectInvalid(
      () => parseDnsRecords('{"name":"www","type":"A","content":"203.0.113.7"}'),
      'JSON records must be in an array: wrap them in [ ]',
    );
  });
});

describe('DNS_RECORD_TYPES', () => {
  it('lists the supported types', () => {
    expect(DNS_RECORD_TYPES).toEqual(['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SRV', 'CAA']);
  });
});

describe('encodeDnsRecords', () => {
  it('encodes a JSON array, leaving prio out when undefined', () => {
    const encoded = encodeDnsRecords([
      { name: 'www', type: 'A', content: '203.0.113.7', ttl: 3600, prio: undefined },
      { name: '@', type: 'MX', content: 'mail.example.com', ttl: 3600, prio: 0 },
    ]);
    expect(encoded).toBe(
      '[{"name":"www","type":"A","content":"203.0.113.7","ttl":3600},' +
        '{"name":"@","type":"MX","content":"mail.example.com","ttl":3600,"prio":0}]',
    );
  });

  it('round-trips through parseDnsRecords', () => {
    const records = parseDnsRecords('www A 203.0.113.7\n@ MX 10 mail.example.com.\n@ TXT "v=spf1 -all"');
    expect(parseDnsRecords(encodeDnsRecords(records))).toEqual(records);
  });

  it('encodes an empty list', () => {
    expect(encodeDnsRecords([])).toBe('[]');
  });
});

describe('DNS record problems in German', () => {
  const german = (input: string, english: string | RegExp) => {
    const error = expectInvalid(() => parseDnsRecords(input), english);
    return { problem: de.render(error.problem), expected: de.render(error.expected) };
  };

  it('names the line or the index, and keeps examples as code', () => {
    expect(
      german('www A 203.0.113.7\n\nwww 30 A 203.0.113.7', 'line 3: TTL 30 out of range (60–86400)'),
    ).toEqual({
      problem: 'Zeile 3: TTL 30 außerhalb des erlaubten Bereichs (60–86400)',
      expected: 'eine Zeile wie `www 3600 A 203.0.113.7`',
    });
    expect(
      german(
        '[{"name":"@","type":"MX","content":"mx.example.com"}]',
        'index 0: MX needs a priority (0–65535)',
      ),
    ).toEqual({
      problem: 'Index 0: MX braucht eine Priorität (0–65535)',
      expected: 'ein Eintrag wie {"name":"@","type":"MX","content":"mail.example.com.","ttl":3600,"prio":10}',
    });
    expect(german('', 'no records given')).toEqual({
      problem: 'keine Einträge angegeben',
      expected: 'ein Eintrag pro Zeile als `name [ttl] TYPE [prio] content`, etwa `www 3600 A 203.0.113.7`',
    });
    expect(german('{"name":"www"}', /^JSON records must be in an array/).expected).toBe(
      'ein JSON-Array aus {name, type, content, ttl?, prio?}-Objekten wie [{"name":"www","type":"A","content":"203.0.113.7","ttl":3600}]',
    );
  });

  it('translates field names and nested problems', () => {
    expect(german('@ MX x mail.example.com.', /^line 1: MX needs a priority/).problem).toBe(
      'Zeile 1: MX braucht vor dem Ziel eine Priorität (0–65535)',
    );
    expect(german('_sip._tcp SRV 10 5 70000 sip.example.com.', /port 70000 out of range/).problem).toBe(
      'Zeile 1: Port 70000 außerhalb des erlaubten Bereichs (0–65535)',
    );
    expect(german('@ MX 10 exa_mple.com', /^line 1: target: /).problem).toBe(
      'Zeile 1: Ziel: Label "exa_mple" enthält "_"',
    );
    expect(
      german('[{"name":"@","type":"TXT","content":"a\\u202eb"}]', /^index 0: content contains/).problem,
    ).toBe('Index 0: Inhalt enthält U+202E (Rechts-nach-links-Überschreibung)');
    expect(german('@ CAA 0 issue letsencrypt org', /must be one "quoted" string/).problem).toBe(
      'Zeile 1: CAA-Wert "letsencrypt org" muss ein einzelner String in "Anführungszeichen" sein',
    );
    expect(german('www PTR host.example.com.', /unknown record type/).problem).toBe(
      'Zeile 1: unbekannter Eintragstyp "PTR"; nimm einen von A, AAAA, CNAME, MX, TXT, NS, SRV, CAA',
    );
  });
});
