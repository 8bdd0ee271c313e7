import { isIPv4, isIPv6 } from 'node:net';
import { InvalidValueError } from './InvalidValueError.js';
import { quoteInput } from './quote.js';

const IPV4_EXPECTED = 'an IPv4 address such as 203.0.113.7, optionally with a prefix such as 203.0.113.0/24';
const IP_EXPECTED = 'an IPv4 address such as 203.0.113.7 or an IPv6 address such as 2001:db8::1';

/**
 * Validates an IPv4 address with an optional `/0`–`/32` prefix length.
 * @returns the input as typed, trimmed
 * @throws InvalidValueError
 */
export function parseIpv4WithPrefix(input: string): string {
  const value = input.trim();
  if (value === '') throw new InvalidValueError('no IPv4 address given', IPV4_EXPECTED);
  const slash = value.indexOf('/');
  const address = slash === -1 ? value : value.slice(0, slash);
  if (!isIPv4(address)) {
    const problem = isIPv6(address) ? 'is an IPv6 address' : 'is not a valid IPv4 address';
    throw new InvalidValueError(`${quoteInput(address)} ${problem}`, IPV4_EXPECTED);
  }
  if (slash !== -1) {
    const prefix = value.slice(slash + 1);
    // No leading zeros: `/08` is more likely a typo than a deliberate /8.
    if (!/^(?:0|[1-9]\d?)$/.test(prefix) || Number(prefix) > 32) {
      throw new InvalidValueError(
        `prefix length ${quoteInput(`/${prefix}`)} is not between /0 and /32`,
        IPV4_EXPECTED,
      );
    }
  }
  return value;
}

/**
 * Validates a single IPv4 or IPv6 address (no prefix, no IPv6 zone index).
 * @returns the input as typed, trimmed
 * @throws InvalidValueError
 */
export function parseIpAddress(input: string): string {
  const value = input.trim();
  if (value === '') throw new InvalidValueError('no IP address given', IP_EXPECTED);
  if (value.includes('/')) {
    throw new InvalidValueError(
      `${quoteInput(value)} has a prefix length; give a single address`,
      IP_EXPECTED,
    );
  }
  // node:net accepts `fe80::1%eth0`; a zone index only means something on the machine that typed it.
  if (value.includes('%')) {
    throw new InvalidValueError(`${quoteInput(value)} has a zone index ("%…"); leave it out`, IP_EXPECTED);
  }
  if (!isIPv4(value) && !isIPv6(value)) {
    throw new InvalidValueError(`${quoteInput(value)} is not a valid IP address`, IP_EXPECTED);
  }
  return value;
}
