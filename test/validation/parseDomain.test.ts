import { describe, expect, it } from 'vitest';
import { parseDomain } from '../../src/validation/parseDomain.js';
import { de, en, expectInvalid } from './expectInvalid.js';

describe('parseDomain', () => {
  it('trims, lowercases and drops one trailing dot', () => {
    expect(parseDomain('Example.COM')).toEqual({ ascii: 'example.com', unicode: 'example.com' });
    expect(parseDomain('  example.com.\n')).toEqual({ ascii: 'example.com', unicode: 'example.com' });
    expect(parseDomain('www.sub.example.co.uk')).toEqual({
      ascii: 'www.sub.example.co.uk',
      unicode: 'www.sub.example.co.uk',
    });
  });

  it('drops only one trailing dot', () => {
    expectInvalid(() => parseDomain('example.com..'), '"example.com." contains an empty label');
  });

  it('converts internationalised names to punycode and back', () => {
    expect(parseDomain('bücher.de')).toEqual({ ascii: 'xn--bcher-kva.de', unicode: 'bücher.de' });
    expect(parseDomain('BÜCHER.DE')).toEqual({ ascii: 'xn--bcher-kva.de', unicode: 'bücher.de' });
    expect(parseDomain('münchen.bayern')).toEqual({
      ascii: 'xn--mnchen-3ya.bayern',
      unicode: 'münchen.bayern',
    });
    expect(parseDomain('xn--bcher-kva.de')).toEqual({ ascii: 'xn--bcher-kva.de', unicode: 'bücher.de' });
    expect(parseDomain('пример.рф')).toEqual({ ascii: 'xn--e1afmkfd.xn--p1ai', unicode: 'пример.рф' });
  });

  it('applies UTS-46 mapping (full-width letters, ideographic full stop)', () => {
    expect(parseDomain('ｅｘａｍｐｌｅ.com').ascii).toBe('example.com');
    expect(parseDomain('example。com').ascii).toBe('example.com');
  });

  it('accepts emoji names as UTS-46 does (such registrations exist under .ws), both ways', () => {
    expect(parseDomain('😀.ws')).toEqual({ ascii: 'xn--e28h.ws', unicode: '😀.ws' });
    expect(parseDomain('💩.ws')).toEqual({ ascii: 'xn--ls8h.ws', unicode: '💩.ws' });
    expect(parseDomain('xn--ls8h.ws')).toEqual({ ascii: 'xn--ls8h.ws', unicode: '💩.ws' });
  });

  it('keeps ß (nontransitional processing), as registries of .de do', () => {
    expect(parseDomain('faß.de')).toEqual({ ascii: 'xn--fa-hia.de', unicode: 'faß.de' });
    expect(parseDomain('FAẞ.DE').ascii).toBe('xn--fa-hia.de');
  });

  it('leaves mixed scripts to the registry, as UTS-46 does, but applies the Bidi rule', () => {
    // Latin with a Cyrillic а: a look-alike that IDNA allows (refusing it is the registry's policy).
    expect(parseDomain('pаypal.com')).toEqual({ ascii: 'xn--pypal-4ve.com', unicode: 'pаypal.com' });
    expect(parseDomain('עברית.com')).toEqual({ ascii: 'xn--5dbqzzl.com', unicode: 'עברית.com' });
    expectInvalid(() => parseDomain('abcעברית.com'), /not a valid internationalised domain name/);
  });

  it('rejects names that IDNA cannot convert, on every Node (invalid Punycode included)', () => {
    expectInvalid(
      () => parseDomain('xn--zz.com'),
      '"xn--zz.com" is not a valid internationalised domain name',
    );
    for (const name of ['xn--ZZ.com', 'xn--a.com', 'xn--.com', 'xn--ab.com', 'example.xn--8']) {
      expectInvalid(() => parseDomain(name), /not a valid internationalised domain name/);
    }
    // Punycode of plain ASCII is not an internationalised name either.
    expectInvalid(() => parseDomain('xn--example-.com'), /not a valid internationalised domain name/);
    expectInvalid(() => parseDomain('a\u200db.com'), /not a valid internationalised domain name/);
  });

  it('rejects a Unicode character that UTS-46 maps to ASCII no name may hold', () => {
    expectInvalid(() => parseDomain('ａ／b.com'), '"ａ／b.com" is not a valid internationalised domain name');
    expectInvalid(() => parseDomain('a＿b.com'), /not a valid internationalised domain name/);
  });

  it('rejects empty input', () => {
    expectInvalid(() => parseDomain(''), 'no domain name given');
    expectInvalid(() => parseDomain('   '), 'no domain name given');
    expectInvalid(() => parseDomain('.'), 'no domain name given');
  });

  it('requires a top-level domain', () => {
    expectInvalid(() => parseDomain('localhost'), '"localhost" has no top-level domain');
    expectInvalid(() => parseDomain('bücher'), '"xn--bcher-kva" has no top-level domain');
  });

  it('rejects empty labels', () => {
    expectInvalid(() => parseDomain('a..b'), '"a..b" contains an empty label');
    expectInvalid(() => parseDomain('.example.com'), '".example.com" contains an empty label');
  });

  it('rejects labels starting or ending with a hyphen', () => {
    expectInvalid(() => parseDomain('-a.com'), 'label "-a" starts or ends with "-"');
    expectInvalid(() => parseDomain('a-.com'), 'label "a-" starts or ends with "-"');
    expect(parseDomain('a-b.com').ascii).toBe('a-b.com');
  });

  it('rejects characters other than letters, digits and hyphens', () => {
    const error = expectInvalid(() => parseDomain('exa_mple.com'), 'label "exa_mple" contains "_"');
    expect(en.render(error.expected)).toBe('a domain name such as example.com or bücher.de');
    expectInvalid(() => parseDomain('a=b.com'), 'label "a=b" contains "="');
    expectInvalid(() => parseDomain('a+b.com'), 'label "a+b" contains "+"');
    expectInvalid(() => parseDomain('*.example.com'), 'label "*" contains "*"');
    expectInvalid(() => parseDomain('a<b.com'), 'label "a<b" contains "<"');
  });

  it('rejects whitespace anywhere inside, naming it', () => {
    expectInvalid(() => parseDomain('exa mple.com'), '"exa mple.com" contains a space');
    expectInvalid(() => parseDomain('exa\tmple.com'), '"exa\\tmple.com" contains U+0009');
    expectInvalid(() => parseDomain('exa\u00a0mple.com'), '"exa\u00a0mple.com" contains U+00A0');
    expectInvalid(() => parseDomain('exa\u3000mple.com'), /contains U\+3000/);
  });

  it('rejects control characters', () => {
    expectInvalid(() => parseDomain('exa\u0000mple.com'), /contains control character U\+0000/);
    expectInvalid(() => parseDomain('exa\u007fmple.com'), /contains control character U\+007F/);
  });

  it('rejects URL characters before IDNA could mangle them', () => {
    expectInvalid(() => parseDomain('a.com/x'), /^"a\.com\/x" contains "\/"/);
    expectInvalid(() => parseDomain('https://a.com'), /contains ":"/);
    expectInvalid(() => parseDomain('user@a.com'), /^"user@a\.com" contains "@"/);
    expectInvalid(() => parseDomain('a.com:80'), /^"a\.com:80" contains ":"/);
    expectInvalid(() => parseDomain('a.com?x=1'), /contains "\?"/);
    expectInvalid(() => parseDomain('a.com#top'), /contains "#"/);
    expectInvalid(() => parseDomain('a&b.com'), /contains "&"/);
    // domainToASCII would cut at the backslash ('a') and percent-decode ('a.com').
    expectInvalid(() => parseDomain('a\\b.com'), /contains "\\\\"/);
    expectInvalid(() => parseDomain('%61.com'), /contains "%"/);
  });

  it('reports the first problem of a messy input', () => {
    expectInvalid(() => parseDomain('a b&c=d#e+f%g'), '"a b&c=d#e+f%g" contains a space');
    expectInvalid(() => parseDomain('b&c=d#e+f%g.com'), /contains "#"/);
  });

  it('rejects IP addresses and numeric top-level domains', () => {
    expectInvalid(() => parseDomain('203.0.113.7'), '"203.0.113.7" is an IP address, not a domain name');
    expectInvalid(() => parseDomain('2001:db8::1'), '"2001:db8::1" is an IP address, not a domain name');
    expectInvalid(() => parseDomain('example.123'), 'top-level domain "123" is numeric');
    // A URL host ending in a hex number is read as IPv4 by domainToASCII.
    expectInvalid(() => parseDomain('1.0x10'), 'top-level domain "0x10" is numeric');
    expect(parseDomain('123.example').ascii).toBe('123.example');
    expect(parseDomain('example.a1').ascii).toBe('example.a1');
  });

  it('allows labels of up to 63 characters', () => {
    const label63 = 'a'.repeat(63);
    expect(parseDomain(`${label63}.com`).ascii).toBe(`${label63}.com`);
    const error = expectInvalid(
      () => parseDomain(`${'a'.repeat(64)}.com`),
      /is 64 characters long, at most 63$/,
    );
    expect(error.message.length).toBeLessThan(120);
  });

  it('measures label length on the punycode form', () => {
    // 60 characters typed, but more than 63 once converted.
    expectInvalid(
      () => parseDomain(`${'ü'.repeat(60)}.de`),
      /^label "xn--.*" is \d+ characters long, at most 63$/,
    );
  });

  it('allows names of up to 253 characters', () => {
    const name253 = `${'a.'.repeat(125)}com`;
    expect(name253).toHaveLength(253);
    expect(parseDomain(name253).ascii).toBe(name253);
    const name254 = `${'a.'.repeat(126)}ab`;
    expect(name254).toHaveLength(254);
    expectInvalid(() => parseDomain(name254), /is 254 characters long, at most 253$/);
  });

  it('does not echo very long input', () => {
    const error = expectInvalid(() => parseDomain(`${'x'.repeat(100_000)}.com`), /too long/);
    expect(error.message.length).toBeLessThan(120);
    const spaced = expectInvalid(() => parseDomain(`${'x'.repeat(500)} .com`), /contains a space/);
    expect(spaced.message.length).toBeLessThan(120);
  });
});

describe('parseDomain in German', () => {
  it('says what is wrong and what is expected in German, quoting the input as typed', () => {
    const error = expectInvalid(() => parseDomain('exa_mple.com'), 'label "exa_mple" contains "_"');
    expect(de.render(error.problem)).toBe('Label "exa_mple" enthält "_"');
    expect(de.render(error.expected)).toBe('ein Domainname wie example.com oder bücher.de');
    expect(de.render(expectInvalid(() => parseDomain(''), 'no domain name given').problem)).toBe(
      'kein Domainname angegeben',
    );
    expect(de.render(expectInvalid(() => parseDomain('exa mple.com'), /contains a space$/).problem)).toBe(
      '"exa mple.com" enthält ein Leerzeichen',
    );
    expect(de.render(expectInvalid(() => parseDomain('localhost'), /has no top-level domain$/).problem)).toBe(
      '"localhost" hat keine Top-Level-Domain',
    );
  });

  it('gives the URL hints in German', () => {
    const error = expectInvalid(
      () => parseDomain('https://example.com/x'),
      /contains ":"; leave out the port/,
    );
    expect(de.render(error.problem)).toBe('"https://example.com/x" enthält ":"; lass Port und Schema weg');
    const mail = expectInvalid(() => parseDomain('admin@example.com'), /not an e-mail address$/);
    expect(de.render(mail.problem)).toBe(
      '"admin@example.com" enthält "@"; gib nur den Domainnamen an, keine E-Mail-Adresse',
    );
  });

  it('keeps lengths as plain digits', () => {
    const name254 = `${'a.'.repeat(126)}ab`;
    const error = expectInvalid(() => parseDomain(name254), /is 254 characters long, at most 253$/);
    expect(de.render(error.problem)).toMatch(/ ist 254 Zeichen lang, höchstens 253$/);
    const long = expectInvalid(
      () => parseDomain(`${'x'.repeat(1000)}.com`),
      /too long \(at most 253 characters\)$/,
    );
    expect(de.render(long.problem)).toMatch(/ ist zu lang \(höchstens 253 Zeichen\)$/);
  });
});
