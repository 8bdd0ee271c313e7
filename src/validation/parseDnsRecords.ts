import {
  DNS_RECORD_TYPES,
  type DnsRecord,
  type DnsRecordType,
  encodeDnsRecords,
} from '../hosting/dnsRecords.js';
import { type Message, message } from '../i18n/Translator.js';
import { cutText } from '../text/cutText.js';
import { InvalidValueError } from './InvalidValueError.js';
import { quoteInput } from './quote.js';
import { digits, MAX_UINT16, parseUnsigned, RecordProblem, validateRecord } from './validateDnsRecord.js';

const MAX_RECORDS = 100;

/** One example per type, as it would be written in JSON; the zone-style examples are derived from these. */
const EXAMPLES: Readonly<Record<DnsRecordType, DnsRecord>> = {
  A: { name: 'www', type: 'A', content: '203.0.113.7', ttl: 3600 },
  AAAA: { name: 'www', type: 'AAAA', content: '2001:db8::7', ttl: 3600 },
  CNAME: { name: 'shop', type: 'CNAME', content: 'shops.example.net.', ttl: 3600 },
  MX: { name: '@', type: 'MX', content: 'mail.example.com.', ttl: 3600, prio: 10 },
  TXT: { name: '@', type: 'TXT', content: 'v=spf1 -all', ttl: 3600 },
  NS: { name: 'sub', type: 'NS', content: 'ns1.example.net.', ttl: 3600 },
  SRV: { name: '_sip._tcp', type: 'SRV', content: '5 5060 sip.example.com.', ttl: 3600, prio: 10 },
  CAA: { name: '@', type: 'CAA', content: '0 issue "letsencrypt.org"', ttl: 3600 },
};

type Format = 'zone' | 'json';

function exampleLine(record: DnsRecord): string {
  const content = record.type === 'TXT' ? JSON.stringify(record.content) : record.content;
  const prio = record.prio === undefined ? '' : `${record.prio} `;
  return `${record.name} ${record.ttl} ${record.type} ${prio}${content}`;
}

/** The examples are code, the same in every language: passed as parameters. */
function expectedFor(format: Format, type?: DnsRecordType): Message {
  if (format === 'zone') {
    const example = exampleLine(EXAMPLES[type ?? 'A']);
    return type
      ? message('validation.dns.expected_zone_type', { example })
      : message('validation.dns.expected_zone', { example });
  }
  const example = encodeDnsRecords([EXAMPLES[type ?? 'A']]);
  return type
    ? message('validation.dns.expected_json_type', { example: example.slice(1, -1) })
    : message('validation.dns.expected_json', { example });
}

/**
 * Parses DNS records given either as a JSON array (input starting with `[`) of
 * `{name, type, content, ttl?, prio?}` objects, or one record per line in zone-file style:
 * `<name> [ttl] [IN] <TYPE> [prio] <content>`, e.g. `@ 3600 MX 10 mail.example.com.`.
 * In zone style, blank lines and lines starting with `;` or `#` are skipped; comments after a record are
 * not recognised (TXT text may contain `;`). TTL defaults to 3600.
 * @throws InvalidValueError naming the line (zone style) or the array index (JSON) that is wrong
 */
export function parseDnsRecords(input: string): DnsRecord[] {
  const trimmed = input.trim();
  if (trimmed === '') throw new InvalidValueError(message('validation.dns.missing'), expectedFor('zone'));
  if (trimmed.startsWith('{')) {
    throw new InvalidValueError(message('validation.dns.json_object'), expectedFor('json'));
  }
  return trimmed.startsWith('[') ? parseJsonRecords(trimmed) : parseZoneRecords(input);
}

function checkCount(count: number, format: Format): void {
  if (count === 0) throw new InvalidValueError(message('validation.dns.missing'), expectedFor(format));
  if (count > MAX_RECORDS) {
    throw new InvalidValueError(
      message('validation.dns.too_many', { count: digits(count), max: digits(MAX_RECORDS) }),
      expectedFor(format),
    );
  }
}

function parseZoneRecords(input: string): DnsRecord[] {
  const lines = input
    .split(/\r?\n/)
    .map((text, index) => ({ text: text.trim(), number: index + 1 }))
    .filter(({ text }) => text !== '' && !text.startsWith(';') && !text.startsWith('#'));
  checkCount(lines.length, 'zone');
  return lines.map(({ text, number }) => {
    try {
      return parseZoneLine(text);
    } catch (error) {
      if (!(error instanceof RecordProblem)) throw error;
      throw new InvalidValueError(
        message('validation.dns.at_line', { line: digits(number), problem: error.problem }),
        expectedFor('zone', error.type),
      );
    }
  });
}

function parseZoneLine(line: string): DnsRecord {
  let rest = line;
  const nextToken = (): string | undefined => {
    const match = /^(\S+)\s*/.exec(rest);
    if (!match) return undefined;
    rest = rest.slice(match[0].length);
    return match[1];
  };

  const name = nextToken() ?? '';
  let token = nextToken();
  let ttl: number | undefined;
  if (token !== undefined && /^[+-]?\d/.test(token)) {
    ttl = parseUnsigned(token, 'ttl');
    token = nextToken();
  }
  // Tolerated so lines copied from a zone file (`www 3600 IN A …`) work.
  if (token?.toUpperCase() === 'IN') token = nextToken();
  if (token === undefined) throw new RecordProblem(message('validation.dns.type_missing'));
  const type = parseType(token);

  let prio: number | undefined;
  if (type === 'MX' || type === 'SRV') {
    const prioToken = nextToken();
    if (prioToken === undefined || !/^\d+$/.test(prioToken)) {
      const problem =
        type === 'MX' ? 'validation.dns.priority_before_target' : 'validation.dns.priority_before_srv';
      throw new RecordProblem(message(problem, { type, max: digits(MAX_UINT16) }), type);
    }
    prio = parseUnsigned(prioToken, 'priority', type);
  }
  return validateRecord({ name, type, content: rest, ttl, prio });
}

/** Digits only; the range is checked by the caller. */
function parseType(token: string): DnsRecordType {
  const type = DNS_RECORD_TYPES.find((known) => known === token.toUpperCase());
  if (!type) {
    throw new RecordProblem(
      message('validation.dns.unknown_type', {
        input: quoteInput(token),
        types: DNS_RECORD_TYPES.join(', '),
      }),
    );
  }
  return type;
}

const JSON_FIELDS = new Set(['name', 'type', 'content', 'ttl', 'prio']);

function parseJsonRecords(input: string): DnsRecord[] {
  let items: unknown;
  try {
    items = JSON.parse(input);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    // The parser's own words (English, from the JavaScript engine) are quoted as they are.
    throw new InvalidValueError(
      message('validation.dns.bad_json', { reason: cutText(reason, 100) }),
      expectedFor('json'),
    );
  }
  if (!Array.isArray(items))
    throw new InvalidValueError(message('validation.dns.not_array'), expectedFor('json'));
  checkCount(items.length, 'json');
  return items.map((item: unknown, index) => {
    try {
      return parseJsonItem(item);
    } catch (error) {
      if (!(error instanceof RecordProblem)) throw error;
      throw new InvalidValueError(
        message('validation.dns.at_index', { index: digits(index), problem: error.problem }),
        expectedFor('json', error.type),
      );
    }
  });
}

function parseJsonItem(item: unknown): DnsRecord {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    throw new RecordProblem(message('validation.dns.not_object'));
  }
  const fields = item as Record<string, unknown>;
  const unknownField = Object.keys(fields).find((key) => !JSON_FIELDS.has(key));
  if (unknownField !== undefined) {
    throw new RecordProblem(message('validation.dns.unknown_field', { input: quoteInput(unknownField) }));
  }
  const typeText = fields.type;
  if (typeof typeText !== 'string') {
    throw new RecordProblem(message('validation.dns.must_be_string', { field: 'type' }));
  }
  const type = parseType(typeText.trim());
  const { name, content } = fields;
  if (typeof name !== 'string') {
    throw new RecordProblem(message('validation.dns.must_be_string', { field: 'name' }), type);
  }
  if (typeof content !== 'string') {
    throw new RecordProblem(message('validation.dns.must_be_string', { field: 'content' }), type);
  }
  return validateRecord({
    name: name.trim(),
    type,
    content: content.trim(),
    ttl: optionalInteger(fields.ttl, 'ttl', type),
    prio: optionalInteger(fields.prio, 'prio', type),
  });
}

/** `null` counts as absent: some tools write every field. */
function optionalInteger(value: unknown, field: string, type: DnsRecordType): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new RecordProblem(message('validation.dns.must_be_whole', { field }), type);
  }
  return value;
}
