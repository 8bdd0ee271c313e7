// The console as a newcomer meets it (issue 42): the documented script-safe one-shot through npm, the
// sandbox's known domains and servers in /help, the example placeholder URL named as such, and each
// friction a first session ran into. Through the built console (and once through npm, as documented).
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ConsoleArgs, flagsLostToNpm, parseArgs } from '../../src/console/consoleArgs.js';
import { message } from '../../src/i18n/Translator.js';
import type { HelpData } from '../../src/replies/answerData.js';
import { sandboxDirectory } from '../../src/sandbox/sandboxData.js';
import { builtEntryArgs } from '../support/built.js';
import { runConsoleProcess } from '../support/consoleProcess.js';

const ROOT = join(import.meta.dirname, '../..');
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'hostops-frontdoor-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const SANDBOX = { HOSTING_API_URL: 'sandbox' };
const sandboxRun = (args: string[]) => runConsoleProcess(args, { cwd: tempDir(), env: SANDBOX });

/** `npm run --silent console -- …` in the project, as docs/console.md documents it for scripts. */
function npmConsole(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'npm',
      ['run', '--silent', 'console', ...args],
      {
        cwd: ROOT,
        // This Node first, so npm and the script's node are the one running the tests.
        env: {
          PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
          HOME: tempDir(),
          LANG: 'C',
          NO_COLOR: '1',
          // Empty counts as unset: the sandbox, whatever a developer's .env says.
          HOSTING_API_URL: '',
          ...env,
        },
        timeout: 120_000,
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe.concurrent('the console as a newcomer meets it', { timeout: 120_000 }, () => {
  it('npm run --silent console -- --json "/help": JSON alone on stdout, with the sandbox’s domains and servers; each of them answers', async () => {
    // What /help lists is what the sandbox knows: every domain answers (asked meanwhile).
    const known = sandboxDirectory();
    const [help, expiry] = await Promise.all([
      npmConsole(['--', '--json', '/help']),
      sandboxRun(['--json', `/domain expiry domains:"${known.domains.join(' ')}" within:3650`]),
    ]);
    expect(help.code).toBe(0);
    const data = JSON.parse(help.stdout) as HelpData;
    expect(data.sandbox).toEqual(known);
    expect(data.sandbox?.domains).toContain('bücher.example');
    expect(data.sandbox?.servers).toContainEqual({ id: 42, name: 'web-01' });
    // docs/console.md lists the same.
    const docs = readFileSync(join(ROOT, 'docs/console.md'), 'utf8');
    for (const domain of known.domains) expect(docs).toContain(`\`${domain}\``);
    for (const server of known.servers) expect(docs).toContain(`\`${server.id}\` (${server.name})`);
    expect(expiry.code).toBe(0);
    const checked = JSON.parse(expiry.stdout) as { domains: { domain: string; error?: string }[] };
    expect(checked.domains.filter((d) => d.error !== undefined)).toEqual([]);
    expect(checked.domains).toHaveLength(known.domains.length);
  });

  it('a viewer’s session: every listed server answers; a refused change names the flag that gives the tier; a start is not told twice', async () => {
    const servers = sandboxDirectory().servers;
    const session = await runConsoleProcess([], {
      cwd: tempDir(),
      env: SANDBOX,
      input: [
        '/server rdns 42 203.0.113.7 web-01.example.com',
        ...servers.map((server) => `/server logs ${server.id}`),
      ].join('\n'),
    });
    expect(session.stdout).toContain(
      '`/server rdns` needs the operator tier: run the console with --as operator.',
    );
    expect(session.stdout.match(/\] Server \d+ — log entry/g)).toHaveLength(servers.length);
    expect(session.stdout).not.toContain('not found');
    // A running job (server 4711) started minutes ago: the date and time, then how long ago.
    expect(session.stdout).toMatch(/Started: \d+ \w+ \d{4}, \d\d:\d\d \(\d+ minutes ago\)\n/);
  });

  it('an operator’s session: the change’s actor is named once in the audit trail, never as a mention', async () => {
    const session = await runConsoleProcess(['--as', 'operator'], {
      cwd: tempDir(),
      env: SANDBOX,
      input: '/server rdns 42 203.0.113.7 web-01.example.com\nconfirm\n/audit\n',
    });
    expect(session.stdout).toMatch(
      new RegExp(`done · \`/server rdns\` · server 42 203\\.0\\.113\\.7 · console:${userInfo().username} · `),
    );
    expect(session.stdout).not.toContain('@console:');
  });

  it('a one-shot change without --yes shows no Confirm to press, stderr says how to send it; with --yes, SANDBOX once', async () => {
    const change = ['--as', 'operator', '/server rdns 42 203.0.113.7 web-01.example.com'];
    const [preview, sent] = await Promise.all([sandboxRun(change), sandboxRun(['--yes', ...change])]);
    expect(preview.code).toBe(4);
    expect(preview.stdout).toContain('Host name (rDNS): `web-01.example.com`');
    expect(preview.stdout).not.toMatch(/Confirm|expires/);
    expect(preview.stderr).toContain('Run it again with --yes');
    expect(sent.code).toBe(0);
    expect(sent.stdout).toContain('Reverse DNS set');
    expect(sent.stdout.match(/SANDBOX/g)).toHaveLength(1);
  });

  it('npm run console --as operator "/x" (no --) hands the console `operator /x`: the line says how to write it', async () => {
    const result = await sandboxRun(['operator', '/server logs 42']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('"operator" is not a command: to act as operator, write --as operator');
    expect(result.stderr).toContain('npm run console -- --as operator');
  });

  it('.env.example’s provider lines uncommented unchanged: "HOSTING_API_URL: is still the example placeholder", exit 78', async () => {
    const cwd = tempDir();
    const example = readFileSync(join(ROOT, '.env.example'), 'utf8').replace(/^#(HOSTING_API_\w+=)/gm, '$1');
    writeFileSync(join(cwd, '.env'), example);
    const result = await runConsoleProcess(['/server logs 42'], {
      cwd,
      env: { HOSTING_API_TOKEN: 'a-token' },
    });
    expect(result.code).toBe(78);
    expect(result.stderr).toContain(
      'HOSTING_API_URL: is still the example placeholder (api.example-hosting.com)',
    );
    expect(result.stderr).not.toContain('HOSTING_API_TOKEN');
  });

  it('Ctrl-C at a pending confirm cancels the change and says so; Ctrl-C again ends the session, exit 130', async () => {
    const dir = tempDir();
    const command = [process.execPath, ...builtEntryArgs('src/console.ts'), '--as', 'operator']
      .map((part) => `'${part.replace(/'/g, `'\\''`)}'`)
      .join(' ');
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        USER: 'tester',
        NO_COLOR: '1',
        LANG: 'C',
        TERM: 'xterm',
        ...SANDBOX,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += String(chunk);
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const waitFor = async (pattern: RegExp) => {
      const deadline = Date.now() + 30_000;
      while (!pattern.test(output) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(output).toMatch(pattern);
    };
    await waitFor(/hostops\(operator\)> /);
    child.stdin.write('/server rdns 42 203.0.113.7 web-01.example.com\r');
    await waitFor(/\[confirm\/cancel\]> /);
    child.stdin.write('\u0003');
    await waitFor(/Interrupted: the change was cancelled, nothing was sent\./);
    child.stdin.write('\u0003');
    await waitFor(/Interrupted: the session ends/);
    const timer = setTimeout(() => child.kill(), 15_000);
    // `script` reports the console's exit code as its own.
    expect(await exited).toBe(130);
    clearTimeout(timer);
    expect(output).not.toMatch(/Reverse DNS set/);
  });
});

describe('flags npm keeps for itself', () => {
  const args = (command: string, flags: Partial<ConsoleArgs> = {}) => ({ ...parseArgs([command]), ...flags });
  it('--yes or --json before npm’s --: npm_config_yes and npm_config_json say npm took them', () => {
    const env = { npm_lifecycle_event: 'console', npm_config_yes: 'true', npm_config_json: 'true' };
    expect(flagsLostToNpm(args('/server logs 42'), env)?.text).toEqual(
      message('console.args.npm_took', { flags: '--yes, --json' }),
    );
    // Given to the console after --, or not through npm at all: nothing to say.
    expect(flagsLostToNpm(args('/server logs 42', { yes: true, json: true }), env)).toBeUndefined();
    expect(flagsLostToNpm(args('/server logs 42'), { npm_config_yes: 'true' })).toBeUndefined();
  });
});
