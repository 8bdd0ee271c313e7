// The fault matrix tables of docs/reliability.md are the matrix tests' own output: each test checks its
// table between its markers, and HOSTOPS_WRITE_RELIABILITY=1 rewrites it there instead.
import { readFileSync, writeFileSync } from 'node:fs';
import { expect } from 'vitest';

const DOC = new URL('../../../docs/reliability.md', import.meta.url);

export function expectReliabilityTable(marker: string, table: string): void {
  const open = `<!-- fault-matrix:${marker} -->`;
  const close = `<!-- /fault-matrix:${marker} -->`;
  const doc = readFileSync(DOC, 'utf8');
  const from = doc.indexOf(open);
  const to = doc.indexOf(close);
  expect(from, `docs/reliability.md has the markers of the ${marker} table`).toBeGreaterThanOrEqual(0);
  expect(to).toBeGreaterThan(from);
  if (process.env.HOSTOPS_WRITE_RELIABILITY === '1') {
    writeFileSync(DOC, `${doc.slice(0, from + open.length)}\n${table}\n${doc.slice(to)}`);
    return;
  }
  expect(
    doc.slice(from + open.length, to).trim(),
    'docs/reliability.md: rerun with HOSTOPS_WRITE_RELIABILITY=1',
  ).toBe(table);
}
