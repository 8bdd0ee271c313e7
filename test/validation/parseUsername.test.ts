import { describe, expect, it } from 'vitest';
import { parseUsername } from '../../src/validation/parseUsername.js';
import { de, expectInvalid } from './expectInvalid.js';

describe('parseUsername', () => {
  it('accepts names without whitespace, unchanged', () => {
    expect(parseUsername('alice')).toBe('alice');
    expect(parseUsername('Jörg.M')).toBe('Jörg.M');
    expect(parseUsername('a')).toBe('a');
    expect(parseUsername('b&c=d#e+f%g')).toBe('b&c=d#e+f%g');
    expect(parseUsername('用户')).toBe('用户');
    expect(parseUsername('👨‍👩‍👧')).toBe('👨‍👩‍👧');
  });

  it('counts code points, not UTF-16 units', () => {
    const emoji64 = '😀'.repeat(64);
    expect(emoji64).toHaveLength(128);
    expect(parseUsername(emoji64)).toBe(emoji64);
    expectInvalid(() => parseUsername(`${emoji64}😀`), /is 65 characters long, at most 64$/);
    expect(parseUsername('x'.repeat(64))).toBe('x'.repeat(64));
    const error = expectInvalid(
      () => parseUsername('x'.repeat(10_000)),
      /is 10000 characters long, at most 64$/,
    );
    expect(error.message.length).toBeLessThan(120);
  });

  it('rejects empty input', () => {
    expectInvalid(() => parseUsername(''), 'no user name given');
  });

  it('rejects whitespace anywhere, including at the ends', () => {
    expectInvalid(() => parseUsername('a b&c=d#e+f%g'), '"a b&c=d#e+f%g" contains a space');
    expectInvalid(() => parseUsername(' alice'), '" alice" contains a space');
    expectInvalid(() => parseUsername('alice '), '"alice " contains a space');
    expectInvalid(() => parseUsername(' '), '" " contains a space');
    expectInvalid(() => parseUsername('ali\tce'), '"ali\\tce" contains U+0009');
    expectInvalid(() => parseUsername('alice\n'), '"alice\\n" contains U+000A');
    expectInvalid(() => parseUsername('ali\u00a0ce'), /contains U\+00A0$/);
    expectInvalid(() => parseUsername('ali\u2003ce'), /contains U\+2003$/);
    expectInvalid(() => parseUsername('ali\u3000ce'), /contains U\+3000$/);
    expectInvalid(() => parseUsername('ali\u0085ce'), /contains U\+0085$/);
    expectInvalid(() => parseUsername('ali\ufeffce'), /contains U\+FEFF$/);
  });

  it('rejects control characters, lone surrogates and bidi controls', () => {
    expectInvalid(() => parseUsername('ali\u0000ce'), /contains U\+0000 \(control character\)$/);
    expectInvalid(() => parseUsername('ali\u001bce'), /contains U\+001B \(control character\)$/);
    expectInvalid(() => parseUsername('ali\u007fce'), /contains U\+007F \(control character\)$/);
    expectInvalid(() => parseUsername('ali\ud800ce'), /contains U\+D800 \(invisible character\)$/);
    expectInvalid(() => parseUsername('admin\u202etxt.exe'), /contains U\+202E \(right-to-left override\)$/);
    expectInvalid(() => parseUsername('ali\u200bce'), /contains U\+200B \(zero-width space\)$/);
    expectInvalid(() => parseUsername('ali\u200dce'), /contains U\+200D \(zero-width joiner\)$/);
    expectInvalid(() => parseUsername('ali\u2060ce'), /contains U\+2060 \(word joiner\)$/);
  });
});

describe('parseUsername in German', () => {
  it('says what is wrong and what is expected in German', () => {
    const empty = expectInvalid(() => parseUsername(''), 'no user name given');
    expect(de.render(empty.problem)).toBe('Benutzername fehlt');
    expect(de.render(empty.expected)).toBe('1 bis 64 Zeichen ohne Leerzeichen, etwa alice oder jörg.m');
    const long = expectInvalid(() => parseUsername('a'.repeat(65)), /is 65 characters long, at most 64$/);
    expect(de.render(long.problem)).toMatch(/ ist 65 Zeichen lang, höchstens 64$/);
    const hidden = expectInvalid(() => parseUsername('admin\u202etxt.exe'), /right-to-left override/);
    expect(de.render(hidden.problem)).toMatch(/ enthält U\+202E \(Rechts-nach-links-Überschreibung\)$/);
  });
});
