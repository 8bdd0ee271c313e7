import { type APIApplicationCommandOption, ApplicationCommandOptionType } from 'discord.js';
import { message } from '../i18n/Translator.js';
import { InvalidOptionError } from '../replies/UserError.js';

/** What is read of the interaction: the options given, by name (discord.js's resolver). */
interface GivenOptions {
  get(name: string): { value?: string | number | boolean | undefined } | null;
}

/**
 * The limits a definition declares — `min_value`/`max_value`, `min_length`/`max_length` — checked for
 * every option given, before the command reads any. Discord's clients enforce them, but a raw API
 * caller or the console need not; so they are written once, in the definition, and hold everywhere.
 */
export function checkOptionLimits(
  definitions: readonly APIApplicationCommandOption[],
  options: GivenOptions,
): void {
  for (const definition of definitions) {
    const value = options.get(definition.name)?.value;
    if (value === undefined) continue;
    if (
      (definition.type === ApplicationCommandOptionType.Integer ||
        definition.type === ApplicationCommandOptionType.Number) &&
      typeof value === 'number'
    ) {
      const integer = definition.type === ApplicationCommandOptionType.Integer;
      const min = definition.min_value ?? (integer ? Number.MIN_SAFE_INTEGER : -Number.MAX_VALUE);
      const max = definition.max_value ?? (integer ? Number.MAX_SAFE_INTEGER : Number.MAX_VALUE);
      const whole = integer ? Number.isSafeInteger(value) : Number.isFinite(value);
      if (!whole || value < min || value > max) {
        // Plain digits (`1000`, not `1,000`), like every number in validation messages.
        throw new InvalidOptionError(
          definition.name,
          message('validation.integer.out_of_range', { value: String(value) }),
          message(integer ? 'validation.integer.expected' : 'validation.number.expected', {
            min: String(min),
            max: String(max),
          }),
        );
      }
    }
    if (definition.type === ApplicationCommandOptionType.String && typeof value === 'string') {
      // Discord counts characters, not UTF-16 units.
      const length = [...value].length;
      if (definition.max_length !== undefined && length > definition.max_length) {
        throw new InvalidOptionError(
          definition.name,
          message('validation.option.length', { count: length }),
          message('validation.option.at_most', { max: String(definition.max_length) }),
        );
      }
      if (definition.min_length !== undefined && length < definition.min_length) {
        throw new InvalidOptionError(
          definition.name,
          message('validation.option.length', { count: length }),
          message('validation.option.at_least', { min: String(definition.min_length) }),
        );
      }
    }
  }
}
