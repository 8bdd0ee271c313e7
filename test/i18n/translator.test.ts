import { describe, expect, it } from 'vitest';
import { catalogue, english } from '../../src/i18n/catalogue.js';
import { PLACEHOLDER } from '../../src/i18n/defineMessages.js';
import { LOCALES, pickLocale } from '../../src/i18n/locales.js';
import { figure, type MessageKey, message, translator } from '../../src/i18n/Translator.js';

describe('pickLocale', () => {
  it.each([
    // What Discord sends in interaction.locale.
    ['de', 'de'],
    ['de-DE', 'de'],
    ['de-AT', 'de'],
    ['en-US', 'en'],
    ['en-GB', 'en'],
    ['pt-BR', 'en'],
    ['fr', 'en'],
    ['zh-CN', 'en'],
    // POSIX LANG values.
    ['de_DE.UTF-8', 'de'],
    ['de_CH', 'de'],
    ['de_DE@euro', 'de'],
    ['DE_de.utf8', 'de'],
    ['C', 'en'],
    ['C.UTF-8', 'en'],
    ['POSIX', 'en'],
    ['en_US.UTF-8', 'en'],
    ['deu', 'en'],
    ['', 'en'],
    [null, 'en'],
    [undefined, 'en'],
  ])('%s → %s', (value, locale) => {
    expect(pickLocale(value)).toBe(locale);
  });
});

describe('translator', () => {
  const en = translator('en');
  const de = translator('de');

  it('is one per language', () => {
    expect(translator('de')).toBe(de);
    expect(de.locale).toBe('de');
  });

  it('formats numbers for the language: 1,234 / 1.234, in messages too', () => {
    expect(en.number(1234)).toBe('1,234');
    expect(de.number(1234)).toBe('1.234');
    expect(de.number(1234.5, { maximumFractionDigits: 1 })).toBe('1.234,5');
    expect(en('errors.rate_limited', { seconds: figure(1234) })).toBe(
      'The provider is rate limiting us: retry in 1,234 s.',
    );
    expect(de('errors.rate_limited', { seconds: figure(1234) })).toContain('1.234 s');
    // Identifiers go in as text: never grouped.
    expect(de('errors.rate_limited', { seconds: '1234' })).toContain('1234 s');
  });

  it('joins lists for the language', () => {
    expect(en.list(['a', 'b', 'c'])).toBe('a, b, and c');
    expect(de.list(['a', 'b', 'c'])).toBe('a, b und c');
    expect(de.list(['a', 'b'], 'disjunction')).toBe('a oder b');
  });

  it('renders message descriptors, with nested messages, in each language', () => {
    const refusal = message('errors.refused.tier', {
      command: '/server rdns',
      tier: 'operator',
      roles: message('errors.refused.tier_roles', { roles: '@ops' }),
    });
    expect(en.render(refusal)).toBe('`/server rdns` needs the **operator** tier: one of these roles: @ops.');
    expect(de.render(refusal)).toBe(
      '`/server rdns` erfordert die Stufe **operator**: eine dieser Rollen: @ops.',
    );
    expect(de.render('already words')).toBe('already words');
  });

  // Every plural pair of the catalogue, with made-up values for its other placeholders.
  const bases = Object.keys(english)
    .filter((key) => key.endsWith('_one'))
    .map((key) => key.slice(0, -'_one'.length));

  it('the catalogue has plurals to pick from', () => {
    expect(bases.length).toBeGreaterThan(0);
  });

  it.each(LOCALES)('%s: picks …_one for 1 and …_other for 0, 2 and 1,234', (locale) => {
    const t = translator(locale);
    const entries: Readonly<Record<string, string>> = catalogue[locale];
    const fill = (template: string, count: number) =>
      template.replace(PLACEHOLDER, (_whole, name: string) =>
        name === 'count' ? t.number(count) : `<${name}>`,
      );
    for (const base of bases) {
      const names = new Set(
        [...`${entries[`${base}_one`]} ${entries[`${base}_other`]}`.matchAll(PLACEHOLDER)].map((m) => m[1]),
      );
      const params: Record<string, string | number> = {};
      for (const name of names) params[name ?? ''] = `<${name}>`;
      // A descriptor built by hand: the keys are only known at run time here.
      const say = (count: number) => t.render({ key: base as MessageKey, params: { ...params, count } });
      expect(say(1), `${locale} ${base} 1`).toBe(fill(entries[`${base}_one`] ?? '', 1));
      for (const count of [0, 2, 1234]) {
        expect(say(count), `${locale} ${base} ${count}`).toBe(fill(entries[`${base}_other`] ?? '', count));
      }
    }
  });
});
