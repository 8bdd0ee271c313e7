import { type Message, message } from '../i18n/Translator.js';
import { InvalidValueError } from './InvalidValueError.js';
import { quoteChar, quoteInput } from './quote.js';
import { describeHiddenCharacter, HIDDEN_OR_CONTROL } from './refuseHiddenCharacters.js';

export interface IdentifierRules {
  maxLength: number;
  /** What a valid value looks like, for the error, e.g. "1 to 64 characters without spaces, such as alice". */
  expected: Message;
  /**
   * The value's name when the input is empty, e.g. "user name" (English: "no user name given"; German:
   * "Benutzername fehlt", so any noun fits whatever its gender).
   */
  what: Message;
  /**
   * A credential (a licence key): errors never quote it, since they are logged and an error message is
   * no place for even a mistyped key; they name the problem and where it is instead.
   */
  secret?: true;
}

/**
 * A name-like value typed by a person (user name, contact handle, license key): non-empty, at most
 * maxLength code points, no whitespace anywhere (not trimmed: a pasted trailing space is reported, not
 * silently sent), nothing invisible or direction-changing (see refuseHiddenCharacters: it can disguise a value).
 * @returns the input unchanged
 * @throws InvalidValueError
 */
export function parseIdentifier(input: string, rules: IdentifierRules): string {
  const { maxLength, expected, what } = rules;
  const shown = rules.secret ? message('validation.secret_input', { what }) : quoteInput(input);
  if (input === '') throw new InvalidValueError(message('validation.identifier.missing', { what }), expected);
  const space = /[\s\p{White_Space}]/u.exec(input);
  if (space) {
    throw new InvalidValueError(
      message('validation.contains', { input: shown, character: quoteChar(space[0]) }),
      expected,
    );
  }
  const hidden = HIDDEN_OR_CONTROL.exec(input);
  if (hidden) {
    throw new InvalidValueError(
      message('validation.contains', {
        input: shown,
        character: describeHiddenCharacter(hidden[0]),
      }),
      expected,
    );
  }
  const length = [...input].length;
  if (length > maxLength) {
    throw new InvalidValueError(
      message('validation.length_over', {
        input: shown,
        length: String(length),
        max: String(maxLength),
      }),
      expected,
    );
  }
  return input;
}
