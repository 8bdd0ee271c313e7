import { ApplicationCommandOptionType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { checkOptionLimits } from '../../src/discord/checkOptionLimits.js';
import { validated } from '../../src/discord/options.js';
import { translator } from '../../src/i18n/Translator.js';
import { InvalidOptionError } from '../../src/replies/UserError.js';
import { parseUsername } from '../../src/validation/parseUsername.js';

/** Just what checkOptionLimits reads: the options given, by name. */
const given = (values: Record<string, string | number>) => ({
  get: (name: string) => (name in values ? { name, value: values[name] } : null),
});

const bots = {
  type: ApplicationCommandOptionType.Integer,
  name: 'bots',
  description: 'd',
  min_value: 1,
  max_value: 1000,
} as const;
const id = {
  type: ApplicationCommandOptionType.Integer,
  name: 'id',
  description: 'd',
  min_value: 1,
} as const;
const ratio = {
  type: ApplicationCommandOptionType.Number,
  name: 'ratio',
  description: 'd',
  min_value: 0,
  max_value: 1,
} as const;
const note = {
  type: ApplicationCommandOptionType.String,
  name: 'note',
  description: 'd',
  min_length: 2,
  max_length: 5,
} as const;

function refusal(run: () => unknown): InvalidOptionError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidOptionError);
    return error as InvalidOptionError;
  }
  throw new Error('expected an InvalidOptionError');
}

const en = translator('en');
const de = translator('de');

describe('checkOptionLimits', () => {
  it('lets values within the limits through, and options not given', () => {
    expect(() =>
      checkOptionLimits([bots, id, ratio, note], given({ bots: 5, ratio: 0.5, note: 'abc' })),
    ).not.toThrow();
    // Characters, not UTF-16 units: five emoji are five characters.
    expect(() => checkOptionLimits([note], given({ note: '😀😀😀😀😀' }))).not.toThrow();
  });

  it('refuses a value out of range, in both languages, with the limits as plain digits', () => {
    const error = refusal(() => checkOptionLimits([bots], given({ bots: 1001 })));
    expect(error.option).toBe('bots');
    expect(en.render(error.problem)).toBe('1001 is out of range');
    expect(en.render(error.expected)).toBe('a whole number from 1 to 1000');
    expect(error.message).toBe('`bots`: 1001 is out of range. Expected a whole number from 1 to 1000.');
    expect(de.render(error.problem)).toBe('1001 liegt außerhalb des erlaubten Bereichs');
    expect(de.render(error.expected)).toBe('eine ganze Zahl von 1 bis 1000');
    expect(de.render(error.text)).toBe(
      '`bots`: 1001 liegt außerhalb des erlaubten Bereichs. Erwartet: eine ganze Zahl von 1 bis 1000.',
    );
    const unbounded = refusal(() => checkOptionLimits([id], given({ id: 0 })));
    expect(en.render(unbounded.expected)).toBe('a whole number from 1 to 9007199254740991');
    expect(refusal(() => checkOptionLimits([id], given({ id: 2 ** 60 }))).option).toBe('id');
    expect(en.render(refusal(() => checkOptionLimits([ratio], given({ ratio: 1.5 }))).expected)).toBe(
      'a number from 0 to 1',
    );
  });

  it('refuses text longer or shorter than the definition allows', () => {
    const long = refusal(() => checkOptionLimits([note], given({ note: 'abcdef' })));
    expect(long.message).toBe('`note`: is 6 characters long. Expected at most 5 characters.');
    expect(de.render(long.text)).toBe('`note`: ist 6 Zeichen lang. Erwartet: höchstens 5 Zeichen.');
    const short = refusal(() => checkOptionLimits([note], given({ note: 'a' })));
    expect(short.message).toBe('`note`: is 1 character long. Expected at least 2 characters.');
  });
});

describe('validated', () => {
  it("names the option and carries the validator's messages", () => {
    const error = refusal(() => validated('username', 'ali\u202ece', parseUsername));
    expect(error.option).toBe('username');
    expect(en.render(error.problem)).toBe(
      'contains U+202E (right-to-left override) at position 4, which would show as something other than what is sent',
    );
    expect(de.render(error.problem)).toBe(
      'enthält U+202E (Rechts-nach-links-Überschreibung) an Position 4; angezeigt würde also etwas anderes als das, was gesendet wird',
    );
    const empty = refusal(() => validated('username', '', parseUsername));
    expect(de.render(empty.text)).toBe(
      '`username`: Benutzername fehlt. Erwartet: 1 bis 64 Zeichen ohne Leerzeichen, etwa alice oder jörg.m.',
    );
  });
});
