import { literal } from '../../replies/literal.js';
import type { ParsedDomain } from '../../validation/parseDomain.js';

/** `example.org`, or `bücher.de` (`xn--bcher-kva.de`) for an IDN: both forms, each as sent. */
export function domainLabel(domain: ParsedDomain): string {
  return domain.unicode === domain.ascii
    ? literal(domain.ascii)
    : `${literal(domain.unicode)} (${literal(domain.ascii)})`;
}
