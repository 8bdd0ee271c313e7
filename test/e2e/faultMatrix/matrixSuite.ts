// One engine's run of the fault matrix: one bot per fault class, every case of the class at once (each
// on a domain of its own), then the table it makes checked against docs/reliability.md.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CASES,
  type FaultClass,
  type MatrixBot,
  type MatrixRow,
  renderMatrix,
  runCase,
  startMatrixBot,
} from './faultMatrix.js';

const DOC = new URL('../../../docs/reliability.md', import.meta.url);
const CLASSES: FaultClass[] = ['one store error', 'store unreachable > lease'];

export function matrixSuite(
  engine: 'sqlite' | 'postgres',
  freshUrl: (label: string) => Promise<string>,
): void {
  const rows: MatrixRow[] = [];
  describe.each(CLASSES)(`${engine}: %s at every step`, (faultClass) => {
    let bot: MatrixBot | undefined;
    afterAll(() => bot?.t.stop());
    it('every case ends truthfully, sent at most once, audited once, and frees its domain', async () => {
      bot = await startMatrixBot(
        await freshUrl(`faults_${faultClass === 'one store error' ? 'once' : 'outage'}`),
      );
      const started = bot;
      const cls = faultClass === 'one store error' ? 'a' : 'b';
      const results = await Promise.allSettled(
        CASES.filter((c) => !process.env.MATRIX_ONLY || c.step.startsWith(process.env.MATRIX_ONLY)).map(
          (c, n) => runCase(started, c, faultClass, engine, `f${cls}${n}-${engine}.example`),
        ),
      );
      const failures = results.flatMap((r, n) =>
        r.status === 'rejected'
          ? [`${CASES[n]?.step}: ${String((r.reason as Error)?.message ?? r.reason)}`]
          : [],
      );
      for (const r of results) if (r.status === 'fulfilled') rows.push(r.value);
      expect(failures).toEqual([]);
    });
  });

  // The table in docs/reliability.md is this run's output: HOSTOPS_WRITE_RELIABILITY=1 rewrites it.
  afterAll(() => {
    if (rows.length !== CASES.length * CLASSES.length) return;
    const table = renderMatrix(rows, engine);
    const open = `<!-- fault-matrix:${engine} -->`;
    const close = `<!-- /fault-matrix:${engine} -->`;
    const doc = readFileSync(DOC, 'utf8');
    const from = doc.indexOf(open);
    const to = doc.indexOf(close);
    expect(from, `docs/reliability.md has the ${engine} table's markers`).toBeGreaterThanOrEqual(0);
    expect(to).toBeGreaterThan(from);
    const written = doc.slice(from + open.length, to).trim();
    if (process.env.HOSTOPS_WRITE_RELIABILITY === '1') {
      writeFileSync(DOC, `${doc.slice(0, from + open.length)}\n${table}\n${doc.slice(to)}`);
      return;
    }
    expect(written, 'docs/reliability.md: rerun with HOSTOPS_WRITE_RELIABILITY=1').toBe(table);
  });
}
