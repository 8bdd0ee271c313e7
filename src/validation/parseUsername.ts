import { message } from '../i18n/Translator.js';
import { parseIdentifier } from './parseIdentifier.js';

/**
 * A music-bot user name: 1–64 characters, no whitespace or control characters.
 * @returns the input unchanged
 * @throws InvalidValueError
 */
export function parseUsername(input: string): string {
  return parseIdentifier(input, {
    maxLength: 64,
    expected: message('validation.username.expected'),
    what: message('validation.username.what'),
  });
}
