import { expect } from 'vitest';
import { InvalidValueError } from '../../src/validation/InvalidValueError.js';

/** Runs `run`, asserts it throws an InvalidValueError whose message matches, and returns the error. */
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
  expect(error.expected).not.toBe('');
  return error;
}
