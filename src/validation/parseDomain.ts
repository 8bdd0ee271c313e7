import { isIPv4, isIPv6 } from 'node:net';
import { type MessageKey, message } from '../i18n/Translator.js';
import { InvalidValueError } from './InvalidValueError.js';
import { domainToAscii, domainToUnicode } from './idna.js';
import { quoteChar, quoteInput } from './quote.js';

export interface ParsedDomain {
  /** Punycode form, what the API receives, e.g. `xn--bcher-kva.de`. */
  ascii: string;
  /** Display form, e.g. `bücher.de`. */
  unicode: string;
}

const EXPECTED = message('validation.domain.expected');
const MAX_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;
// Anything longer cannot be a domain even after IDNA mapping; saves running IDNA on pasted walls of text.
const MAX_INPUT_LENGTH = 1000;

/**
 * Characters rejected before IDNA with a hint: what was pasted is a URL, an address or a path, and saying
 * which helps more than calling it an invalid name.
 */
type Hint = Extract<MessageKey, `validation.domain.hint.${string}`>;

const URL_CHARACTER_HINTS: ReadonlyMap<string, Hint> = new Map<string, Hint>([
  [':', 'validation.domain.hint.port'],
  ['/', 'validation.domain.hint.url_or_path'],
  ['?', 'validation.domain.hint.url'],
  ['#', 'validation.domain.hint.url'],
  ['&', 'validation.domain.hint.url'],
  ['@', 'validation.domain.hint.email'],
  ['\\', 'validation.domain.hint.path'],
  ['%', 'validation.domain.hint.percent'],
]);
// One test for all of them first: nearly every name has none, and this runs for every domain typed.
const ANY_URL_CHARACTER = /[:/?#&@\\%]/;

/**
 * Validates a domain name as typed by a user: trimmed, lowercased, one trailing dot dropped,
 * internationalised names converted with UTS-46 IDNA (idna.ts).
 * @throws InvalidValueError
 */
export function parseDomain(input: string): ParsedDomain {
  let name = input.trim().toLowerCase();
  if (name.endsWith('.')) name = name.slice(0, -1);
  if (name === '') throw new InvalidValueError(message('validation.domain.missing'), EXPECTED);
  if (name.length > MAX_INPUT_LENGTH) {
    throw new InvalidValueError(
      message('validation.domain.too_long', { input: quoteInput(name), max: String(MAX_LENGTH) }),
      EXPECTED,
    );
  }
  checkCharactersBeforeIdna(name);

  const ascii = domainToAscii(name);
  // The input's own ASCII passed the checks above; anything else in the ASCII form (a full-width `／`
  // mapped to `/`) came from a Unicode character that no name may hold.
  if (ascii === undefined || /[^a-z0-9.-]/.test(ascii)) {
    throw new InvalidValueError(
      message('validation.domain.invalid_idn', { input: quoteInput(name) }),
      EXPECTED,
    );
  }
  checkAsciiForm(ascii);
  return { ascii, unicode: domainToUnicode(ascii) };
}

function checkCharactersBeforeIdna(name: string): void {
  const input = quoteInput(name);
  const space = /[\s\p{White_Space}]/u.exec(name);
  if (space) {
    throw new InvalidValueError(
      message('validation.contains', { input, character: quoteChar(space[0]) }),
      EXPECTED,
    );
  }
  const control = /[\p{Cc}\p{Cs}]/u.exec(name);
  if (control) {
    throw new InvalidValueError(
      message('validation.domain.control', { input, character: quoteChar(control[0]) }),
      EXPECTED,
    );
  }
  if (isIPv4(name) || isIPv6(name)) {
    throw new InvalidValueError(message('validation.domain.ip', { input }), EXPECTED);
  }
  if (ANY_URL_CHARACTER.test(name))
    for (const [char, hint] of URL_CHARACTER_HINTS) {
      if (name.includes(char)) {
        throw new InvalidValueError(
          message('validation.domain.url_character', {
            input,
            character: quoteChar(char),
            hint: message(hint),
          }),
          EXPECTED,
        );
      }
    }
  // A top-level domain that reads as a number, hexadecimal too, makes the name an IPv4 address to every
  // URL parser (`1.0x10` is 1.0.0.16).
  const tld = name.slice(name.lastIndexOf('.') + 1);
  if (/^(?:\d+|0x[0-9a-f]*)$/.test(tld)) {
    throw new InvalidValueError(message('validation.domain.numeric_tld', { tld: quoteInput(tld) }), EXPECTED);
  }
  for (const label of name.split('.')) checkLabelCharacters(label);
}

function checkAsciiForm(ascii: string): void {
  const input = quoteInput(ascii);
  if (ascii.length > MAX_LENGTH) {
    throw new InvalidValueError(
      message('validation.length_over', { input, length: String(ascii.length), max: String(MAX_LENGTH) }),
      EXPECTED,
    );
  }
  const labels = ascii.split('.');
  if (labels.length < 2)
    throw new InvalidValueError(message('validation.domain.no_tld', { input }), EXPECTED);
  for (const label of labels) {
    if (label === '')
      throw new InvalidValueError(message('validation.domain.empty_label', { input }), EXPECTED);
    if (label.length > MAX_LABEL_LENGTH) {
      throw new InvalidValueError(
        message('validation.label_length_over', {
          label: quoteInput(label),
          length: String(label.length),
          max: String(MAX_LABEL_LENGTH),
        }),
        EXPECTED,
      );
    }
    checkLabelCharacters(label);
    if (label.startsWith('-') || label.endsWith('-')) {
      throw new InvalidValueError(message('validation.label_hyphen', { label: quoteInput(label) }), EXPECTED);
    }
  }
  const tld = labels.at(-1) ?? '';
  if (/^\d+$/.test(tld)) {
    throw new InvalidValueError(message('validation.domain.numeric_tld', { tld: quoteInput(tld) }), EXPECTED);
  }
}

/** Non-ASCII characters are left to IDNA; any other ASCII outside letters, digits and `-` is invalid. */
function checkLabelCharacters(label: string): void {
  const bad = /[^\P{ASCII}a-z0-9-]/u.exec(label);
  if (bad) {
    throw new InvalidValueError(
      message('validation.label_contains', { label: quoteInput(label), character: quoteChar(bad[0]) }),
      EXPECTED,
    );
  }
}
