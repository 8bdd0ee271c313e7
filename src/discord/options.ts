import { InvalidOptionError } from '../replies/UserError.js';
import { InvalidValueError } from '../validation/InvalidValueError.js';
import { refuseHiddenCharacters } from '../validation/refuseHiddenCharacters.js';
import type { OptionNames, TypedOptions } from './typedOptions.js';

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

export function stringOption<N extends OptionNames, T = string>(
  options: TypedOptions<N>,
  name: N['requiredString'],
  parse?: (raw: string) => T,
): T {
  return validated(name, options.getString(name, true), parse ?? ((raw) => raw as T));
}

export function optionalStringOption<N extends OptionNames, T>(
  options: TypedOptions<N>,
  name: N['string'],
  parse: (raw: string) => T,
): T | undefined {
  const raw = options.getString(name);
  return raw === null ? undefined : validated(name, raw, parse);
}
