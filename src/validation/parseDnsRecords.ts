import { isIPv4, isIPv6 } from 'node:net';
import { domainToASCII } from 'node:url';
import {
  DNS_RECORD_TYPES,
  type DnsRecord,
  type DnsRecordType,
  encodeDnsRecords,
} from '../hosting/dnsRecords.js';
import { cutText } from '../text/cutText.js';
import { InvalidValueError } from './InvalidValueError.js';
import { parseHostname } from './parseHostname.js';
import { quoteChar, quoteInput } from './quote.js';
import { describeHiddenCharacter, HIDDEN_OR_CONTROL } from './refuseHiddenCharacters.js';

const MAX_RECORDS = 100;
const DEFAULT_TTL = 3600;
const MIN_TTL = 60;
const MAX_TTL = 86_400;
const MAX_UINT16 = 65_535;
const MAX_TXT_STRING_BYTES = 255;
const CAA_TAGS = ['issue', 'issuewild', 'iodef'];

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

function expectedFor(format: Format, type?: DnsRecordType): string {
  if (format === 'zone') {
    const example = exampleLine(EXAMPLES[type ?? 'A']);
    return type
      ? `a line such as \`${example}\``
      : `one record per line as \`name [ttl] TYPE [prio] content\`, such as \`${example}\``;
  }
  const example = encodeDnsRecords([EXAMPLES[type ?? 'A']]);
  return type
    ? `a record such as ${example.slice(1, -1)}`
    : `a JSON array of {name, type, content, ttl?, prio?} objects such as ${example}`;
}

/** A problem with one record; turned into an InvalidValueError naming the line or index. */
class RecordProblem extends Error {
  constructor(
    message: string,
    readonly type?: DnsRecordType,
  ) {
    super(message);
  }
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
  if (trimmed === '') throw new InvalidValueError('no records given', expectedFor('zone'));
  if (trimmed.startsWith('{')) {
    throw new InvalidValueError('JSON records must be in an array: wrap them in [ ]', expectedFor('json'));
  }
  return trimmed.startsWith('[') ? parseJsonRecords(trimmed) : parseZoneRecords(input);
}

function checkCount(count: number, format: Format): void {
  if (count === 0) throw new InvalidValueError('no records given', expectedFor(format));
  if (count > MAX_RECORDS) {
    throw new InvalidValueError(`${count} records given, at most ${MAX_RECORDS}`, expectedFor(format));
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
      throw new InvalidValueError(`line ${number}: ${error.message}`, expectedFor('zone', error.type));
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
    ttl = parseUnsigned(token, 'TTL');
    token = nextToken();
  }
  // Tolerated so lines copied from a zone file (`www 3600 IN A …`) work.
  if (token?.toUpperCase() === 'IN') token = nextToken();
  if (token === undefined) throw new RecordProblem('record type missing');
  const type = parseType(token);

  let prio: number | undefined;
  if (type === 'MX' || type === 'SRV') {
    const prioToken = nextToken();
    if (prioToken === undefined || !/^\d+$/.test(prioToken)) {
      const what = type === 'MX' ? 'the target' : 'weight, port and target';
      throw new RecordProblem(`${type} needs a priority (0–${MAX_UINT16}) before ${what}`, type);
    }
    prio = parseUnsigned(prioToken, 'priority', type);
  }
  return validateRecord({ name, type, content: rest, ttl, prio });
}

/** Digits only; the range is checked by the caller. */
function parseUnsigned(token: string, what: string, type?: DnsRecordType): number {
  if (!/^\d+$/.test(token))
    throw new RecordProblem(`${what} ${quoteInput(token)} is not a whole number`, type);
  return Number(token);
}

function parseType(token: string): DnsRecordType {
  const type = DNS_RECORD_TYPES.find((known) => known === token.toUpperCase());
  if (!type) {
    throw new RecordProblem(
      `unknown record type ${quoteInput(token)}; use one of ${DNS_RECORD_TYPES.join(', ')}`,
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
    throw new InvalidValueError(`not valid JSON: ${cutText(reason, 100)}`, expectedFor('json'));
  }
  if (!Array.isArray(items)) throw new InvalidValueError('not a JSON array', expectedFor('json'));
  checkCount(items.length, 'json');
  return items.map((item: unknown, index) => {
    try {
      return parseJsonItem(item);
    } catch (error) {
      if (!(error instanceof RecordProblem)) throw error;
      throw new InvalidValueError(`index ${index}: ${error.message}`, expectedFor('json', error.type));
    }
  });
}

function parseJsonItem(item: unknown): DnsRecord {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    throw new RecordProblem('not an object');
  }
  const fields = item as Record<string, unknown>;
  const unknownField = Object.keys(fields).find((key) => !JSON_FIELDS.has(key));
  if (unknownField !== undefined) {
    throw new RecordProblem(`unknown field ${quoteInput(unknownField)}; use name, type, content, ttl, prio`);
  }
  const typeText = fields.type;
  if (typeof typeText !== 'string') throw new RecordProblem('"type" must be a string');
  const type = parseType(typeText.trim());
  const { name, content } = fields;
  if (typeof name !== 'string') throw new RecordProblem('"name" must be a string', type);
  if (typeof content !== 'string') throw new RecordProblem('"content" must be a string', type);
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
    throw new RecordProblem(`"${field}" must be a whole number`, type);
  }
  return value;
}

interface RawRecord {
  name: string;
  type: DnsRecordType;
  content: string;
  ttl: number | undefined;
  prio: number | undefined;
}

function validateRecord(raw: RawRecord): DnsRecord {
  const { type } = raw;
  // JSON escapes (`\u202e`) can carry what the typed text did not show.
  for (const [what, value] of [
    ['name', raw.name],
    ['content', raw.content],
  ] as const) {
    const hidden = HIDDEN_OR_CONTROL.exec(value);
    if (hidden) throw new RecordProblem(`${what} contains ${describeHiddenCharacter(hidden[0])}`, type);
  }
  const name = parseRecordName(raw.name, type);
  const ttl = raw.ttl ?? DEFAULT_TTL;
  if (ttl < MIN_TTL || ttl > MAX_TTL) {
    throw new RecordProblem(`TTL ${ttl} out of range (${MIN_TTL}–${MAX_TTL})`, type);
  }
  if (raw.content === '') throw new RecordProblem(`${type} content missing`, type);
  const content = parseContent(type, raw.content);

  if (type === 'MX' || type === 'SRV') {
    if (raw.prio === undefined) throw new RecordProblem(`${type} needs a priority (0–${MAX_UINT16})`, type);
    checkUint16(raw.prio, 'priority', type);
    return { name, type, content, ttl, prio: raw.prio };
  }
  if (raw.prio !== undefined) throw new RecordProblem(`${type} records have no priority`, type);
  return { name, type, content, ttl };
}

function checkUint16(value: number, what: string, type: DnsRecordType): void {
  if (value < 0 || value > MAX_UINT16) {
    throw new RecordProblem(`${what} ${value} out of range (0–${MAX_UINT16})`, type);
  }
}

/**
 * Names are relative to the zone, so a trailing dot (an absolute name) is rejected rather than guessed at.
 * `_` is allowed anywhere (`_dmarc`, `_sip._tcp`), `*` only as the whole first label (wildcard).
 */
function parseRecordName(input: string, type: DnsRecordType): string {
  const name = input.toLowerCase();
  if (name === '@') return name;
  if (name === '') throw new RecordProblem('name missing; use @ for the domain itself', type);
  if (name.endsWith('.')) {
    throw new RecordProblem(
      `name ${quoteInput(name)} ends with "."; give it relative to the domain, such as www or @`,
      type,
    );
  }
  // Checked before IDNA, which would percent-decode or cut at URL characters.
  const bad = /[^\P{ASCII}a-z0-9_*.-]/u.exec(name) ?? /[\p{White_Space}\p{Cc}\p{Cs}]/u.exec(name);
  if (bad) throw new RecordProblem(`name ${quoteInput(name)} contains ${quoteChar(bad[0])}`, type);
  // Only when needed: domainToASCII reads a name ending in a number as IPv4 (`1` → `0.0.0.1`).
  const needsIdna = /[^\p{ASCII}]|(?:^|\.)xn--/u.test(name);
  const ascii = needsIdna ? domainToASCII(name) : name;
  if (ascii === '')
    throw new RecordProblem(`name ${quoteInput(name)} is not a valid internationalised name`, type);
  if (ascii.length > 253) throw new RecordProblem(`name ${quoteInput(name)} is too long`, type);
  ascii.split('.').forEach((label, index) => {
    if (label === '') throw new RecordProblem(`name ${quoteInput(name)} contains an empty label`, type);
    if (label.length > 63) {
      throw new RecordProblem(
        `label ${quoteInput(label)} is ${label.length} characters long, at most 63`,
        type,
      );
    }
    if (label.includes('*') && (label !== '*' || index > 0)) {
      throw new RecordProblem(`name ${quoteInput(name)}: "*" is only allowed as the whole first label`, type);
    }
    if (label.startsWith('-') || label.endsWith('-')) {
      throw new RecordProblem(`label ${quoteInput(label)} starts or ends with "-"`, type);
    }
  });
  return ascii;
}

function parseContent(type: DnsRecordType, content: string): string {
  switch (type) {
    case 'A':
      if (!isIPv4(content)) throw new RecordProblem(`${quoteInput(content)} is not an IPv4 address`, type);
      return content;
    case 'AAAA':
      if (!isIPv6(content) || content.includes('%')) {
        throw new RecordProblem(`${quoteInput(content)} is not an IPv6 address`, type);
      }
      return content;
    case 'CNAME':
    case 'NS':
    case 'MX':
      return parseTarget(content, type);
    case 'SRV':
      return parseSrv(content);
    case 'TXT':
      return parseTxt(content);
    case 'CAA':
      return parseCaa(content);
  }
}

function parseTarget(target: string, type: DnsRecordType): string {
  try {
    return parseHostname(target);
  } catch (error) {
    if (!(error instanceof InvalidValueError)) throw error;
    throw new RecordProblem(`target: ${error.message}`, type);
  }
}

/** `weight port target`; the priority is a separate field. A target of `.` means "no such service". */
function parseSrv(content: string): string {
  const parts = content.split(/\s+/);
  const [weightText, portText, target] = parts;
  if (parts.length !== 3 || weightText === undefined || portText === undefined || target === undefined) {
    throw new RecordProblem('SRV content must be `weight port target` after the priority', 'SRV');
  }
  const weight = parseUnsigned(weightText, 'weight', 'SRV');
  checkUint16(weight, 'weight', 'SRV');
  const port = parseUnsigned(portText, 'port', 'SRV');
  checkUint16(port, 'port', 'SRV');
  return `${weight} ${port} ${target === '.' ? '.' : parseTarget(target, 'SRV')}`;
}

/**
 * TXT content is either bare text or one or more quoted strings (`"v=spf1 " "-all"`), joined without a
 * separator as resolvers do. Inside quotes `\"` and `\\` escape; zone-file `\DDD` escapes are rejected
 * rather than guessed at.
 */
function parseTxt(content: string): string {
  const strings = content.startsWith('"') ? splitQuotedStrings(content) : [checkBareText(content)];
  for (const text of strings) {
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes > MAX_TXT_STRING_BYTES) {
      throw new RecordProblem(
        `TXT string is ${bytes} bytes long, at most ${MAX_TXT_STRING_BYTES}; split it into several "…" "…" strings`,
        'TXT',
      );
    }
  }
  const text = strings.join('');
  if (text === '') throw new RecordProblem('TXT text is empty', 'TXT');
  return text;
}

function checkBareText(content: string): string {
  if (content.includes('"')) {
    throw new RecordProblem('TXT text contains a stray "; put the whole text in quotes', 'TXT');
  }
  return content;
}

function splitQuotedStrings(content: string): string[] {
  const strings: string[] = [];
  let index = 0;
  while (index < content.length) {
    if (content[index] !== '"') {
      throw new RecordProblem(
        `unexpected text ${quoteInput(content.slice(index))} after a quoted TXT string`,
        'TXT',
      );
    }
    index += 1;
    let text = '';
    for (;;) {
      const char = content[index];
      if (char === undefined) throw new RecordProblem('TXT string is missing its closing "', 'TXT');
      index += 1;
      if (char === '"') break;
      if (char === '\\') {
        const escaped = content[index];
        if (escaped === undefined) throw new RecordProblem('TXT string is missing its closing "', 'TXT');
        if (/\d/.test(escaped)) {
          throw new RecordProblem('decimal escapes such as \\065 are not supported in TXT text', 'TXT');
        }
        text += escaped;
        index += 1;
        continue;
      }
      text += char;
    }
    strings.push(text);
    while (content[index] === ' ' || content[index] === '\t') index += 1;
  }
  return strings;
}

/** `flags tag value` (RFC 8659); the value may be quoted, and is always quoted in the result. */
function parseCaa(content: string): string {
  const match = /^(\S+)\s+(\S+)\s+(.*)$/.exec(content);
  if (!match) throw new RecordProblem('CAA content must be `flags tag "value"`', 'CAA');
  const [, flagsText = '', tagText = '', valueText = ''] = match;
  const flags = parseUnsigned(flagsText, 'CAA flags', 'CAA');
  if (flags > 255) throw new RecordProblem(`CAA flags ${flags} out of range (0–255)`, 'CAA');
  const tag = tagText.toLowerCase();
  if (!CAA_TAGS.includes(tag)) {
    throw new RecordProblem(
      `unknown CAA tag ${quoteInput(tagText)}; use one of ${CAA_TAGS.join(', ')}`,
      'CAA',
    );
  }
  const quoted = /^"([^"]*)"$/.exec(valueText);
  const value = quoted ? (quoted[1] ?? '') : valueText;
  if (!quoted && /[\s"]/.test(value)) {
    throw new RecordProblem(`CAA value ${quoteInput(valueText)} must be one "quoted" string`, 'CAA');
  }
  if (tag === 'iodef' && !/^(?:mailto:|https?:\/\/)\S+$/i.test(value)) {
    throw new RecordProblem(
      `CAA iodef value ${quoteInput(value)} must be a mailto: or http(s):// URL`,
      'CAA',
    );
  }
  return `${flags} ${tag} "${value}"`;
}
