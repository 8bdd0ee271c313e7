import type {
  APIApplicationCommandOption,
  LocalizationMap,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import { type CommandTexts, commandTexts } from './commandTexts.js';
import { TRANSLATED_LOCALES } from './locales.js';

type Definition = RESTPostAPIChatInputApplicationCommandsJSONBody;

/**
 * Every path a definition names, with what Discord shows for it in English: `server`, `server.rdns`,
 * `server.rdns.ip`, and `domain.expiry.sort=expiry` for a choice (by value).
 */
export function commandPaths(definition: Definition): Map<string, { name: string; description?: string }> {
  const paths = new Map<string, { name: string; description?: string }>();
  paths.set(definition.name, { name: definition.name, description: definition.description });
  const visit = (options: readonly APIApplicationCommandOption[] | undefined, prefix: string) => {
    for (const option of options ?? []) {
      const path = `${prefix}.${option.name}`;
      paths.set(path, { name: option.name, description: option.description });
      if ('choices' in option) {
        for (const choice of option.choices ?? [])
          paths.set(`${path}=${choice.value}`, { name: choice.name });
      }
      if ('options' in option) visit(option.options, path);
    }
  };
  visit(definition.options, definition.name);
  return paths;
}

/**
 * The definition as registered: the same JSON with `name_localizations` and `description_localizations`
 * for every translated language, from `commandTexts`. Command code stays English-only; a language is
 * added in the texts, not here.
 */
export function localizeCommand(definition: Definition, texts: CommandTexts = commandTexts): Definition {
  const localized = (path: string, part: 'name' | 'description'): LocalizationMap | undefined => {
    const map: LocalizationMap = {};
    for (const locale of TRANSLATED_LOCALES) {
      const text = texts[locale][path]?.[part];
      if (text !== undefined) map[locale] = text;
    }
    return Object.keys(map).length > 0 ? map : undefined;
  };
  const withTexts = <T extends { name: string; description?: string }>(item: T, path: string): T => {
    const names = localized(path, 'name');
    const descriptions = item.description === undefined ? undefined : localized(path, 'description');
    return {
      ...item,
      ...(names ? { name_localizations: names } : {}),
      ...(descriptions ? { description_localizations: descriptions } : {}),
    };
  };
  const visit = (
    options: readonly APIApplicationCommandOption[] | undefined,
    prefix: string,
  ): APIApplicationCommandOption[] | undefined =>
    options?.map((option) => {
      const path = `${prefix}.${option.name}`;
      const copy = withTexts({ ...option }, path) as APIApplicationCommandOption & {
        choices?: { name: string; value: string | number }[];
        options?: APIApplicationCommandOption[];
      };
      if ('choices' in option && option.choices) {
        copy.choices = option.choices.map((choice) => withTexts({ ...choice }, `${path}=${choice.value}`));
      }
      if ('options' in option && option.options) copy.options = visit(option.options, path);
      return copy;
    });
  const options = visit(definition.options, definition.name);
  return { ...withTexts({ ...definition }, definition.name), ...(options ? { options } : {}) };
}
