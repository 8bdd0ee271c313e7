import type { APIApplicationCommandOption } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { commandTexts } from '../../src/i18n/commandTexts.js';
import { TRANSLATED_LOCALES } from '../../src/i18n/locales.js';
import { commandPaths, localizeCommand } from '../../src/i18n/localizeCommand.js';

/** Discord's rule for command and option names (lowercase is checked apart). */
const NAME = /^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;
const definitions = commands.map((command) => command.definition);
const paths = new Map(definitions.flatMap((definition) => [...commandPaths(definition)]));
/** `server.rdns.ip` → `server.rdns`; `audit.outcome=ok` → `audit.outcome=` (choices are siblings apart). */
const parentOf = (path: string) =>
  path.includes('=') ? `${path.slice(0, path.indexOf('='))}=` : path.split('.').slice(0, -1).join('.');

describe.each(TRANSLATED_LOCALES)('command texts in %s', (locale) => {
  const texts = commandTexts[locale];

  it('cover every command, subcommand, option and choice of commands/index.ts', () => {
    const missing = [...paths.keys()].filter((path) => texts[path] === undefined);
    expect(missing).toEqual([]);
  });

  it('have no entries for paths that no longer exist', () => {
    expect(Object.keys(texts).filter((path) => !paths.has(path))).toEqual([]);
  });

  it('follow Discord’s rules: names lowercase, ≤ 32, no spaces; descriptions and choice names 1–100', () => {
    for (const [path, english] of paths) {
      const text = texts[path];
      if (text === undefined) continue;
      if (path.includes('=')) {
        expect(text.name.length, `${path} name`).toBeGreaterThanOrEqual(1);
        expect(text.name.length, `${path} name`).toBeLessThanOrEqual(100);
        expect(text.description, `${path}: a choice has no description`).toBeUndefined();
        continue;
      }
      expect(text.name, `${path} name`).toMatch(NAME);
      expect(text.name, `${path} name lowercase`).toBe(text.name.toLowerCase());
      expect(english.description, `${path} has an English description`).toBeDefined();
      const description = text.description ?? '';
      expect(description.trim().length, `${path} description`).toBeGreaterThanOrEqual(1);
      expect(description.length, `${path} description: ${description}`).toBeLessThanOrEqual(100);
    }
  });

  it('give siblings different names', () => {
    const byParent = new Map<string, Map<string, string>>();
    for (const path of paths.keys()) {
      const name = texts[path]?.name;
      if (name === undefined) continue;
      const siblings = byParent.get(parentOf(path)) ?? new Map<string, string>();
      byParent.set(parentOf(path), siblings);
      expect(siblings.get(name), `${path} and ${siblings.get(name)} are both "${name}"`).toBeUndefined();
      siblings.set(name, path);
    }
  });

  it('name the /audit command choices by the translated command names', () => {
    for (const [path, english] of paths) {
      if (!path.startsWith('audit.command=')) continue;
      const value = path.slice('audit.command='.length).split(' ');
      const translated = value.map((_, index) => texts[value.slice(0, index + 1).join('.')]?.name);
      expect(english.name).toBe(`/${value.join(' ')}`);
      expect(texts[path]?.name, path).toBe(`/${translated.join(' ')}`);
    }
  });
});

type Localized = {
  name: string;
  description?: string;
  name_localizations?: Record<string, string>;
  description_localizations?: Record<string, string>;
  options?: (APIApplicationCommandOption & Localized)[];
  choices?: Localized[];
};

describe('localizeCommand', () => {
  it.each(definitions.map((definition) => [definition.name, definition] as const))(
    '/%s: every level carries the German name and description, the English stays as it was',
    (_name, definition) => {
      const localized = localizeCommand(definition) as unknown as Localized;
      const visit = (item: Localized, path: string) => {
        const text = commandTexts.de[path];
        expect(item.name_localizations, path).toEqual({ de: text?.name });
        if (item.description === undefined) expect(item.description_localizations, path).toBeUndefined();
        else expect(item.description_localizations, path).toEqual({ de: text?.description });
        for (const option of item.options ?? []) visit(option, `${path}.${option.name}`);
        for (const choice of item.choices ?? []) {
          visit(choice, `${path}=${(choice as unknown as { value: string }).value}`);
        }
      };
      visit(localized, definition.name);

      // Without the localisations, exactly the English definition.
      const strip = (value: unknown): unknown =>
        JSON.parse(
          JSON.stringify(value, (key, inner: unknown) =>
            key === 'name_localizations' || key === 'description_localizations' ? undefined : inner,
          ),
        );
      expect(strip(localized)).toEqual(strip(definition));
    },
  );

  it('leaves out what a language has no text for', () => {
    const definition = definitions.find((d) => d.name === 'server');
    if (!definition) throw new Error('no /server');
    const localized = localizeCommand(definition, {
      de: { server: { name: 'server-de', description: 'Server' } },
    }) as unknown as Localized;
    expect(localized.name_localizations).toEqual({ de: 'server-de' });
    expect(localized.options?.[0]?.name_localizations).toBeUndefined();
    expect(localized.options?.[0]?.description_localizations).toBeUndefined();
  });
});
