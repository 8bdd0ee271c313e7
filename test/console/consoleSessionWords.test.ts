// The interactive console says what to type, in its own words (issue 49, point 11): the built console on
// the sandbox, as a process — piped, and under a pseudo-terminal (`script`) for the prompt.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { builtEntry } from '../support/built.js';
import { runConsoleProcess } from '../support/consoleProcess.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'hostops-console-words-'));
  dirs.push(dir);
  return dir;
};

/** An operator's session on the sandbox, its lines piped in, then the end of input. */
const session = (lang: string, lines: readonly string[]) =>
  runConsoleProcess(['--as', 'operator'], {
    cwd: tempDir(),
    env: { LANG: lang, HOSTING_API_URL: 'sandbox' },
    input: `${lines.join('\n')}\n`,
  });

const dnsChange = (address: string) => ['/domain dns example.com', `www 3600 A ${address}`, ''];

describe('console session, the words for buttons', { timeout: 90_000 }, () => {
  it('says "type `confirm`" in the preview, names `revert example.com` after a change, and that works', async () => {
    const run = await session('C', [
      ...dnsChange('203.0.113.7'),
      'confirm',
      ...dnsChange('203.0.113.8'),
      'confirm',
      'revert example.com',
      'cancel',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Nothing is sent until you type `confirm`. This prompt expires');
    expect(run.stdout).not.toMatch(/press/i);
    // The second change has a set before it: its record offers going back, by the words that work.
    expect(run.stdout).toContain('Type revert example.com.');
    expect(run.stdout).not.toContain('Type revert.');
    // `revert example.com` opened the prompt for the first set again, with its difference.
    expect(run.stdout).toMatch(/~ www 3600 A 203\.0\.113\.8\n\s*→ www 3600 A 203\.0\.113\.7/);
    expect(run.stdout.match(/Cancelled — nothing was sent\./g)).toHaveLength(1);
  });

  it('German session: English `confirm` presses Bestätigen; the preview says what to type', async () => {
    const run = await session('de_DE.UTF-8', [...dnsChange('203.0.113.7'), 'confirm']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Es wird nichts gesendet, bis du `bestätigen` eingibst.');
    expect(run.stdout).not.toContain('drückst');
    expect(run.stdout).toMatch(/📝 console:\S+ hat 1 Eintrag für `example.com` übermittelt\./);
    expect(run.stdout).not.toContain('Gib bestätigen oder abbrechen oder einen Befehl');
  });

  it.each([
    ['exit', 'C', ['exit'], 'The session ends with a change waiting: it was cancelled, nothing was sent.'],
    [
      'the end of input',
      'C',
      [],
      'The session ends with a change waiting: it was cancelled, nothing was sent.',
    ],
    [
      'exit (German)',
      'de_DE.UTF-8',
      ['exit'],
      'Die Sitzung endet, während eine Änderung wartet: sie wurde verworfen, nichts wurde gesendet.',
    ],
  ])(
    '%s while a change waits: cancelled, said so, exit 4 (change not sent)',
    async (_how, lang, end, says) => {
      const run = await session(lang, [...dnsChange('203.0.113.7'), ...end]);
      expect(run.code, run.stderr).toBe(4);
      const lines = run.stdout.trimEnd().split('\n');
      expect(lines.at(-1)).toBe(says);
      expect(run.stdout).toMatch(/Cancelled — nothing was sent\.|Abgebrochen — es wurde nichts gesendet\./);
      expect(run.stdout).not.toMatch(/DNS records submitted|DNS-Einträge übermittelt/);
    },
  );

  it('exit with nothing waiting still ends with 0, saying nothing of a change', async () => {
    const run = await session('C', ['/domain info example.com', 'exit']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain('cancelled');
  });
});

const hasScript = spawnSync('script', ['--version']).status === 0;

describe.skipIf(!hasScript)('console session at a terminal (script(1))', { timeout: 90_000 }, () => {
  it('shows its prompt once per line typed, after the answer', async () => {
    const dir = tempDir();
    const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;
    const child = spawn(
      'script',
      ['-qfc', `${quote(process.execPath)} ${quote(builtEntry('src/console.ts'))}`, '/dev/null'],
      {
        cwd: dir,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: dir,
          USER: 'tester',
          LANG: 'C',
          TERM: 'dumb',
          NO_COLOR: '1',
          RDAP_CHECK: 'off',
          HOSTING_API_URL: 'sandbox',
        },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    const PROMPT = 'hostops(viewer)> ';
    let output = '';
    const waiters: (() => void)[] = [];
    child.stdout.on('data', (chunk) => {
      output += String(chunk);
      for (const wake of waiters.splice(0)) wake();
    });
    const prompts = () => output.split(PROMPT).length - 1;
    /** Waits until the output holds `n` prompts and the answer before the last is complete. */
    const untilPrompts = async (n: number, after: string) => {
      while (prompts() < n || !output.includes(after)) {
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    };
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));

    await untilPrompts(1, 'exit quits.');
    child.stdin.write('/help\r');
    await untilPrompts(2, 'Changes wait for confirm or cancel.');
    child.stdin.write('/domain info example.com\r');
    await untilPrompts(3, 'Transferred away:');
    child.stdin.write('exit\r');
    expect(await exited).toBe(0);

    const typed = ['/help', '/domain info example.com', 'exit'];
    const promptLines = output.split(/\r?\n/).filter((line) => line.includes(PROMPT));
    // Each prompt stands alone at the start of its line, followed only by what was typed there.
    expect(promptLines.map((line) => line.replace(/\r/g, ''))).toEqual(
      typed.map((line) => `${PROMPT}${line}`),
    );
  });
});
