// Resource patterns of a grant: `*`, a domain (`shop.example`) or every name below one (`*.acme.example`),
// a server (`server:42`) or a range of them (`server:100-199`), an address range (`ip:203.0.113.0/24`,
// `ip:2001:db8::/32`). Parsed once, kept in their canonical text, matched against a command's resources.
import ipaddr from 'ipaddr.js';
import { message } from '../i18n/Translator.js';
import { InvalidValueError } from '../validation/InvalidValueError.js';
import { domainToUnicode } from '../validation/idna.js';
import { parseDomain } from '../validation/parseDomain.js';
import { quoteInput } from '../validation/quote.js';
import { misleadingLabel } from './lookalike.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

export type Pattern =
  | { kind: 'any'; text: '*' }
  | { kind: 'domain'; text: string; ascii: string; below: boolean }
  | { kind: 'server'; text: string; from: number; to: number }
  | { kind: 'ip'; text: string; range: [Address, number] };

/**
 * What a command acts on, as the patterns match it. The ranges (`below`, `to`, `prefix`) are what an
 * `/access request` asks for: a pattern as a resource, which a grant covers only when one of its
 * patterns holds all of it (patternResource).
 */
export type Resource =
  | { kind: 'domain'; ascii: string; below?: true }
  | { kind: 'server'; id: number; to?: number }
  | { kind: 'ip'; address: Address; prefix?: number };

export type ResourceKind = Resource['kind'];

const EXPECTED = message('access.pattern.expected');
/** `*.` and the longest name DNS allows (253), and a little: anything longer is refused unread. */
export const MAX_PATTERN_LENGTH = 256;
const MAX_SERVER_ID = 2 ** 31 - 1;

type InputOnly =
  | 'access.pattern.server'
  | 'access.pattern.server_range'
  | 'access.pattern.cidr'
  | 'access.pattern.wildcard';

function invalid(problem: InputOnly, input: string): InvalidValueError {
  return new InvalidValueError(message(problem, { input: quoteInput(input) }), EXPECTED);
}

/**
 * One pattern as typed. Domains are kept in their ASCII form (lowercase), so `*.Bücher.example` and
 * `*.xn--bcher-kva.example` are the same pattern.
 * @throws InvalidValueError naming what is wrong
 */
export function parsePattern(input: string): Pattern {
  const value = input.trim();
  if (value === '') throw new InvalidValueError(message('access.pattern.empty'), EXPECTED);
  if (value.length > MAX_PATTERN_LENGTH) {
    throw new InvalidValueError(
      message('access.pattern.too_long', {
        input: quoteInput(value),
        length: String(value.length),
        max: String(MAX_PATTERN_LENGTH),
      }),
      EXPECTED,
    );
  }
  if (value === '*') return { kind: 'any', text: '*' };
  const lower = value.toLowerCase();
  if (lower.startsWith('server:')) return serverPattern(value, lower.slice('server:'.length));
  if (lower.startsWith('ip:')) return ipPattern(value, value.slice('ip:'.length));
  return domainPattern(value);
}

function serverPattern(input: string, spec: string): Pattern {
  const match = /^(\d{1,10})(?:-(\d{1,10}))?$/.exec(spec);
  const from = Number(match?.[1]);
  const to = match?.[2] === undefined ? from : Number(match[2]);
  if (!match || from < 1 || to > MAX_SERVER_ID) throw invalid('access.pattern.server', input);
  if (to < from) throw invalid('access.pattern.server_range', input);
  return { kind: 'server', text: from === to ? `server:${from}` : `server:${from}-${to}`, from, to };
}

function ipPattern(input: string, spec: string): Pattern {
  let range: [Address, number];
  try {
    range = spec.includes('/')
      ? ipaddr.parseCIDR(spec)
      : (() => {
          const address = ipaddr.parse(spec);
          return [address, address.kind() === 'ipv4' ? 32 : 128] as [Address, number];
        })();
  } catch {
    throw invalid('access.pattern.cidr', input);
  }
  // `ipaddr.parse` takes the old shorthands (`10.1`, octal `010.0.0.1`); a grant names addresses plainly.
  const [address, prefix] = range;
  const typed = spec.split('/')[0] ?? '';
  if (address.kind() === 'ipv4' && !ipaddr.IPv4.isValidFourPartDecimal(typed)) {
    throw invalid('access.pattern.cidr', input);
  }
  const network =
    address.kind() === 'ipv4'
      ? ipaddr.IPv4.networkAddressFromCIDR(`${address.toString()}/${prefix}`)
      : ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/${prefix}`);
  const text = `ip:${network.toString()}/${prefix}`;
  if (network.toString() !== address.toString()) {
    throw new InvalidValueError(
      message('access.pattern.cidr_host_bits', { input: quoteInput(input), suggestion: quoteInput(text) }),
      EXPECTED,
    );
  }
  return { kind: 'ip', text, range: [network, prefix] };
}

function domainPattern(input: string): Pattern {
  const below = input.startsWith('*.');
  const name = below ? input.slice(2) : input;
  if (name.includes('*')) throw invalid('access.pattern.wildcard', input);
  let ascii: string;
  try {
    ascii = parseDomain(name).ascii;
  } catch (error) {
    if (!(error instanceof InvalidValueError)) throw error;
    throw new InvalidValueError(
      message('access.pattern.domain', { input: quoteInput(input), problem: error.problem }),
      EXPECTED,
    );
  }
  for (const label of domainToUnicode(ascii).split('.')) {
    const misleading = misleadingLabel(label);
    if (misleading) {
      throw new InvalidValueError(
        message(`access.pattern.${misleading}`, { input: quoteInput(input), label: quoteInput(label) }),
        EXPECTED,
      );
    }
  }
  return { kind: 'domain', text: below ? `*.${ascii}` : ascii, ascii, below };
}

/** Whether `pattern` covers `resource`. A `*.suffix` covers the names below the suffix, not the suffix. */
export function covers(pattern: Pattern, resource: Resource): boolean {
  switch (pattern.kind) {
    case 'any':
      return true;
    case 'domain':
      if (resource.kind !== 'domain') return false;
      if (resource.below)
        return (
          pattern.below && (resource.ascii === pattern.ascii || resource.ascii.endsWith(`.${pattern.ascii}`))
        );
      return pattern.below ? resource.ascii.endsWith(`.${pattern.ascii}`) : resource.ascii === pattern.ascii;
    case 'server':
      return (
        resource.kind === 'server' &&
        resource.id >= pattern.from &&
        (resource.to ?? resource.id) <= pattern.to
      );
    case 'ip':
      return (
        resource.kind === 'ip' &&
        resource.address.kind() === pattern.range[0].kind() &&
        (resource.prefix ?? Number.POSITIVE_INFINITY) >= pattern.range[1] &&
        resource.address.match(pattern.range)
      );
  }
}

/**
 * A pattern as the resource an `/access request` asks for: covered by a grant only where one of the
 * grant's patterns holds the whole of it. `*` is every name (a domain range below the root), which only a
 * grant on `*` holds.
 */
export function patternResource(pattern: Pattern): Resource {
  switch (pattern.kind) {
    case 'any':
      return { kind: 'domain', ascii: '', below: true };
    case 'domain':
      return pattern.below
        ? { kind: 'domain', ascii: pattern.ascii, below: true }
        : { kind: 'domain', ascii: pattern.ascii };
    case 'server':
      return { kind: 'server', id: pattern.from, to: pattern.to };
    case 'ip':
      return { kind: 'ip', address: pattern.range[0], prefix: pattern.range[1] };
  }
}

/**
 * A command's value as the resource it names, or undefined when it names none the patterns can match
 * (the command's own parse refuses it later, with its own words; no grant below `*` covers it).
 */
export function resourceOf(kind: ResourceKind, value: string | number): Resource | undefined {
  switch (kind) {
    case 'server':
      return typeof value === 'number' && Number.isInteger(value) ? { kind, id: value } : undefined;
    case 'ip': {
      const text = String(value).trim();
      if (!ipaddr.isValid(text)) return undefined;
      return { kind, address: ipaddr.process(text) };
    }
    case 'domain':
      try {
        return { kind, ascii: parseDomain(String(value)).ascii };
      } catch {
        return undefined;
      }
  }
}

/** How a resource is named in refusals and /access explain. */
export function resourceText(resource: Resource): string {
  switch (resource.kind) {
    case 'domain':
      if (!resource.below) return resource.ascii;
      return resource.ascii === '' ? '*' : `*.${resource.ascii}`;
    case 'server':
      return resource.to === undefined || resource.to === resource.id
        ? `server:${resource.id}`
        : `server:${resource.id}-${resource.to}`;
    case 'ip':
      return resource.prefix === undefined
        ? `ip:${resource.address.toString()}`
        : `ip:${resource.address.toString()}/${resource.prefix}`;
  }
}
