import type { ChatInputCommandInteraction } from 'discord.js';
import { InvalidValueError } from '../validation/InvalidValueError.js';
import { InvalidOptionError } from './UserError.js';

type Options = ChatInputCommandInteraction['options'];

/** Runs a validator on one option, naming the option when it refuses the value. */
export function validated<T>(option: string, raw: string, parse: (raw: string) => T): T {
  try {
    return parse(raw);
  } catch (error) {
    if (error instanceof InvalidValueError) throw InvalidOptionError.from(option, error);
    throw error;
  }
}

export function stringOption<T = string>(options: Options, name: string, parse?: (raw: string) => T): T {
  const raw = options.getString(name, true);
  return parse ? validated(name, raw, parse) : (raw as T);
}

export function optionalStringOption<T>(
  options: Options,
  name: string,
  parse: (raw: string) => T,
): T | undefined {
  const raw = options.getString(name);
  return raw === null ? undefined : validated(name, raw, parse);
}

/** Discord enforces min_value too, but its limits are client-side only for raw API callers. */
export function integerOption(
  options: Options,
  name: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const value = options.getInteger(name, true);
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new InvalidOptionError(name, `${value} is out of range`, `a whole number from ${min} to ${max}`);
  }
  return value;
}
