// Option names and types come from the `as const` definitions: reading an option a subcommand does not
// declare, or with the wrong type or requiredness, fails `npm run typecheck` (the @ts-expect-error lines
// below fail it too if the mistake were ever accepted). At run time the accessor is discord.js' own.
import {
  ApplicationCommandOptionType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import { describe, expect, it } from 'vitest';
import type { ContextOf } from '../../src/discord/CommandModule.js';
import { optionalStringOption, stringOption } from '../../src/discord/options.js';
import type { TypedOptions } from '../../src/discord/typedOptions.js';

const definition = {
  name: 'sample',
  description: 'A sample',
  options: [
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'one',
      description: 'One',
      options: [
        { type: ApplicationCommandOptionType.String, name: 'domain', description: 'd', required: true },
        { type: ApplicationCommandOptionType.String, name: 'note', description: 'n' },
        { type: ApplicationCommandOptionType.Integer, name: 'days', description: 'd' },
      ],
    },
    { type: ApplicationCommandOptionType.Subcommand, name: 'two', description: 'Two' },
  ],
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

type One = ContextOf<typeof definition, 'one'>['interaction']['options'];
type Two = ContextOf<typeof definition, 'two'>['interaction']['options'];

/** What discord.js hands the handler, reduced to what these reads touch (a missing required one throws). */
function options(values: Record<string, string | number>): One & Two {
  const get = (name: string, required?: boolean) => {
    const value = values[name];
    if (value === undefined && required) throw new TypeError(`option "${name}" not found`);
    return value ?? null;
  };
  return {
    get: () => null,
    getString: get,
    getInteger: get,
    getBoolean: () => null,
    getAttachment: () => null,
  } as unknown as One & Two;
}

describe('typed options', () => {
  it('reads what the subcommand declares, by its type and requiredness', () => {
    const one: One = options({ domain: 'example.com', days: 3 });
    expect(stringOption(one, 'domain')).toBe('example.com');
    expect(optionalStringOption(one, 'note', (raw) => raw)).toBeUndefined();
    expect(one.getInteger('days')).toBe(3);
  });

  it('refuses, at typecheck, what it does not declare', () => {
    const one: One = options({});
    const two: Two = options({});
    // @ts-expect-error `domains` is not an option of /sample one
    expect(one.getString('domains')).toBeNull();
    // @ts-expect-error `note` is optional: it cannot be read as required
    expect(() => stringOption(one, 'note')).toThrow();
    // @ts-expect-error `days` is an integer, not a string
    expect(one.getString('days')).toBeNull();
    // @ts-expect-error /sample two has no options at all
    expect(two.getString('domain')).toBeNull();
    const generic: TypedOptions = one;
    expect(generic.getString('anything')).toBeNull();
  });
});
