import { describe, expect, it } from 'vitest';
import { parseDomainList } from '../../src/validation/parseDomainList.js';
import { de, en, expectInvalid } from './expectInvalid.js';

describe('parseDomainList', () => {
  it('splits on spaces, commas, semicolons and new lines', () => {
    const { domains, invalid } = parseDomainList(
      'a.com b.com,c.com;d.com\ne.com\r\nf.com\tg.com , ;\n h.com',
    );
    expect(domains.map((domain) => domain.ascii)).toEqual([
      'a.com',
      'b.com',
      'c.com',
      'd.com',
      'e.com',
      'f.com',
      'g.com',
      'h.com',
    ]);
    expect(invalid).toEqual([]);
  });

  it('returns both forms of internationalised names', () => {
    expect(parseDomainList('bücher.de').domains).toEqual([
      { ascii: 'xn--bcher-kva.de', unicode: 'bücher.de' },
    ]);
  });

  it('removes duplicates after normalisation, keeping first-occurrence order', () => {
    const { domains } = parseDomainList(
      'b.com Example.com. a.com example.com B.COM xn--bcher-kva.de bücher.de',
    );
    expect(domains.map((domain) => domain.ascii)).toEqual([
      'b.com',
      'example.com',
      'a.com',
      'xn--bcher-kva.de',
    ]);
  });

  it('collects invalid entries instead of throwing', () => {
    const { domains, invalid } = parseDomainList(
      'good.com exa_mple.com localhost good.com localhost a.com/x',
    );
    expect(domains.map((domain) => domain.ascii)).toEqual(['good.com']);
    expect(invalid.map((entry) => entry.input)).toEqual(['exa_mple.com', 'localhost', 'a.com/x']);
    expect(invalid.map((entry) => entry.error.message)).toEqual([
      'label "exa_mple" contains "_"',
      '"localhost" has no top-level domain',
      '"a.com/x" contains "/"; give only the domain name, not a URL or path',
    ]);
  });

  it('returns only invalid entries when nothing is valid', () => {
    const { domains, invalid } = parseDomainList('a b&c=d#e+f%g');
    expect(domains).toEqual([]);
    expect(invalid.map((entry) => entry.input)).toEqual(['a', 'b&c=d#e+f%g']);
  });

  it('throws when no names are given', () => {
    expectInvalid(() => parseDomainList(''), 'no domain names given');
    expectInvalid(() => parseDomainList(' ,;\n\t '), 'no domain names given');
  });

  it('allows at most `max` distinct names', () => {
    const names = (count: number) => Array.from({ length: count }, (_, index) => `d${index}.com`).join('\n');
    expect(parseDomainList(names(50)).domains).toHaveLength(50);
    expectInvalid(() => parseDomainList(names(51)), '51 domains given, at most 50');
    // Duplicates do not count.
    expect(parseDomainList(`${names(50)}\n${names(50)}`).domains).toHaveLength(50);
    expect(parseDomainList(names(3), 3).domains).toHaveLength(3);
    expectInvalid(() => parseDomainList(names(4), 3), '4 domains given, at most 3');
  });

  it('counts invalid entries towards the limit', () => {
    const junk = Array.from({ length: 1000 }, (_, index) => `bad_${index}.com`).join(' ');
    expectInvalid(() => parseDomainList(junk), '1000 domains given, at most 50');
  });
});

describe('parseDomainList in German', () => {
  it('says the limit and what is expected in German', () => {
    const names = Array.from({ length: 1000 }, (_, index) => `d${index}.com`).join(' ');
    const error = expectInvalid(() => parseDomainList(names), '1000 domains given, at most 50');
    expect(de.render(error.problem)).toBe('1000 Domains angegeben, höchstens 50');
    expect(en.render(error.expected)).toBe(
      'domain names separated by spaces, commas, semicolons or new lines, such as example.com, bücher.de; at most 50 at once',
    );
    expect(de.render(error.expected)).toBe(
      'Domainnamen, getrennt durch Leerzeichen, Kommas, Semikolons oder Zeilenumbrüche, etwa example.com, bücher.de; höchstens 50 auf einmal',
    );
    expect(de.render(expectInvalid(() => parseDomainList(' '), 'no domain names given').problem)).toBe(
      'keine Domainnamen angegeben',
    );
  });

  it("keeps each invalid entry's problem as a message, for the reader's language", () => {
    const { invalid } = parseDomainList('exa_mple.com');
    const [entry] = invalid;
    expect(entry && de.render(entry.error.problem)).toBe('Label "exa_mple" enthält "_"');
  });
});
