// The console reads `.env` as the bot does (src/config.ts readEnvFile, Node's own parser): what the file
// says counts, the environment wins, and a value Node reads across lines is read whole.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runConsoleProcess } from '../support/consoleProcess.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function withEnvFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'hostops-console-env-'));
  dirs.push(dir);
  writeFileSync(join(dir, '.env'), text);
  return dir;
}

describe('console, .env', { timeout: 60_000 }, () => {
  it('reads .env like the bot: a quoted value over two lines, inline comments, and the environment wins', async () => {
    const cwd = withEnvFile(
      [
        'export HOSTING_API_URL=sandbox # the built-in sandbox',
        'DATABASE_URL=sqlite:console.db',
        // Node's parser reads a double-quoted value across lines; a line-by-line parser would not.
        'APPROVAL_REQUIRED="server rdns,',
        'domain register"',
        // The last line, with no newline after it: Node 22.14 and 22.15 kept its comment in the value.
        'RDNS_FORWARD_CHECK=off # no look-ups',
      ].join('\n'),
    );
    const refused = await runConsoleProcess(
      ['--as', 'admin', '--yes', '/server rdns id:42 ip:203.0.113.7 hostname:host.example.com'],
      { cwd, env: {} },
    );
    expect(refused.stderr).toContain(
      '`/server rdns` needs a second person to approve it (APPROVAL_REQUIRED)',
    );
    expect(refused.code).toBe(3);

    // The environment wins over .env.
    const sent = await runConsoleProcess(
      ['--as', 'admin', '--yes', '/server rdns id:42 ip:203.0.113.7 hostname:host.example.com'],
      { cwd, env: { APPROVAL_REQUIRED: 'panel bind' } },
    );
    expect(sent.stderr).toBe('');
    expect(sent.code).toBe(0);
  });

  it('an invalid value in .env is named, exit 78', async () => {
    const cwd = withEnvFile('HOSTING_API_URL=ftp://nope\n');
    const { code, stderr } = await runConsoleProcess(['/help'], { cwd, env: {} });
    expect(code).toBe(78);
    expect(stderr).toContain('HOSTING_API_URL');
    expect(stderr).not.toContain('ftp://nope');
  });
});
