import type { ChatInputCommandInteraction } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { integerOption, validated } from '../../src/discord/options.js';
import { InvalidOptionError } from '../../src/discord/UserError.js';
import { translator } from '../../src/i18n/Translator.js';
import { parseUsername } from '../../src/validation/parseUsername.js';

type Options = ChatInputCommandInteraction['options'];

/** Just what integerOption reads from the interaction. */
const optionsWith = (value: number) => ({ getInteger: () => value }) as unknown as Options;

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

describe('integerOption', () => {
  it('returns a value in range', () => {
    expect(integerOption(optionsWith(5), 'bots', 1, 1000)).toBe(5);
  });

  it('refuses a value out of range, in both languages, with the limits as plain digits', () => {
    const error = refusal(() => integerOption(optionsWith(1001), 'bots', 1, 1000));
    expect(error.option).toBe('bots');
    expect(en.render(error.problem)).toBe('1001 is out of range');
    expect(en.render(error.expected)).toBe('a whole number from 1 to 1000');
    expect(error.message).toBe('`bots`: 1001 is out of range. Expected a whole number from 1 to 1000.');
    expect(de.render(error.problem)).toBe('1001 liegt außerhalb des erlaubten Bereichs');
    expect(de.render(error.expected)).toBe('eine ganze Zahl von 1 bis 1000');
    expect(de.render(error.text)).toBe(
      '`bots`: 1001 liegt außerhalb des erlaubten Bereichs. Erwartet: eine ganze Zahl von 1 bis 1000.',
    );
    const unbounded = refusal(() => integerOption(optionsWith(0), 'id', 1));
    expect(en.render(unbounded.expected)).toBe('a whole number from 1 to 9007199254740991');
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
