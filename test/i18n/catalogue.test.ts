import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogue, english } from '../../src/i18n/catalogue.js';
import { PLACEHOLDER } from '../../src/i18n/defineMessages.js';
import { LOCALES } from '../../src/i18n/locales.js';

const placeholders = (text: string) => [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]))].sort();
const keys = Object.keys(english).sort();
const PLURAL = /^(.*)_(one|other)$/;

describe('the message catalogue', () => {
  it('has the same keys in every language', () => {
    for (const locale of LOCALES) expect(Object.keys(catalogue[locale]).sort(), locale).toEqual(keys);
  });

  it.each(LOCALES)(
    '%s: every entry has the English entry’s placeholders, and no entry is empty',
    (locale) => {
      const entries: Readonly<Record<string, string>> = catalogue[locale];
      for (const key of keys) {
        const text = entries[key];
        expect(typeof text, key).toBe('string');
        expect((text ?? '').trim(), `${locale} ${key} is empty`).not.toBe('');
        expect(placeholders(text ?? ''), `${locale} ${key}`).toEqual(
          placeholders((english as Record<string, string>)[key] ?? ''),
        );
      }
    },
  );

  // The form is chosen by the `count` parameter; a text may show the number as `{count}` (grouped for the
  // language) or as an identifier-like `{n}` the caller formats (see watch/formatDate.ts `counted`).
  it('plurals come in complete pairs (…_one and …_other) in every language, never beside a plain key', () => {
    const all = new Set(keys);
    for (const key of keys) {
      const match = PLURAL.exec(key);
      if (!match) continue;
      const [, base = ''] = match;
      expect(all.has(`${base}_one`), `${base}_one`).toBe(true);
      expect(all.has(`${base}_other`), `${base}_other`).toBe(true);
      expect(all.has(base), `${base} is both a plural and a plain message`).toBe(false);
      for (const locale of LOCALES) {
        for (const form of ['one', 'other']) {
          const text: string = catalogue[locale][`${base}_${form}` as keyof typeof english];
          expect(text.trim(), `${locale} ${base}_${form}`).not.toBe('');
        }
      }
    }
  });

  it('every area file holds only keys of its own area, and no two areas share a key', async () => {
    const folder = join(import.meta.dirname, '../../src/i18n/messages');
    const files = readdirSync(folder).filter((file) => file.endsWith('.ts'));
    const seen = new Map<string, string>();
    for (const file of files) {
      const area = file.replace(/\.ts$/, '');
      const module = (await import(join(folder, file))) as Record<string, Record<string, string>>;
      for (const locale of LOCALES) expect(module[locale], `${file} exports ${locale}`).toBeDefined();
      for (const key of Object.keys(module.en ?? {})) {
        expect(key.startsWith(`${area}.`), `${key} in ${file}`).toBe(true);
        expect(seen.get(key), `${key} twice`).toBeUndefined();
        seen.set(key, area);
      }
    }
    expect([...seen.keys()].sort()).toEqual(keys);
  });
});
