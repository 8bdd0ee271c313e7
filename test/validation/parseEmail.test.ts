import { describe, expect, it } from 'vitest';
import { parseEmail } from '../../src/validation/parseEmail.js';
import { de, expectInvalid } from './expectInvalid.js';

describe('parseEmail', () => {
  it('accepts addresses, trimmed but otherwise as typed', () => {
    expect(parseEmail('admin@example.com')).toBe('admin@example.com');
    expect(parseEmail('  Admin+Billing@Example.COM \n')).toBe('Admin+Billing@Example.COM');
    expect(parseEmail('jörg@bücher.de')).toBe('jörg@bücher.de');
  });

  it('rejects malformed addresses', () => {
    expectInvalid(() => parseEmail('admin'), '"admin" is not a valid e-mail address');
    expectInvalid(() => parseEmail('admin@localhost'), /not a valid e-mail address/);
    expectInvalid(() => parseEmail('ad min@example.com'), /not a valid e-mail address/);
    expectInvalid(() => parseEmail('admin@@example.com'), /not a valid e-mail address/);
    expectInvalid(() => parseEmail('admin@exa_mple.com'), /not a valid e-mail address/);
    expectInvalid(() => parseEmail('Admin <admin@example.com>'), /not a valid e-mail address/);
    expectInvalid(() => parseEmail('a b&c=d#e+f%g'), /not a valid e-mail address/);
  });

  it('rejects empty input', () => {
    expectInvalid(() => parseEmail(''), 'no e-mail address given');
    expectInvalid(() => parseEmail(' \t'), 'no e-mail address given');
  });

  it('allows at most 254 characters', () => {
    const domain = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.com`;
    const ok = `${'x'.repeat(254 - domain.length - 1)}@${domain}`;
    expect(ok).toHaveLength(254);
    expect(parseEmail(ok)).toBe(ok);
    const error = expectInvalid(() => parseEmail(`x${ok}`), /is 255 characters long, at most 254$/);
    expect(error.message.length).toBeLessThan(120);
  });
});

describe('parseEmail in German', () => {
  it('says what is wrong and what is expected in German', () => {
    const error = expectInvalid(() => parseEmail('alice@'), '"alice@" is not a valid e-mail address');
    expect(de.render(error.problem)).toBe('"alice@" ist keine gültige E-Mail-Adresse');
    expect(de.render(error.expected)).toBe('eine E-Mail-Adresse wie admin@example.com');
    expect(de.render(expectInvalid(() => parseEmail(' '), 'no e-mail address given').problem)).toBe(
      'keine E-Mail-Adresse angegeben',
    );
  });
});
