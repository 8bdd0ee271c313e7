import { describe, expect, it } from 'vitest';
import { translator } from '../../src/i18n/Translator.js';
import { MAX_ECHO_LENGTH, quoteChar, quoteInput } from '../../src/validation/quote.js';

describe('quoteInput', () => {
  it('quotes and escapes so input cannot break the message', () => {
    expect(quoteInput('bücher.de')).toBe('"bücher.de"');
    expect(quoteInput('a"b\nc')).toBe('"a\\"b\\nc"');
    expect(quoteInput('a b&c=d#e+f%g')).toBe('"a b&c=d#e+f%g"');
  });

  it('truncates very long input', () => {
    const quoted = quoteInput('a'.repeat(5000));
    expect(quoted).toBe(`"${'a'.repeat(MAX_ECHO_LENGTH - 1)}…"`);
  });

  it('cuts emoji whole, never leaving half of a surrogate pair', () => {
    const quoted = quoteInput('😀'.repeat(100));
    expect(quoted).toBe(`"${'😀'.repeat((MAX_ECHO_LENGTH - 2) / 2)}…"`);
  });
});

describe('quoteChar', () => {
  it('shows visible characters in quotes', () => {
    expect(quoteChar('_')).toBe('"_"');
    expect(quoteChar('ü')).toBe('"ü"');
    expect(quoteChar('😀')).toBe('"😀"');
  });

  it('names invisible characters', () => {
    expect(translator('en').render(quoteChar(' '))).toBe('a space');
    expect(translator('de').render(quoteChar(' '))).toBe('ein Leerzeichen');
    expect(quoteChar('\u00a0')).toBe('U+00A0');
    expect(quoteChar('\t')).toBe('U+0009');
    expect(quoteChar('\u202e')).toBe('U+202E');
  });
});
