import { describe, expect, it } from 'vitest';
import { cutText } from '../../src/text/cutText.js';

/** Lone surrogates: Discord rejects a payload that carries one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('cutText', () => {
  it('returns text that fits unchanged, marker or not', () => {
    expect(cutText('example.com', 11)).toBe('example.com');
    expect(cutText('', 0)).toBe('');
    expect(cutText('😀', 2)).toBe('😀');
  });

  it('never exceeds the limit, marker included, and marks the cut', () => {
    const cut = cutText('x'.repeat(10_000), 61);
    expect(cut).toBe(`${'x'.repeat(60)}…`);
    expect(cut.length).toBe(61);
    expect(cutText('abcdef', 4, ' [more]')).toBe('');
    expect(cutText('abcdefghijkl', 10, ' [+]')).toBe('abcdef [+]');
  });

  it('never splits an astral character into a lone surrogate, at any limit', () => {
    const emoji = '😀🌍🎵'.repeat(20);
    for (let max = 0; max < emoji.length; max++) {
      const cut = cutText(emoji, max);
      expect(cut.length).toBeLessThanOrEqual(max);
      expect(cut, `max ${max}`).not.toMatch(LONE_SURROGATE);
    }
  });

  it('keeps grapheme clusters whole: flags, skin tones, ZWJ families, combining marks', () => {
    const family = '👨‍👩‍👧'; // 8 UTF-16 units
    expect(cutText(`${family}${family}`, 12)).toBe(`${family}…`);
    expect(cutText(`${family}${family}`, 8)).toBe('…');
    expect(cutText('🇩🇪🇫🇷', 6)).toBe('🇩🇪…');
    expect(cutText('👍🏽👍🏽', 5)).toBe('👍🏽…');
    expect(cutText('e\u0301e\u0301e\u0301', 4)).toBe('e\u0301…');
  });

  it('cuts a 45-unit modal title from a long emoji domain without breaking it', () => {
    const title = `DNS records for ${'🎵'.repeat(40)}.de`;
    const cut = cutText(title, 45);
    expect(cut.length).toBeLessThanOrEqual(45);
    expect(cut).not.toMatch(LONE_SURROGATE);
    expect(cut.endsWith('🎵…')).toBe(true);
  });
});
