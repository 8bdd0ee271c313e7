import type { ChatInputCommandInteraction } from 'discord.js';
import { message } from '../i18n/Translator.js';
import { InvalidValueError } from '../validation/InvalidValueError.js';
import { refuseHiddenCharacters } from '../validation/refuseHiddenCharacters.js';
import { InvalidOptionError } from './UserError.js';

type Options = ChatInputCommandInteraction['options'];

/**
 * Runs a validator on one option, naming the option when it refuses the value. Every text value
 * passes here first, so the rule against characters that display differently holds for all of them.
 */
export function validated<T>(option: string, raw: string, parse: (raw: string) => T): T {
  try {
    return parse(refuseHiddenCharacters(raw));
  } catch (error) {
    if (error instanceof InvalidValueError) throw InvalidOptionError.from(option, error);
    throw error;
  }
}

export function stringOption<T = string>(options: Options, name: string, parse?: (raw: string) => T): T {
  return validated(name, options.getString(name, true), parse ?? ((raw) => raw as T));
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
    // Plain digits (`1000`, not `1,000`), like every number in validation messages.
    throw new InvalidOptionError(
      name,
      message('validation.integer.out_of_range', { value: String(value) }),
      message('validation.integer.expected', { min: String(min), max: String(max) }),
    );
  }
  return value;
}
