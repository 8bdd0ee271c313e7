import {
  type APIApplicationCommandBasicOption,
  type APIApplicationCommandOption,
  ApplicationCommandOptionType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';

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

/** What the user typed cannot be run: unknown command or option, missing or malformed value. */
export class CommandLineError extends Error {
  override readonly name = 'CommandLineError';
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
  if (quote) throw new CommandLineError(`unclosed ${quote === '"' ? 'double' : 'single'} quote`);
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
export function parseCommandLine(line: string, definitions: readonly Definition[]): ParsedCommand {
  const tokens = tokenize(line.trim());
  const first = tokens.shift();
  if (!first) throw new CommandLineError('empty command');
  const commandName = first.text.replace(/^\//, '').toLowerCase();
  const definition = definitions.find((d) => d.name === commandName);
  if (!definition) {
    throw new CommandLineError(
      `unknown command /${commandName}; commands: ${definitions.map((d) => `/${d.name}`).join(', ')}`,
    );
  }
  let path = `/${definition.name}`;
  let group: string | null = null;
  let subcommand: string | null = null;
  let options = definition.options as readonly APIApplicationCommandOption[] | undefined;
  // Walk down subcommand groups and subcommands by name.
  for (;;) {
    const nested = nestedOptions(options);
    if (nested.length === 0) break;
    const token = tokens.shift();
    const names = nested.map((o) => o.name).join(', ');
    if (!token) throw new CommandLineError(`${path} needs a subcommand: ${names}`);
    const found = nested.find((o) => o.name === token.text.toLowerCase());
    if (!found)
      throw new CommandLineError(`${path} has no subcommand ${token.text}; choose one of: ${names}`);
    if (found.type === ApplicationCommandOptionType.SubcommandGroup) group = found.name;
    else subcommand = found.name;
    path += ` ${found.name}`;
    options = found.options;
  }
  const declared = valueOptions(options);
  const values = new Map<string, ParsedOption>();
  const positional: string[] = [];
  for (const token of tokens) {
    const named = token.quoted ? null : OPTION_NAME.exec(token.text);
    if (named) {
      const [, rawName = '', value = ''] = named;
      const option = declared.find((o) => o.name === rawName.toLowerCase());
      if (option) {
        if (values.has(option.name)) throw new CommandLineError(`option ${option.name} is given twice`);
        values.set(option.name, convert(option, value));
        continue;
      }
      // Looks like an option name (letters only, as HostOps names them) but is none: say so.
      if (/^[a-z_]+$/i.test(rawName)) {
        throw new CommandLineError(`${path} has no option ${rawName}; ${describeOptions(declared)}`);
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
        `too many values for ${path}: ${JSON.stringify(value)} is not taken by any option (quote values with spaces)`,
      );
    }
    values.set(option.name, convert(option, value));
  }
  const missing = declared.filter((o) => o.required && !values.has(o.name));
  if (missing.length > 0) {
    throw new CommandLineError(
      `${path} is missing ${missing.map((o) => `${o.name} (${o.description})`).join(', ')}`,
    );
  }
  // In definition order, as Discord sends them.
  const ordered = declared.flatMap((o) => {
    const value = values.get(o.name);
    return value ? [value] : [];
  });
  return { commandName: definition.name, group, subcommand, options: ordered, label: path };
}

function describeOptions(options: readonly APIApplicationCommandBasicOption[]): string {
  if (options.length === 0) return 'it takes no options';
  return `its options: ${options.map((o) => (o.required ? o.name : `[${o.name}]`)).join(' ')}`;
}

const TRUE = new Set(['true', 'yes', 'y', '1', 'on']);
const FALSE = new Set(['false', 'no', 'n', '0', 'off']);

/** The typed text as the option's type, within the limits its definition declares. */
function convert(option: APIApplicationCommandBasicOption, raw: string): ParsedOption {
  const { name, type } = option;
  const fail = (why: string): never => {
    throw new CommandLineError(`option ${name}: ${why}`);
  };
  let value: string | number | boolean;
  switch (type) {
    case ApplicationCommandOptionType.Integer:
    case ApplicationCommandOptionType.Number: {
      const integer = type === ApplicationCommandOptionType.Integer;
      const pattern = integer ? /^[+-]?\d+$/ : /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
      if (!pattern.test(raw))
        fail(`${JSON.stringify(raw)} is not ${integer ? 'a whole number' : 'a number'}`);
      value = Number(raw);
      if (integer && !Number.isSafeInteger(value)) fail(`${raw} is too large`);
      const { min_value: min, max_value: max } = option as { min_value?: number; max_value?: number };
      if (min !== undefined && value < min) fail(`${raw} is below the minimum of ${min}`);
      if (max !== undefined && value > max) fail(`${raw} is above the maximum of ${max}`);
      break;
    }
    case ApplicationCommandOptionType.Boolean: {
      const lower = raw.toLowerCase();
      if (TRUE.has(lower)) value = true;
      else if (FALSE.has(lower)) value = false;
      else return fail(`${JSON.stringify(raw)} is not true or false`);
      break;
    }
    case ApplicationCommandOptionType.String: {
      const { min_length: min, max_length: max } = option as { min_length?: number; max_length?: number };
      if (raw === '') fail('is empty');
      if (min !== undefined && raw.length < min) fail(`is shorter than ${min} characters`);
      if (max !== undefined && raw.length > max) fail(`is longer than ${max} characters`);
      value = raw;
      break;
    }
    case ApplicationCommandOptionType.User:
    case ApplicationCommandOptionType.Mentionable:
    case ApplicationCommandOptionType.Role:
    case ApplicationCommandOptionType.Channel: {
      const id = /^(?:<[@#]?[!&]?)?(\d{17,20})>?$/.exec(raw)?.[1];
      if (!id) return fail(`${JSON.stringify(raw)} is not a Discord id (17–20 digits)`);
      value = id;
      break;
    }
    default:
      return fail('this kind of option (a file) cannot be given in the console');
  }
  const choices = (option as { choices?: { name: string; value: string | number }[] }).choices;
  if (choices && choices.length > 0) {
    const choice = choices.find((c) => c.value === value || c.name === raw || c.name === `/${raw}`);
    if (!choice) fail(`${JSON.stringify(raw)} is not one of: ${choices.map((c) => c.value).join(', ')}`);
    else value = choice.value;
  }
  return { name, type, value };
}
