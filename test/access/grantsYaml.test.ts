import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { grantsToYaml, parseGrantsYaml } from '../../src/access/grantsYaml.js';
import type { Grant } from '../../src/store/index.js';

const grant = (overrides: Partial<Grant>): Grant => ({
  id: 'g0000abcd',
  subject: { kind: 'role', id: '200000000000000051' },
  what: ['domain dns', 'server rdns'],
  patterns: ['*.acme.example', 'server:100-199', 'ip:2001:db8::/32'],
  until: null,
  createdBy: 'admin',
  createdAt: new Date(0),
  requestId: null,
  ...overrides,
});

describe('grantsToYaml', () => {
  it('writes YAML that reads back to the same grants', async () => {
    const grants = [
      grant({}),
      grant({
        id: 'g1111abcd',
        subject: { kind: 'user', id: '100000000000000051' },
        what: ['viewer'],
        until: new Date('2030-01-02T03:04:05Z'),
      }),
    ];
    const text = grantsToYaml(grants, new Date('2029-01-01T00:00:00Z'));
    expect(parse(text)).toMatchObject({ version: 1 });
    expect(await parseGrantsYaml(text, ['domain dns', 'server rdns'])).toEqual([
      {
        id: 'g0000abcd',
        subject: grants[0]?.subject,
        what: grants[0]?.what,
        patterns: grants[0]?.patterns,
        until: null,
      },
      {
        id: 'g1111abcd',
        subject: grants[1]?.subject,
        what: ['viewer'],
        patterns: grants[0]?.patterns,
        until: '2030-01-02T03:04:05.000Z',
      },
    ]);
  });

  it('writes an empty list as one', async () => {
    expect(await parseGrantsYaml(grantsToYaml([]), [])).toEqual([]);
  });
});
