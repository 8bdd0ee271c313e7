import { describe, expect, it } from 'vitest';
import { fieldValue } from '../../../src/discord/render/fieldValue.js';
import { translator } from '../../../src/i18n/Translator.js';

describe('fieldValue', () => {
  it('keeps a value that fits', () => {
    expect(fieldValue('x'.repeat(1024), translator('en'))).toBe('x'.repeat(1024));
  });

  it('cuts a long value visibly, saying how long it is in the reader’s language', () => {
    const english = fieldValue('x'.repeat(5000), translator('en'));
    expect(english).toHaveLength(1024);
    expect(english.endsWith(' … (5,000 characters, not all shown)')).toBe(true);
    const german = fieldValue('x'.repeat(5000), translator('de'));
    expect(german).toHaveLength(1024);
    expect(german.endsWith(' … (5.000 Zeichen, nicht alles angezeigt)')).toBe(true);
  });
});
