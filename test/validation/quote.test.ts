import { describe, expect, it } from 'vitest';
import { MAX_ECHO_LENGTH, quoteChar, quoteInput, truncateText } from '../../src/validation/quote.js';

describe('truncateText', () => {
  it('leaves short text alone', () => {
    expect(truncateText('example.com')).toBe('example.com');
    expect(truncateText('')).toBe('');
  });

  it('cuts long text to the limit and marks the cut', () => {
    const cut = truncateText('x'.repeat(10_000));
    expect(cut).toBe(`${'x'.repeat(MAX_ECHO_LENGTH)}…`);
  });

  it('counts code points, so emoji are neither split nor counted twice', () => {
    const emoji = '😀'.repeat(MAX_ECHO_LENGTH);
    expect(truncateText(emoji)).toBe(emoji);
    expect(truncateText(`${emoji}😀`)).toBe(`${emoji}…`);
    expect(truncateText('😀😀😀', 2)).toBe('😀😀…');
  });
});

describe('quoteInput', () => {
  it('quotes and escapes so input cannot break the message', () => {
    expect(quoteInput('bücher.de')).toBe('"bücher.de"');
    expect(quoteInput('a"b\nc')).toBe('"a\\"b\\nc"');
    expect(quoteInput('a b&c=d#e+f%g')).toBe('"a b&c=d#e+f%g"');
  });

  it('truncates very long input', () => {
    const quoted = quoteInput('a'.repeat(5000));
    expect(quoted).toBe(`"${'a'.repeat(MAX_ECHO_LENGTH)}…"`);
  });
});

describe('quoteChar', () => {
  it('shows visible characters in quotes', () => {
    expect(quoteChar('_')).toBe('"_"');
    expect(quoteChar('ü')).toBe('"ü"');
    expect(quoteChar('😀')).toBe('"😀"');
  });

  it('names invisible characters', () => {
    expect(quoteChar(' ')).toBe('a space');
    expect(quoteChar('\u00a0')).toBe('U+00A0');
    expect(quoteChar('\t')).toBe('U+0009');
    expect(quoteChar('\u202e')).toBe('U+202E');
  });
});
