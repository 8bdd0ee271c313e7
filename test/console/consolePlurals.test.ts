// Counts in the console's real output agree with their number in English and German (issue 49, point
// 10): the built console on the sandbox, whose expiry dates are fixed relative to its start.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runConsoleProcess } from '../support/consoleProcess.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function session(lang: string, lines: readonly string[], args: readonly string[] = []) {
  const dir = mkdtempSync(join(tmpdir(), 'hostops-console-plurals-'));
  dirs.push(dir);
  return runConsoleProcess(args, {
    cwd: dir,
    env: { LANG: lang, HOSTING_API_URL: 'sandbox' },
    input: `${lines.join('\n')}\n`,
  });
}

// Within 30 days on the sandbox: example.net (5), example.org (12), shop.example (27), staging.test (1),
// münchen.example (3); example.com is 214 days away.
const EXPIRY = [
  [0, 'example.com'],
  [1, 'example.net'],
  [2, 'example.net example.org'],
  [5, 'example.net example.org shop.example staging.test münchen.example'],
] as const;

describe('console, counted messages', { timeout: 60_000 }, () => {
  it.each([
    ['C', (n: number) => `${n} ${n === 1 ? 'expires' : 'expire'} within 30 days`],
    ['de_DE.UTF-8', (n: number) => `${n} ${n === 1 ? 'läuft' : 'laufen'} innerhalb von 30 Tagen ab`],
  ])('LANG=%s: /domain expiry says how many expire with the form for 0, 1, 2 and 5', async (lang, says) => {
    const run = await session(
      lang,
      EXPIRY.map(([, domains]) => `/domain expiry domains:"${domains}" within:30`),
    );
    expect(run.code, run.stderr).toBe(0);
    const summaries = run.stdout.split('\n').filter((line) => /within|innerhalb/.test(line));
    expect(summaries).toHaveLength(EXPIRY.length);
    EXPIRY.forEach(([n], index) => {
      expect(summaries[index]).toContain(` ${says(n)} · `);
    });
  });

  it('German /watch add: "die 1 Domain, die eben hinzugekommen ist, wurde …", and for 2 "sind, wurden"', async () => {
    const run = await session(
      'de_DE.UTF-8',
      ['/watch add domains:example.net', '/watch add domains:"example.org shop.example"'],
      ['--as', 'operator'],
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Die 1 Domain, die eben hinzugekommen ist, wurde in ');
    expect(run.stdout).toContain('Die 2 Domains, die eben hinzugekommen sind, wurden in ');
    expect(run.stdout).not.toMatch(/1 Domain, die eben hinzugekommen sind/);
  });

  it('English /watch add for one domain and for two', async () => {
    const run = await session(
      'C',
      ['/watch add domains:example.net', '/watch add domains:"example.org shop.example"'],
      ['--as', 'operator'],
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Looked up the 1 domain just added in ');
    expect(run.stdout).toContain('Looked up the 2 domains just added in ');
  });
});
