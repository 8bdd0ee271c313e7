import { describe, expect, it } from 'vitest';
import { consoleConfig, consoleLocale } from '../../src/console/consoleConfig.js';

describe('consoleLocale', () => {
  it.each([
    [{ LANG: 'de_DE.UTF-8' }, 'de'],
    [{ LANG: 'de_AT' }, 'de'],
    [{ LANG: 'C' }, 'en'],
    [{ LANG: 'C.UTF-8' }, 'en'],
    [{ LANG: 'POSIX' }, 'en'],
    [{ LANG: 'en_US.UTF-8' }, 'en'],
    [{ LANG: 'fr_FR.UTF-8' }, 'en'],
    [{}, 'en'],
    // POSIX precedence: LC_ALL, then LC_MESSAGES, then LANG; an empty one does not count.
    [{ LC_ALL: 'C', LANG: 'de_DE.UTF-8' }, 'en'],
    [{ LC_ALL: 'de_DE.UTF-8', LANG: 'C' }, 'de'],
    [{ LC_MESSAGES: 'de_DE.UTF-8', LANG: 'en_GB.UTF-8' }, 'de'],
    [{ LC_ALL: 'en_US.UTF-8', LC_MESSAGES: 'de_DE.UTF-8' }, 'en'],
    [{ LC_ALL: '', LANG: 'de_DE.UTF-8' }, 'de'],
  ])('%j → %s', (env, locale) => {
    expect(consoleLocale(env)).toBe(locale);
  });
});

describe('consoleConfig', () => {
  const base = { HOSTING_API_URL: 'sandbox', DATABASE_URL: 'sqlite::memory:' };

  it('BOT_LOCALE follows the terminal unless it is set', () => {
    expect(consoleConfig({ ...base }).botLocale).toBe('en');
    expect(consoleConfig({ ...base, LANG: 'de_DE.UTF-8' }).botLocale).toBe('de');
    expect(consoleConfig({ ...base, LANG: 'de_DE.UTF-8', BOT_LOCALE: 'en' }).botLocale).toBe('en');
    expect(consoleConfig({ ...base, LANG: 'C', BOT_LOCALE: 'de' }).botLocale).toBe('de');
  });
});
