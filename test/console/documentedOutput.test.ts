// What the docs show of the console's output is what the built console prints (issue 49): every key of a
// read's real `--json` data is in docs/console.md's table row for it, and the README's sample answer is the
// sandbox's real one, its build line the build's real figures.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { builtEntry } from '../support/built.js';
import { runConsoleProcess } from '../support/consoleProcess.js';

const ROOT = join(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const sandbox = (args: string[]) => {
  const cwd = mkdtempSync(join(tmpdir(), 'hostops-documented-'));
  dirs.push(cwd);
  // The sandbox's registry is inside the process: the RDAP check on, as `npm run console` has it, sends nothing.
  return runConsoleProcess(args, { cwd, env: { HOSTING_API_URL: 'sandbox', RDAP_CHECK: 'on' } });
};

/** Every key anywhere in a JSON value. */
function keysOf(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) keysOf(item, into);
  else if (value !== null && typeof value === 'object')
    for (const [key, inner] of Object.entries(value)) {
      into.add(key);
      keysOf(inner, into);
    }
  return into;
}

/** The names docs/console.md's `--json` table gives for a command: `"key"`, `"key?"` and `` `key?` ``. */
function documentedKeys(command: string): Set<string> {
  const row = read('docs/console.md')
    .split('\n')
    .find((line) => line.startsWith(`| \`${command}\` |`));
  if (row === undefined) throw new Error(`docs/console.md has no --json row for ${command}`);
  const keys = new Set([...row.matchAll(/"(\w+)\??"|`(\w+)\?`/g)].map((m) => m[1] ?? m[2] ?? ''));
  // "each … as for `/domain info`": that row's keys are this one's too.
  for (const [, other = ''] of row.matchAll(/as (?:for|in) `(\/[a-z ]+)`/g))
    for (const key of documentedKeys(other)) keys.add(key);
  return keys;
}

describe('what the docs show of the console is its real output', { timeout: 120_000 }, () => {
  it.each([
    ['/domain info', '/domain info bücher.example'],
    ['/domain expiry', '/domain expiry domains:"bücher.example nope.example" within:3650'],
    ['/server logs', '/server logs 42'],
    ['/help', '/help'],
  ])('docs/console.md names every key of %s --json', async (command, line) => {
    const result = await sandbox(['--json', line]);
    expect(result.code, result.stderr).toBe(0);
    const documented = documentedKeys(command);
    const undocumented = [...keysOf(JSON.parse(result.stdout))].filter((key) => !documented.has(key));
    expect(undocumented, result.stdout).toEqual([]);
  });

  it("the README's sample: the sandbox's answer to /domain info bücher.example, and the build's own figures", async () => {
    const sample = /```text\n\$ npm run --silent console -- "([^"]+)"\n(built[^\n]*)\n([\s\S]*?)```/.exec(
      read('README.md'),
    );
    expect(sample).not.toBeNull();
    const [, line = '', built = '', answer = ''] = sample ?? [];
    // The build the tests run is the one `npm run console` makes: its JavaScript files and their size.
    const buildDir = dirname(dirname(builtEntry('src/console.ts')));
    const js = (readdirSync(buildDir, { recursive: true, encoding: 'utf8' }) as string[]).filter((file) =>
      file.endsWith('.js'),
    );
    const bytes = js.reduce((sum, file) => sum + statSync(join(buildDir, file)).size, 0);
    const shown = /^built 5 entry points into dist: (\d+) files, (\d+) KB of JavaScript, in \d+ ms$/.exec(
      built,
    );
    expect(shown, built).not.toBeNull();
    expect(Number(shown?.[1])).toBe(js.length);
    // Every change of the code moves the size a little: the sample holds within 5 % of the build's.
    expect(Math.abs(Number(shown?.[2]) * 1024 - bytes) / bytes).toBeLessThan(0.05);
    const result = await sandbox([line]);
    expect(result.code, result.stderr).toBe(0);
    // The dates move with the day it runs; what is said, and how, does not.
    const undated = (text: string) =>
      text
        .replace(/\b\d{1,2} [A-Z][a-z]{2} \d{4}\b/g, 'D MMM YYYY')
        .replace(/\b\d{4}-\d{2}-\d{2}\b/g, 'YYYY-MM-DD')
        .replace(/\b\d{2}:\d{2}\b/g, 'HH:MM')
        // "read now" has no time of day and "read 2 seconds ago (06:04)" has: which one a read is depends
        // on how long the machine took to render it.
        .replace(/\bread (?:now|\d+ seconds? ago)(?: \(HH:MM\))?/g, 'read N seconds ago');
    expect(undated(`${result.stderr}${result.stdout}`)).toBe(undated(answer));
  });
});
