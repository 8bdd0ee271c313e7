import { describe, expect, it } from 'vitest';
import { AUDIT_CSV_HEADER, auditCsv, csvCell } from '../../src/audit/auditCsv.js';
import type { AuditEntry } from '../../src/store/index.js';

const HEADER =
  'at,user_id,user_name,guild_id,channel_id,command,subcommand,target,outcome,detail,correlation_id,duration_ms,parameters,change_id,acted_by_id,acted_by_name';

function entry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: 1,
    at: new Date('2026-11-20T08:15:30.250Z'),
    userId: '100000000000000001',
    userName: 'alice',
    guildId: '300000000000000001',
    channelId: '400000000000000001',
    command: 'domain',
    subcommand: 'register',
    target: 'example.org',
    outcome: 'done',
    detail: null,
    correlationId: 'a1b2c3d4e5',
    durationMs: 1234,
    parameters: null,
    changeId: null,
    actedById: null,
    actedByName: null,
    ...overrides,
  };
}

/** Splits RFC 4180 text into rows of unquoted cells (the reading side, to check the writing side). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charAt(i);
    if (quoted) {
      if (char === '"' && text.charAt(i + 1) === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text.charAt(i + 1) === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += char;
  }
  expect(cell, 'the text ends with CRLF').toBe('');
  expect(row).toEqual([]);
  return rows;
}

describe('auditCsv', () => {
  it('is only the header row for no entries', () => {
    expect(auditCsv([])).toBe(`${HEADER}\r\n`);
    expect(AUDIT_CSV_HEADER.join(',')).toBe(HEADER);
  });

  it('writes one CRLF-terminated row per entry: ISO 8601 UTC time, empty cells for null', () => {
    const csv = auditCsv([entry(), entry({ id: 2, guildId: null, channelId: null, durationMs: null })]);
    expect(csv).toBe(
      `${HEADER}\r\n` +
        '2026-11-20T08:15:30.250Z,100000000000000001,alice,300000000000000001,400000000000000001,domain,register,example.org,done,,a1b2c3d4e5,1234,,,,\r\n' +
        '2026-11-20T08:15:30.250Z,100000000000000001,alice,,,domain,register,example.org,done,,a1b2c3d4e5,,,,,\r\n',
    );
    expect(csv.split('\r\n')).toHaveLength(4);
    expect(csv.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  });

  it('writes the parameters as JSON, quoted as one cell', () => {
    const parameters = { domain: 'example.org', ns: ['ns1.example.net', 'ns2.example.net'], ttl: 3600 };
    const csv = auditCsv([entry({ parameters, changeId: 'chg_1' })]);
    expect(csv).toContain(
      '"{""domain"":""example.org"",""ns"":[""ns1.example.net"",""ns2.example.net""],""ttl"":3600}",chg_1,,\r\n',
    );
    const [, row] = parseCsv(csv);
    expect(JSON.parse(row?.[12] ?? '')).toEqual(parameters);
    expect(row?.[13]).toBe('chg_1');
  });

  it.each([
    ['a comma', 'a,b', '"a,b"'],
    ['a quote', 'say "hi"', '"say ""hi"""'],
    ['CRLF', 'one\r\ntwo', '"one\r\ntwo"'],
    ['LF', 'one\ntwo', '"one\ntwo"'],
    ['a lone CR inside', 'one\rtwo', '"one\rtwo"'],
    ['nothing special', 'plain text', 'plain text'],
  ])('quotes a cell with %s (RFC 4180)', (_, value, expected) => {
    expect(csvCell(value)).toBe(expected);
    const csv = auditCsv([entry({ target: value })]);
    expect(csv).toContain(`,${expected},`);
    const [header, row] = parseCsv(csv);
    expect(header).toEqual([...AUDIT_CSV_HEADER]);
    expect(row?.[7]).toBe(value);
    expect(row).toHaveLength(AUDIT_CSV_HEADER.length);
  });

  it.each([
    ['=', '=1+1', "'=1+1"],
    ['+', '+1', "'+1"],
    ['-', '-2+3', "'-2+3"],
    ['@', '@SUM(A1:A2)', "'@SUM(A1:A2)"],
    ['tab', '\t=1', "'\t=1"],
    ['CR', '\r=1', '"\'\r=1"'],
  ])('puts a leading quote before a cell starting with %s', (_, value, expected) => {
    expect(csvCell(value)).toBe(expected);
    const [, row] = parseCsv(auditCsv([entry({ detail: value })]));
    expect(row?.[9]).toBe(`'${value}`);
  });

  it('guards before quoting: a user name like =HYPERLINK("http://x") stays text', () => {
    const name = '=HYPERLINK("http://x")';
    const csv = auditCsv([entry({ userName: name })]);
    expect(csv).toContain(`,"'=HYPERLINK(""http://x"")",`);
    const [, row] = parseCsv(csv);
    expect(row?.[2]).toBe(`'${name}`);
  });

  it('guards every column, not just names: target, detail, subcommand, parameters', () => {
    const [, row] = parseCsv(
      auditCsv([entry({ target: '+49 30 1234', detail: '-x', subcommand: '@here', command: '=cmd' })]),
    );
    expect(row?.slice(5, 10)).toEqual(["'=cmd", "'@here", "'+49 30 1234", 'done', "'-x"]);
  });

  it('leaves formula characters alone when they are not first', () => {
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell('x-1')).toBe('x-1');
    expect(csvCell('')).toBe('');
  });
});
