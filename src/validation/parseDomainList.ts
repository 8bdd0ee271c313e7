import { message } from '../i18n/Translator.js';
import { InvalidValueError } from './InvalidValueError.js';
import { type ParsedDomain, parseDomain } from './parseDomain.js';

export interface ParsedDomainList {
  /** Valid names, duplicates (after normalisation) removed, in order of first occurrence. */
  domains: ParsedDomain[];
  /** Entries that are not valid domain names, each with its own error; reported per entry, not thrown. */
  invalid: { input: string; error: InvalidValueError }[];
}

const EXPECTED = message('validation.domain_list.expected');

/**
 * Parses a bulk list of domain names.
 * @param max most distinct entries allowed; invalid entries count too, as they were given
 * @throws InvalidValueError if no names or more than `max` distinct names are given
 */
export function parseDomainList(input: string, max = 50): ParsedDomainList {
  const entries = input.split(/[\s,;]+/u).filter((entry) => entry !== '');
  if (entries.length === 0) throw new InvalidValueError(message('validation.domain_list.missing'), EXPECTED);

  const domains = new Map<string, ParsedDomain>();
  const invalid = new Map<string, { input: string; error: InvalidValueError }>();
  for (const entry of entries) {
    try {
      const domain = parseDomain(entry);
      if (!domains.has(domain.ascii)) domains.set(domain.ascii, domain);
    } catch (error) {
      if (!(error instanceof InvalidValueError)) throw error;
      if (!invalid.has(entry)) invalid.set(entry, { input: entry, error });
    }
  }

  const given = domains.size + invalid.size;
  if (given > max) {
    // Plain digits, like every number in validation messages: `1000 domains given`, not `1,000`.
    throw new InvalidValueError(
      message('validation.domain_list.too_many', { given: String(given), max: String(max) }),
      message('validation.domain_list.expected_at_most', { expected: EXPECTED, max: String(max) }),
    );
  }
  return { domains: [...domains.values()], invalid: [...invalid.values()] };
}
