// How a typed line maps onto a command: its path (command, subcommand) and which option each value sets.
// The parser converts and refuses from here; the history masks from here, for lines that do not parse too.
import {
  type APIApplicationCommandBasicOption,
  type APIApplicationCommandOption,
  ApplicationCommandOptionType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import { commandTexts } from '../i18n/commandTexts.js';
import type { Locale } from '../i18n/locales.js';
import { message } from '../i18n/Translator.js';
import { CommandLineError } from './CommandLineError.js';
import { nameAndValue, type Token } from './tokenize.js';

export type Definition = Pick<
  RESTPostAPIChatInputApplicationCommandsJSONBody,
  'name' | 'options' | 'description'
>;
export type Option = APIApplicationCommandBasicOption;

const NESTING = new Set<ApplicationCommandOptionType>([
  ApplicationCommandOptionType.Subcommand,
  ApplicationCommandOptionType.SubcommandGroup,
]);

/** The options of a command or subcommand that take values (not subcommands). */
export function valueOptions(options: readonly APIApplicationCommandOption[] | undefined) {
  return (options ?? []).filter((o) => !NESTING.has(o.type)) as Option[];
}

/** Subcommands or groups directly under a command or group. */
export function nestedOptions(options: readonly APIApplicationCommandOption[] | undefined) {
  return (options ?? []).filter((o) => NESTING.has(o.type)) as (APIApplicationCommandOption & {
    options?: APIApplicationCommandOption[];
  })[];
}

/**
 * Whether `typed` names the command, subcommand or option `name` whose texts are at `key` (see
 * commandPaths): in English, or as one of `texts` names it.
 */
export type Spelling = (name: string, key: string, typed: string) => boolean;

/** English, and the names Discord shows in each of these languages. */
export function spelling(locales: readonly Locale[]): Spelling {
  const texts = locales.flatMap((locale) => (locale === 'en' ? [] : [commandTexts[locale]]));
  return (name, key, typed) => name === typed || texts.some((named) => named[key]?.name === typed);
}

/** Where a line's command path leads: the command's definition and the options its values may set. */
export interface CommandPath {
  definition: Definition;
  /** `/domain expiry`, as the router labels it. */
  path: string;
  /** `domain.expiry`: where the texts of its options are (see commandPaths). */
  key: string;
  group: string | null;
  subcommand: string | null;
  declared: Option[];
}

/**
 * Takes the command and its subcommand (group) off the front of `tokens` and finds their definition.
 * Throws CommandLineError for what names none.
 */
export function resolvePath(
  tokens: Token[],
  definitions: readonly Definition[],
  named: Spelling,
): CommandPath {
  const first = tokens.shift();
  if (!first) throw new CommandLineError(message('console.line.empty'));
  const commandName = first.text.replace(/^\//, '').toLowerCase();
  const definition =
    definitions.find((d) => d.name === commandName) ??
    definitions.find((d) => named(d.name, d.name, commandName));
  if (!definition) {
    throw new CommandLineError(
      message('console.line.unknown_command', {
        command: commandName,
        commands: definitions.map((d) => `/${d.name}`).join(', '),
      }),
    );
  }
  let path = `/${definition.name}`;
  let key = definition.name;
  let group: string | null = null;
  let subcommand: string | null = null;
  let options = definition.options as readonly APIApplicationCommandOption[] | undefined;
  // Walk down subcommand groups and subcommands by name.
  for (;;) {
    const nested = nestedOptions(options);
    if (nested.length === 0) break;
    const token = tokens.shift();
    const names = nested.map((o) => o.name).join(', ');
    if (!token) throw new CommandLineError(message('console.line.needs_subcommand', { path, names }));
    const typed = token.text.toLowerCase();
    const found =
      nested.find((o) => o.name === typed) ?? nested.find((o) => named(o.name, `${key}.${o.name}`, typed));
    if (!found) {
      throw new CommandLineError(message('console.line.no_subcommand', { path, name: token.text, names }));
    }
    if (found.type === ApplicationCommandOptionType.SubcommandGroup) group = found.name;
    else subcommand = found.name;
    path += ` ${found.name}`;
    key += `.${found.name}`;
    options = found.options;
  }
  return { definition, path, key, group, subcommand, declared: valueOptions(options) };
}

/** One value of a line and the option it sets, by name or by position, or why it sets none. */
export interface Placement {
  token: Token;
  /** `name:value`: the name as typed; undefined for a value by position. */
  name?: string;
  value: string;
  option?: Option;
  /** A name no option has, an option named twice, or a value by position with no option left for it. */
  problem?: 'no_option' | 'twice' | 'too_many';
}

/**
 * Which option each value after the command path sets: `name:value` the option of that name (in any
 * spelling `named` takes), positional values the required options not named, in order, then the optional
 * ones. In the order of the tokens; nothing is converted or refused here.
 */
export function placeValues(
  tokens: readonly Token[],
  { declared, key }: CommandPath,
  named: Spelling,
): Placement[] {
  const placed: Placement[] = [];
  const taken = new Set<string>();
  const positional: Placement[] = [];
  for (const token of tokens) {
    const pair = nameAndValue(token);
    if (pair) {
      const option =
        declared.find((o) => o.name === pair.typed) ??
        declared.find((o) => named(o.name, `${key}.${o.name}`, pair.typed));
      if (option) {
        placed.push({
          token,
          name: pair.raw,
          value: pair.value,
          option,
          ...(taken.has(option.name) && { problem: 'twice' }),
        });
        taken.add(option.name);
        continue;
      }
      // Looks like an option name (letters only, as HostOps names them) but is none.
      if (/^[\p{L}_]+$/u.test(pair.raw)) {
        placed.push({ token, name: pair.raw, value: pair.value, problem: 'no_option' });
        continue;
      }
    }
    const value: Placement = { token, value: token.text };
    placed.push(value);
    positional.push(value);
  }
  // Positional values: required options first, then the optional ones, each in definition order.
  const open = [
    ...declared.filter((o) => o.required && !taken.has(o.name)),
    ...declared.filter((o) => !o.required && !taken.has(o.name)),
  ];
  for (const value of positional) {
    const option = open.shift();
    if (option) value.option = option;
    else value.problem = 'too_many';
  }
  return placed;
}
