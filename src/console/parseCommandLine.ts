import { ApplicationCommandOptionType } from 'discord.js';
import { commandTexts } from '../i18n/commandTexts.js';
import type { Locale } from '../i18n/locales.js';
import { type Message, message } from '../i18n/Translator.js';
import { CommandLineError } from './CommandLineError.js';
import { type Definition, type Option, placeValues, resolvePath, spelling } from './resolvePath.js';
import { tokenize } from './tokenize.js';

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
  const named = spelling([locale]);
  const tokens = tokenize(line.trim());
  const command = resolvePath(tokens, definitions, named);
  const { path, key, declared } = command;
  const values = new Map<string, ParsedOption>();
  const placed = placeValues(tokens, command, named);
  // Named values first, in the order typed, then positional ones: errors come in the order they are met.
  for (const { name, value, option, problem } of [
    ...placed.filter((p) => p.name !== undefined),
    ...placed.filter((p) => p.name === undefined),
  ]) {
    if (problem === 'no_option') {
      throw new CommandLineError(
        message('console.line.no_option', { path, name: name ?? '', options: describeOptions(declared) }),
      );
    }
    if (problem === 'twice') {
      throw new CommandLineError(message('console.line.option_twice', { option: option?.name ?? '' }));
    }
    if (problem === 'too_many' || !option) {
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
  return {
    commandName: command.definition.name,
    group: command.group,
    subcommand: command.subcommand,
    options: ordered,
    label: path,
  };
}

function describeOptions(options: readonly Option[]): Message {
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
  option: Option,
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
    case ApplicationCommandOptionType.Mentionable: {
      // No guild to tell a role's id from a member's: `role:<id>` or `<@&id>` says it (what /access grant reads).
      const match = /^(?:(role|user):|<@(&?)!?)?(\d{17,20})>?$/.exec(raw);
      if (!match?.[3]) return fail(message('console.line.not_discord_id', { value: quoted }));
      const kind = match[1] ?? (match[2] === '&' ? 'role' : undefined);
      value = kind ? `${kind}:${match[3]}` : match[3];
      break;
    }
    case ApplicationCommandOptionType.User:
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
