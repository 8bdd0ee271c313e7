import { expect } from 'vitest';
import { translator } from '../../src/i18n/Translator.js';
import { InvalidValueError } from '../../src/validation/InvalidValueError.js';

/** The two languages the validators' messages are rendered in. */
export const en = translator('en');
export const de = translator('de');

/** A rendered message that still shows a placeholder or a catalogue key was not put into words. */
const UNRENDERED = /\{[A-Za-z_][A-Za-z0-9_]*\}|\bvalidation\.[a-z_.]+/;

/**
 * Runs `run`, asserts it throws an InvalidValueError whose (English) message matches, and returns the
 * error. Also renders the problem and the expected value in both languages: the English problem is the
 * error's message, and the German text is whole (no placeholder or key left) and not the English one.
 */
export function expectInvalid(run: () => unknown, message: string | RegExp): InvalidValueError {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(InvalidValueError);
  const error = thrown as InvalidValueError;
  if (typeof message === 'string') expect(error.message).toBe(message);
  else expect(error.message).toMatch(message);
  expect(en.render(error.problem)).toBe(error.message);
  expect(en.render(error.expected)).not.toBe('');
  for (const text of [de.render(error.problem), de.render(error.expected)]) {
    expect(text).not.toMatch(UNRENDERED);
  }
  expect(de.render(error.expected)).not.toBe(en.render(error.expected));
  return error;
}
