// One engine's run of the fault matrix: one bot per fault class, every case of the class at once (each
// on a domain of its own), then the table it makes checked against docs/reliability.md.
import { afterAll, expect, it } from 'vitest';
import { CASES, type FaultClass, type MatrixRow } from './faultCases.js';
import { type MatrixBot, renderMatrix, runCase, startMatrixBot } from './faultMatrix.js';
import { expectReliabilityTable } from './reliabilityDoc.js';

const CLASSES: FaultClass[] = ['one store error', 'store unreachable > lease'];

export function matrixSuite(
  engine: 'sqlite' | 'postgres',
  freshUrl: (label: string) => Promise<string>,
): void {
  const rows: MatrixRow[] = [];
  const bots: MatrixBot[] = [];
  afterAll(async () => {
    await Promise.all(bots.map((bot) => bot.t.stop()));
  });
  // One bot per fault class, both classes at once: the run takes as long as its slowest case.
  it.concurrent(`${engine}: every step, each fault class — truthful ends, sent at most once, audited once, domains free`, async () => {
    const only = process.env.HOSTOPS_MATRIX_ONLY;
    const cases = CASES.filter((c) => !only || c.step.startsWith(only));
    const failures = (
      await Promise.all(
        CLASSES.map(async (faultClass) => {
          const cls = faultClass === 'one store error' ? 'once' : 'outage';
          const bot = await startMatrixBot(await freshUrl(`faults_${cls}`));
          // Prompts that run out in 10 s (the shortest CONFIRM_TIMEOUT_S), for the expiry cases only.
          const expiring = await startMatrixBot(await freshUrl(`faults_${cls}_expiry`), {
            CONFIRM_TIMEOUT_S: '10',
          });
          bots.push(bot, expiring);
          const results = await Promise.allSettled(
            cases.map((c, n) =>
              runCase(c.expires ? expiring : bot, c, faultClass, engine, `f${cls}${n}-${engine}.example`),
            ),
          );
          return results.flatMap((r, n) => {
            if (r.status === 'fulfilled') {
              rows.push(r.value);
              return [];
            }
            return [`${faultClass} / ${cases[n]?.step}: ${String((r.reason as Error)?.message ?? r.reason)}`];
          });
        }),
      )
    ).flat();
    expect(failures).toEqual([]);
  }, 180_000);

  // The table in docs/reliability.md is this run's output.
  afterAll(() => {
    if (rows.length !== CASES.length * CLASSES.length) return;
    expectReliabilityTable(engine, renderMatrix(rows, engine));
  });
}
