// Only the one validator we use: the whole library costs start-up time and memory for nothing.
import isEmailModule from 'validator/lib/isEmail.js';

// A CommonJS module: its default export arrives as `.default` under NodeNext typing and at run time alike.
const isEmail = isEmailModule.default;

import { message } from '../i18n/Translator.js';
import { InvalidValueError } from './InvalidValueError.js';
import { quoteInput } from './quote.js';

const EXPECTED = message('validation.email.expected');
// RFC 5321 limits a forward path to 256 octets including the angle brackets.
const MAX_LENGTH = 254;

/**
 * Validates an e-mail address.
 * @returns the input trimmed, otherwise as typed
 * @throws InvalidValueError
 */
export function parseEmail(input: string): string {
  const value = input.trim();
  if (value === '') throw new InvalidValueError(message('validation.email.missing'), EXPECTED);
  if (value.length > MAX_LENGTH) {
    throw new InvalidValueError(
      message('validation.length_over', {
        input: quoteInput(value),
        length: String(value.length),
        max: String(MAX_LENGTH),
      }),
      EXPECTED,
    );
  }
  if (!isEmail(value)) {
    throw new InvalidValueError(message('validation.email.invalid', { input: quoteInput(value) }), EXPECTED);
  }
  return value;
}
