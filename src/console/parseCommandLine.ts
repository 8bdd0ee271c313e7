import {
  type APIApplicationCommandBasicOption,
  type APIApplicationCommandOption,
  ApplicationCommandOptionType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import { commandTexts } from '../i18n/commandTexts.js';
import type { Locale } from '../i18n/locales.js';
import { type Message, message, translator } from '../i18n/Translator.js';

/** One option as the command line set it, converted to the type its definition declares. */
export interface ParsedOption {
  name: string;
  type: ApplicationCommandOptionType;
  value: string | number | boolean;
}

/** A slash command as typed in the console, resolved against the command definitions. */
export interface ParsedCommand {
  commandName: string;
  group: string | null;
  subcommand: string | null;
  options: ParsedOption[];
  /** `/domain info`, as the router labels it. */
  label: string;
}

/**
 * What the user typed cannot be run: unknown command or option, missing or malformed value. `text` is
 * the problem for the reader's language (`message` is its English words).
 */
export class CommandLineError extends Error {
  override readonly name = 'CommandLineError';
  readonly text: Message;

  /** `refused`: the line is fine, but the console may not run it (exit code 3, not 2). */
  constructor(
    text: Message,
    readonly refused = false,
  ) {
    super(translator('en').render(text));
    this.text = text;
  }
}

type Definition = Pick<RESTPostAPIChatInputApplicationCommandsJSONBody, 'name' | 'options' | 'description'>;

interface Token {
  text: string;
  /** Started with a quote: never read as `name:value`. */
  quoted: boolean;
}

/**
 * Splits a line into words: whitespace separates, single or double quotes group words (also in the
 * middle of a word: `domains:"a.com b.com"`), and a backslash inside double quotes escapes `"` or `\`.
 */
export function tokenize(line: string): Token[] {
  const tokens: Token[] = [];
  let current = '';
  let started = false;
  let quoted = false;
  let quote: '"' | "'" | null = null;
  for (let index = 0; index < line.length; index++) {
    const char = line.charAt(index);
    if (quote) {
      if (char === quote) quote = null;
      else if (char === '\\' && quote === '"' && /["\\]/.test(line.charAt(index + 1))) {
        current += line.charAt(index + 1);
        index++;
      } else current += char;
      continue;
    }
    if (char === '"' || char === "'") {
      if (!started) quoted = true;
      quote = char;
      started = true;
      continue;
    }
    if (/\s/.test(char)) {
      if (started) tokens.push({ text: current, quoted });
      current = '';
      started = false;
      quoted = false;
      continue;
    }
    current += char;
    started = true;
  }
  if (quote) {
    throw new CommandLineError(
      message(quote === '"' ? 'console.line.unclosed_double' : 'console.line.unclosed_single'),
    );
  }
  if (started) tokens.push({ text: current, quoted });
  return tokens;
}

const NESTING = new Set<ApplicationCommandOptionType>([
  ApplicationCommandOptionType.Subcommand,
  ApplicationCommandOptionType.SubcommandGroup,
]);

/** The options of a command or subcommand that take values (not subcommands). */
export function valueOptions(options: readonly APIApplicationCommandOption[] | undefined) {
  return (options ?? []).filter((o) => !NESTING.has(o.type)) as APIApplicationCommandBasicOption[];
}

/** Subcommands or groups directly under a command or group. */
export function nestedOptions(options: readonly APIApplicationCommandOption[] | undefined) {
  return (options ?? []).filter((o) => NESTING.has(o.type)) as (APIApplicationCommandOption & {
    options?: APIApplicationCommandOption[];
  })[];
}

const OPTION_NAME = /^([\p{Ll}\p{Lo}\p{N}_-]{1,32}):(.*)$/su;

/**
 * `/domain info example.com`, `/server rdns id:42 ip:203.0.113.7 hostname:host.example.com`,
 * `/domain expiry domains:"a.com b.com" within:14`: positional values fill the required options in
 * order (then the optional ones), `name:value` sets any option, and each value is converted and
 * checked as Discord's client would (type, choices, limits, required options).
 */
export function parseCommandLine(
  line: string,
  definitions: readonly Definition[],
  locale: Locale = 'en',
): ParsedCommand {
  // The names Discord shows in this language are taken too (`/domain ablauf`), beside the English ones.
  const texts = locale === 'en' ? undefined : commandTexts[locale];
  const named = (name: string, key: string, typed: string) => name === typed || texts?.[key]?.name === typed;
  const tokens = tokenize(line.trim());
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
  /** `domain.expiry`: where the texts of this level's options are (see commandPaths). */
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
  const declared = valueOptions(options);
  const values = new Map<string, ParsedOption>();
  const positional: string[] = [];
  for (const token of tokens) {
    const nameValue = token.quoted ? null : OPTION_NAME.exec(token.text);
    if (nameValue) {
      const [, rawName = '', value = ''] = nameValue;
      const typed = rawName.toLowerCase();
      const option =
        declared.find((o) => o.name === typed) ??
        declared.find((o) => named(o.name, `${key}.${o.name}`, typed));
      if (option) {
        if (values.has(option.name)) {
          throw new CommandLineError(message('console.line.option_twice', { option: option.name }));
        }
        values.set(option.name, convert(option, value, `${key}.${option.name}`, texts));
        continue;
      }
      // Looks like an option name (letters only, as HostOps names them) but is none: say so.
      if (/^[\p{L}_]+$/u.test(rawName)) {
        throw new CommandLineError(
          message('console.line.no_option', { path, name: rawName, options: describeOptions(declared) }),
        );
      }
    }
    positional.push(token.text);
  }
  // Positional values: required options first, then the optional ones, each in definition order.
  const open = [
    ...declared.filter((o) => o.required && !values.has(o.name)),
    ...declared.filter((o) => !o.required && !values.has(o.name)),
  ];
  for (const value of positional) {
    const option = open.shift();
    if (!option) {
      throw new CommandLineError(
        message('console.line.too_many_values', { path, value: JSON.stringify(value) }),
      );
    }
    values.set(option.name, convert(option, value, `${key}.${option.name}`, texts));
  }
  const missing = declared.filter((o) => o.required && !values.has(o.name));
  if (missing.length > 0) {
    const described = missing.map(
      (o) => `${o.name} (${texts?.[`${key}.${o.name}`]?.description ?? o.description})`,
    );
    throw new CommandLineError(message('console.line.missing', { path, options: described.join(', ') }));
  }
  // In definition order, as Discord sends them.
  const ordered = declared.flatMap((o) => {
    const value = values.get(o.name);
    return value ? [value] : [];
  });
  return { commandName: definition.name, group, subcommand, options: ordered, label: path };
}

function describeOptions(options: readonly APIApplicationCommandBasicOption[]): Message {
  if (options.length === 0) return message('console.line.takes_no_options');
  return message('console.line.its_options', {
    options: options.map((o) => (o.required ? o.name : `[${o.name}]`)).join(' '),
  });
}

const TRUE = new Set(['true', 'yes', 'y', '1', 'on', 'ja', 'j']);
const FALSE = new Set(['false', 'no', 'n', '0', 'off', 'nein']);

/**
 * The typed text as the option's type, within the limits its definition declares. `key` and `texts`:
 * where this option's choices are named in the console's language, if not English.
 */
function convert(
  option: APIApplicationCommandBasicOption,
  raw: string,
  key: string,
  texts: (typeof commandTexts)[keyof typeof commandTexts] | undefined,
): ParsedOption {
  const { name, type } = option;
  const fail = (problem: Message): never => {
    throw new CommandLineError(message('console.line.option', { option: name, problem }));
  };
  const quoted = JSON.stringify(raw);
  let value: string | number | boolean;
  switch (type) {
    case ApplicationCommandOptionType.Integer:
    case ApplicationCommandOptionType.Number: {
      const integer = type === ApplicationCommandOptionType.Integer;
      const pattern = integer ? /^[+-]?\d+$/ : /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
      if (!pattern.test(raw)) {
        fail(
          message(integer ? 'console.line.not_whole_number' : 'console.line.not_number', { value: quoted }),
        );
      }
      value = Number(raw);
      if (integer && !Number.isSafeInteger(value)) fail(message('console.line.too_large', { value: raw }));
      const { min_value: min, max_value: max } = option as { min_value?: number; max_value?: number };
      // The limits as the definition writes them (no digit grouping: they are typed that way).
      if (min !== undefined && value < min) {
        fail(message('console.line.below_minimum', { value: raw, minimum: String(min) }));
      }
      if (max !== undefined && value > max) {
        fail(message('console.line.above_maximum', { value: raw, maximum: String(max) }));
      }
      break;
    }
    case ApplicationCommandOptionType.Boolean: {
      const lower = raw.toLowerCase();
      if (TRUE.has(lower)) value = true;
      else if (FALSE.has(lower)) value = false;
      else return fail(message('console.line.not_boolean', { value: quoted }));
      break;
    }
    case ApplicationCommandOptionType.String: {
      const { min_length: min, max_length: max } = option as { min_length?: number; max_length?: number };
      if (raw === '') fail(message('console.line.empty_value'));
      if (min !== undefined && raw.length < min)
        fail(message('console.line.too_short', { length: String(min) }));
      if (max !== undefined && raw.length > max)
        fail(message('console.line.too_long', { length: String(max) }));
      value = raw;
      break;
    }
    case ApplicationCommandOptionType.User:
    case ApplicationCommandOptionType.Mentionable:
    case ApplicationCommandOptionType.Role:
    case ApplicationCommandOptionType.Channel: {
      const id = /^(?:<[@#]?[!&]?)?(\d{17,20})>?$/.exec(raw)?.[1];
      if (!id) return fail(message('console.line.not_discord_id', { value: quoted }));
      value = id;
      break;
    }
    default:
      return fail(message('console.line.no_files'));
  }
  const choices = (option as { choices?: { name: string; value: string | number }[] }).choices;
  if (choices && choices.length > 0) {
    const local = (c: { value: string | number }) => texts?.[`${key}=${c.value}`]?.name;
    const choice =
      choices.find((c) => c.value === value || c.name === raw || c.name === `/${raw}`) ??
      choices.find((c) => local(c) !== undefined && (local(c) === raw || local(c) === `/${raw}`));
    if (!choice) {
      fail(
        message('console.line.not_a_choice', {
          value: quoted,
          choices: choices.map((c) => c.value).join(', '),
        }),
      );
    } else value = choice.value;
  }
  return { name, type, value };
}
