import { isIPv4, isIPv6 } from 'node:net';
import { message } from '../i18n/Translator.js';
import { InvalidValueError } from './InvalidValueError.js';
import { quoteInput } from './quote.js';

const IPV4_EXPECTED = message('validation.ip.v4_expected');
const IP_EXPECTED = message('validation.ip.expected');

/**
 * Validates an IPv4 address with an optional `/0`–`/32` prefix length.
 * @returns the input as typed, trimmed
 * @throws InvalidValueError
 */
export function parseIpv4WithPrefix(input: string): string {
  const value = input.trim();
  if (value === '') throw new InvalidValueError(message('validation.ip.v4_missing'), IPV4_EXPECTED);
  const slash = value.indexOf('/');
  const address = slash === -1 ? value : value.slice(0, slash);
  if (!isIPv4(address)) {
    const problem = isIPv6(address) ? 'validation.ip.is_v6' : 'validation.ip.not_v4';
    throw new InvalidValueError(message(problem, { input: quoteInput(address) }), IPV4_EXPECTED);
  }
  if (slash !== -1) {
    const prefix = value.slice(slash + 1);
    // No leading zeros: `/08` is more likely a typo than a deliberate /8.
    if (!/^(?:0|[1-9]\d?)$/.test(prefix) || Number(prefix) > 32) {
      throw new InvalidValueError(
        message('validation.ip.prefix_range', { prefix: quoteInput(`/${prefix}`) }),
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
  if (value === '') throw new InvalidValueError(message('validation.ip.missing'), IP_EXPECTED);
  if (value.includes('/')) {
    throw new InvalidValueError(
      message('validation.ip.has_prefix', { input: quoteInput(value) }),
      IP_EXPECTED,
    );
  }
  // node:net accepts `fe80::1%eth0`; a zone index only means something on the machine that typed it.
  if (value.includes('%')) {
    throw new InvalidValueError(
      message('validation.ip.zone_index', { input: quoteInput(value) }),
      IP_EXPECTED,
    );
  }
  if (!isIPv4(value) && !isIPv6(value)) {
    throw new InvalidValueError(message('validation.ip.invalid', { input: quoteInput(value) }), IP_EXPECTED);
  }
  return value;
}
