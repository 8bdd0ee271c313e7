import { message } from '../i18n/Translator.js';
import { InvalidValueError } from './InvalidValueError.js';
import { parseDomain } from './parseDomain.js';

const EXPECTED = message('validation.hostname.expected');

/**
 * Validates a fully-qualified host name (rDNS target, name server) with the same rules as a domain name.
 * @returns the ASCII (punycode) form without a trailing dot
 * @throws InvalidValueError
 */
export function parseHostname(input: string): string {
  try {
    return parseDomain(input).ascii;
  } catch (error) {
    if (error instanceof InvalidValueError) throw new InvalidValueError(error.problem, EXPECTED);
    throw error;
  }
}
