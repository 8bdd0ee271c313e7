import { isIPv4, isIPv6 } from 'node:net';
import type { DnsRecord, DnsRecordType } from '../hosting/dnsRecords.js';
import { type Message, message, translator } from '../i18n/Translator.js';
import { InvalidValueError } from './InvalidValueError.js';
import { domainToAscii } from './idna.js';
import { parseHostname } from './parseHostname.js';
import { quoteChar, quoteInput } from './quote.js';
import { describeHiddenCharacter, HIDDEN_OR_CONTROL } from './refuseHiddenCharacters.js';

// One DNS record's fields checked and normalised, whichever way the set was written (zone lines, JSON).

const DEFAULT_TTL = 3600;
const MIN_TTL = 60;
const MAX_TTL = 86_400;
export const MAX_UINT16 = 65_535;
const MAX_TXT_STRING_BYTES = 255;
const CAA_TAGS = ['issue', 'issuewild', 'iodef'];

/** A problem with one record; turned into an InvalidValueError naming the line or index. */
export class RecordProblem extends Error {
  constructor(
    readonly problem: Message,
    readonly type?: DnsRecordType,
  ) {
    super(translator('en').render(problem));
  }
}

/** A record field as the messages name it: `TTL`, `priority`, … */
export type Field = 'ttl' | 'priority' | 'weight' | 'port' | 'caa_flags';

export function field(name: Field): Message {
  return message(`validation.dns.field.${name}`);
}

/** Limits and counts as plain digits (`86400`, not `86,400`): they are written like that in zone files. */
export const digits = (value: number): string => String(value);

export interface RawRecord {
  name: string;
  type: DnsRecordType;
  content: string;
  ttl: number | undefined;
  prio: number | undefined;
}

export function validateRecord(raw: RawRecord): DnsRecord {
  const { type } = raw;
  // JSON escapes (`\u202e`) can carry what the typed text did not show.
  for (const [what, value] of [
    ['name', raw.name],
    ['content', raw.content],
  ] as const) {
    const hidden = HIDDEN_OR_CONTROL.exec(value);
    if (hidden) {
      throw new RecordProblem(
        message('validation.contains', {
          input: message(`validation.dns.field.${what}`),
          character: describeHiddenCharacter(hidden[0]),
        }),
        type,
      );
    }
  }
  const name = parseRecordName(raw.name, type);
  const ttl = raw.ttl ?? DEFAULT_TTL;
  checkRange(ttl, MIN_TTL, MAX_TTL, 'ttl', type);
  if (raw.content === '') throw new RecordProblem(message('validation.dns.content_missing', { type }), type);
  const content = parseContent(type, raw.content);

  if (type === 'MX' || type === 'SRV') {
    if (raw.prio === undefined) {
      throw new RecordProblem(
        message('validation.dns.priority_missing', { type, max: digits(MAX_UINT16) }),
        type,
      );
    }
    checkUint16(raw.prio, 'priority', type);
    return { name, type, content, ttl, prio: raw.prio };
  }
  if (raw.prio !== undefined) throw new RecordProblem(message('validation.dns.no_priority', { type }), type);
  return { name, type, content, ttl };
}

export function checkRange(value: number, min: number, max: number, what: Field, type: DnsRecordType): void {
  if (value < min || value > max) {
    throw new RecordProblem(
      message('validation.dns.out_of_range', {
        field: field(what),
        value: digits(value),
        min: digits(min),
        max: digits(max),
      }),
      type,
    );
  }
}

export function checkUint16(value: number, what: Field, type: DnsRecordType): void {
  checkRange(value, 0, MAX_UINT16, what, type);
}

type NameProblem =
  | 'validation.dns.name_invalid_idn'
  | 'validation.dns.name_too_long'
  | 'validation.dns.name_empty_label'
  | 'validation.dns.name_wildcard';

/** ASCII that a record name may not hold: anything but letters, digits, `_`, `*`, `.` and `-`. */
const NAME_ASCII_OUTSIDE = /[^\P{ASCII}a-z0-9_*.-]/u;

/**
 * Names are relative to the zone, so a trailing dot (an absolute name) is rejected rather than guessed at.
 * `_` is allowed anywhere (`_dmarc`, `_sip._tcp`), `*` only as the whole first label (wildcard).
 */
function parseRecordName(input: string, type: DnsRecordType): string {
  const name = input.toLowerCase();
  if (name === '@') return name;
  if (name === '') throw new RecordProblem(message('validation.dns.name_missing'), type);
  const quoted = quoteInput(name);
  if (name.endsWith('.'))
    throw new RecordProblem(message('validation.dns.name_absolute', { input: quoted }), type);
  const bad = NAME_ASCII_OUTSIDE.exec(name) ?? /[\p{White_Space}\p{Cc}\p{Cs}]/u.exec(name);
  if (bad) {
    throw new RecordProblem(
      message('validation.dns.name_contains', { input: quoted, character: quoteChar(bad[0]) }),
      type,
    );
  }
  // A name in plain ASCII without a Punycode label is its own ASCII form.
  const needsIdna = /[^\p{ASCII}]|(?:^|\.)xn--/u.test(name);
  const ascii = needsIdna ? domainToAscii(name) : name;
  const problem = (key: NameProblem) => new RecordProblem(message(key, { input: quoted }), type);
  // The ASCII checked above passed; any other ASCII came from mapping a Unicode character (`／` → `/`).
  if (ascii === undefined || NAME_ASCII_OUTSIDE.test(ascii)) throw problem('validation.dns.name_invalid_idn');
  if (ascii.length > 253) throw problem('validation.dns.name_too_long');
  ascii.split('.').forEach((label, index) => {
    if (label === '') throw problem('validation.dns.name_empty_label');
    if (label.length > 63) {
      throw new RecordProblem(
        message('validation.label_length_over', {
          label: quoteInput(label),
          length: digits(label.length),
          max: '63',
        }),
        type,
      );
    }
    if (label.includes('*') && (label !== '*' || index > 0)) throw problem('validation.dns.name_wildcard');
    if (label.startsWith('-') || label.endsWith('-')) {
      throw new RecordProblem(message('validation.label_hyphen', { label: quoteInput(label) }), type);
    }
  });
  return ascii;
}

function parseContent(type: DnsRecordType, content: string): string {
  switch (type) {
    case 'A':
      if (!isIPv4(content)) {
        throw new RecordProblem(message('validation.dns.not_ipv4', { input: quoteInput(content) }), type);
      }
      return content;
    case 'AAAA':
      if (!isIPv6(content) || content.includes('%')) {
        throw new RecordProblem(message('validation.dns.not_ipv6', { input: quoteInput(content) }), type);
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
    throw new RecordProblem(message('validation.dns.target', { problem: error.problem }), type);
  }
}

/** `weight port target`; the priority is a separate field. A target of `.` means "no such service". */
function parseSrv(content: string): string {
  const parts = content.split(/\s+/);
  const [weightText, portText, target] = parts;
  if (parts.length !== 3 || weightText === undefined || portText === undefined || target === undefined) {
    throw new RecordProblem(message('validation.dns.srv_format'), 'SRV');
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
        message('validation.dns.txt_too_long', { bytes: digits(bytes), max: digits(MAX_TXT_STRING_BYTES) }),
        'TXT',
      );
    }
  }
  const text = strings.join('');
  if (text === '') throw new RecordProblem(message('validation.dns.txt_empty'), 'TXT');
  return text;
}

function checkBareText(content: string): string {
  if (content.includes('"')) {
    throw new RecordProblem(message('validation.dns.txt_stray_quote'), 'TXT');
  }
  return content;
}

function splitQuotedStrings(content: string): string[] {
  const strings: string[] = [];
  let index = 0;
  while (index < content.length) {
    if (content[index] !== '"') {
      throw new RecordProblem(
        message('validation.dns.txt_after_quoted', { input: quoteInput(content.slice(index)) }),
        'TXT',
      );
    }
    index += 1;
    let text = '';
    for (;;) {
      const char = content[index];
      if (char === undefined) throw new RecordProblem(message('validation.dns.txt_unclosed'), 'TXT');
      index += 1;
      if (char === '"') break;
      if (char === '\\') {
        const escaped = content[index];
        if (escaped === undefined) throw new RecordProblem(message('validation.dns.txt_unclosed'), 'TXT');
        if (/\d/.test(escaped)) {
          throw new RecordProblem(message('validation.dns.txt_decimal_escape'), 'TXT');
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
  if (!match) throw new RecordProblem(message('validation.dns.caa_format'), 'CAA');
  const [, flagsText = '', tagText = '', valueText = ''] = match;
  const flags = parseUnsigned(flagsText, 'caa_flags', 'CAA');
  checkRange(flags, 0, 255, 'caa_flags', 'CAA');
  const tag = tagText.toLowerCase();
  if (!CAA_TAGS.includes(tag)) {
    throw new RecordProblem(
      message('validation.dns.caa_tag', { input: quoteInput(tagText), tags: CAA_TAGS.join(', ') }),
      'CAA',
    );
  }
  const quoted = /^"([^"]*)"$/.exec(valueText);
  const value = quoted ? (quoted[1] ?? '') : valueText;
  if (!quoted && /[\s"]/.test(value)) {
    throw new RecordProblem(message('validation.dns.caa_value', { input: quoteInput(valueText) }), 'CAA');
  }
  if (tag === 'iodef' && !/^(?:mailto:|https?:\/\/)\S+$/i.test(value)) {
    throw new RecordProblem(message('validation.dns.caa_iodef', { input: quoteInput(value) }), 'CAA');
  }
  return `${flags} ${tag} "${value}"`;
}

/** A whole number as written in a record (no sign, no decimals). */
export function parseUnsigned(token: string, what: Field, type?: DnsRecordType): number {
  if (!/^\d+$/.test(token)) {
    throw new RecordProblem(
      message('validation.dns.not_whole', { field: field(what), input: quoteInput(token) }),
      type,
    );
  }
  return Number(token);
}
