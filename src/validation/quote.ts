import { type Message, message } from '../i18n/Translator.js';
import { cutText } from '../text/cutText.js';

/** Longest part of a user's input echoed back in an error message; chat messages must stay short. */
export const MAX_ECHO_LENGTH = 60;

/**
 * Quotes user input for an error message: JSON-style, so control characters and quotes are escaped and
 * cannot break the message, and cut to `max` characters so a pasted novel is not echoed back.
 */
export function quoteInput(value: string, max = MAX_ECHO_LENGTH): string {
  return JSON.stringify(cutText(value, max));
}

/**
 * Names one character for an error message; invisible ones by code point, e.g. `U+00A0`; a space in
 * words of the reader's language.
 */
export function quoteChar(char: string): string | Message {
  if (char === ' ') return message('validation.char.space');
  if (/^[\p{L}\p{N}\p{P}\p{S}]$/u.test(char)) return JSON.stringify(char);
  return codePointLabel(char);
}

/** `U+00A0`: the code point of the first character of `char`. */
export function codePointLabel(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}
