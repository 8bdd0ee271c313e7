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

describe('docs/access.md states the bounds the code defines', () => {
  it('of an import, and of /audit for a scoped reader', async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { MAX_GRANTS_FILE_BYTES, MAX_IMPORT_GRANTS } = await import('../../src/access/grantsYaml.js');
    const { SCOPED_CHUNK } = await import('../../commands/audit/scopedSearch.js');
    const { COUNT_CAP } = await import('../../commands/audit.js');
    const { definition } = await import('../../commands/access.js');
    const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'access.md'), 'utf8').replace(
      /\s+/g,
      ' ',
    );
    const n = (value: number) => value.toLocaleString('en-US');
    expect(doc).toContain(`at most ${MAX_GRANTS_FILE_BYTES / 1024} KB and ${n(MAX_IMPORT_GRANTS)} grants`);
    expect(doc).toContain(`${n(SCOPED_CHUNK)} a query`);
    expect(doc).toContain(`the count (up to ${n(COUNT_CAP)})`);
    const file = definition.options.find((o) => o.name === 'import')?.options?.[0];
    expect(file?.description).toContain(`(up to ${MAX_GRANTS_FILE_BYTES / 1024} KB)`);
  });
});
