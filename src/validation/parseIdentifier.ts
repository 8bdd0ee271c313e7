import { InvalidValueError } from './InvalidValueError.js';
import { quoteChar, quoteInput } from './quote.js';
import { describeHiddenCharacter, HIDDEN_OR_CONTROL } from './refuseHiddenCharacters.js';

export interface IdentifierRules {
  maxLength: number;
  /** What a valid value looks like, for the error. */
  expected: string;
  /** What is missing when the input is empty, e.g. "user name". */
  what: string;
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
  if (input === '') throw new InvalidValueError(`no ${what} given`, expected);
  const space = /[\s\p{White_Space}]/u.exec(input);
  if (space) throw new InvalidValueError(`${quoteInput(input)} contains ${quoteChar(space[0])}`, expected);
  const hidden = HIDDEN_OR_CONTROL.exec(input);
  if (hidden) {
    throw new InvalidValueError(
      `${quoteInput(input)} contains ${describeHiddenCharacter(hidden[0])}`,
      expected,
    );
  }
  const length = [...input].length;
  if (length > maxLength) {
    throw new InvalidValueError(
      `${quoteInput(input)} is ${length} characters long, at most ${maxLength}`,
      expected,
    );
  }
  return input;
}
