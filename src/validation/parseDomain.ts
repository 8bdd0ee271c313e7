import { isIPv4, isIPv6 } from 'node:net';
import { domainToASCII, domainToUnicode } from 'node:url';
import { InvalidValueError } from './InvalidValueError.js';
import { quoteChar, quoteInput } from './quote.js';

export interface ParsedDomain {
  /** Punycode form, what the API receives, e.g. `xn--bcher-kva.de`. */
  ascii: string;
  /** Display form, e.g. `bücher.de`. */
  unicode: string;
}

const EXPECTED = 'a domain name such as example.com or bücher.de';
const MAX_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;
// Anything longer cannot be a domain even after IDNA mapping; saves running IDNA on pasted walls of text.
const MAX_INPUT_LENGTH = 1000;

/**
 * Characters rejected before IDNA with a hint: domainToASCII treats its input as a URL host, so it would
 * silently cut at `\`, percent-decode `%41` to `a`, or fail without saying why.
 */
const URL_CHARACTER_HINTS: ReadonlyMap<string, string> = new Map([
  [':', 'leave out the port and the scheme'],
  ['/', 'give only the domain name, not a URL or path'],
  ['?', 'give only the domain name, not a URL'],
  ['#', 'give only the domain name, not a URL'],
  ['&', 'give only the domain name, not a URL'],
  ['@', 'give only the domain name, not an e-mail address'],
  ['\\', 'give only the domain name, not a path'],
  ['%', 'write the name itself, not percent-encoded'],
]);

/**
 * Validates a domain name as typed by a user: trimmed, lowercased, one trailing dot dropped,
 * internationalised names converted with Node's UTS-46 IDNA.
 * @throws InvalidValueError
 */
export function parseDomain(input: string): ParsedDomain {
  let name = input.trim().toLowerCase();
  if (name.endsWith('.')) name = name.slice(0, -1);
  if (name === '') throw new InvalidValueError('no domain name given', EXPECTED);
  if (name.length > MAX_INPUT_LENGTH) {
    throw new InvalidValueError(
      `${quoteInput(name)} is too long (at most ${MAX_LENGTH} characters)`,
      EXPECTED,
    );
  }
  checkCharactersBeforeIdna(name);

  const ascii = domainToASCII(name);
  if (ascii === '') {
    throw new InvalidValueError(`${quoteInput(name)} is not a valid internationalised domain name`, EXPECTED);
  }
  checkAsciiForm(ascii);
  return { ascii, unicode: domainToUnicode(ascii) };
}

function checkCharactersBeforeIdna(name: string): void {
  const space = /[\s\p{White_Space}]/u.exec(name);
  if (space) throw new InvalidValueError(`${quoteInput(name)} contains ${quoteChar(space[0])}`, EXPECTED);
  const control = /[\p{Cc}\p{Cs}]/u.exec(name);
  if (control) {
    throw new InvalidValueError(
      `${quoteInput(name)} contains control character ${quoteChar(control[0])}`,
      EXPECTED,
    );
  }
  if (isIPv4(name) || isIPv6(name)) {
    throw new InvalidValueError(`${quoteInput(name)} is an IP address, not a domain name`, EXPECTED);
  }
  for (const [char, hint] of URL_CHARACTER_HINTS) {
    if (name.includes(char)) {
      throw new InvalidValueError(`${quoteInput(name)} contains ${quoteChar(char)}; ${hint}`, EXPECTED);
    }
  }
  // Checked here rather than only on the ASCII form: a URL host ending in a number is parsed as IPv4,
  // so domainToASCII turns `1.0x10` into `1.0.0.16`.
  const tld = name.slice(name.lastIndexOf('.') + 1);
  if (/^(?:\d+|0x[0-9a-f]*)$/.test(tld)) {
    throw new InvalidValueError(`top-level domain ${quoteInput(tld)} is numeric`, EXPECTED);
  }
  for (const label of name.split('.')) checkLabelCharacters(label);
}

function checkAsciiForm(ascii: string): void {
  if (ascii.length > MAX_LENGTH) {
    throw new InvalidValueError(
      `${quoteInput(ascii)} is ${ascii.length} characters long, at most ${MAX_LENGTH}`,
      EXPECTED,
    );
  }
  const labels = ascii.split('.');
  if (labels.length < 2)
    throw new InvalidValueError(`${quoteInput(ascii)} has no top-level domain`, EXPECTED);
  for (const label of labels) {
    if (label === '') throw new InvalidValueError(`${quoteInput(ascii)} contains an empty label`, EXPECTED);
    if (label.length > MAX_LABEL_LENGTH) {
      throw new InvalidValueError(
        `label ${quoteInput(label)} is ${label.length} characters long, at most ${MAX_LABEL_LENGTH}`,
        EXPECTED,
      );
    }
    checkLabelCharacters(label);
    if (label.startsWith('-') || label.endsWith('-')) {
      throw new InvalidValueError(`label ${quoteInput(label)} starts or ends with "-"`, EXPECTED);
    }
  }
  const tld = labels.at(-1) ?? '';
  if (/^\d+$/.test(tld))
    throw new InvalidValueError(`top-level domain ${quoteInput(tld)} is numeric`, EXPECTED);
}

/** Non-ASCII characters are left to IDNA; any other ASCII outside letters, digits and `-` is invalid. */
function checkLabelCharacters(label: string): void {
  const bad = /[^\P{ASCII}a-z0-9-]/u.exec(label);
  if (bad) throw new InvalidValueError(`label ${quoteInput(label)} contains ${quoteChar(bad[0])}`, EXPECTED);
}
