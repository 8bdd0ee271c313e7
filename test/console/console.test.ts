import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { builtEntryArgs } from '../support/built.js';

const osUser = userInfo().username;

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The console as a process: from a temp directory (no .env), on the sandbox, with its own store, in
 * English (LANG=C, no LC_ALL or LC_MESSAGES) unless `env` says otherwise.
 */
function runConsole(args: string[], input?: string, env: Record<string, string> = {}): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'hostops-console-'));
  dirs.push(dir);
  const child = spawn(process.execPath, [...builtEntryArgs('src/console.ts'), ...args], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      USER: 'tester',
      NO_COLOR: '1',
      LANG: 'C',
      HOSTING_API_URL: 'sandbox',
      DATABASE_URL: `sqlite:${join(dir, 'console.db')}`,
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += String(chunk);
  });
  child.stderr.on('data', (chunk) => {
    stderr += String(chunk);
  });
  child.stdin.end(input ?? '');
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('console, one-shot', () => {
  it('answers a read on stdout and exits 0, marked SANDBOX', async () => {
    const { code, stdout, stderr } = await runConsole(['/domain info example.com']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('SANDBOX');
    expect(stdout).toMatch(/\[(ok|attention|error)\] example\.com/);
    expect(stdout).toMatch(/Expires: /);
    expect(stdout).not.toMatch(/<t:\d+/);
  });

  it('refuses by tier: the error on stderr, exit 3, nothing on stdout', async () => {
    const { code, stdout, stderr } = await runConsole(['/server rdns 42 203.0.113.7 host.example.com']);
    expect(code).toBe(3);
    expect(stdout).toBe('');
    expect(stderr).toContain('`/server rdns` needs the operator tier');
  });

  it('rejects invalid input: a bad option value (exit 2) and an unknown command (exit 2)', async () => {
    const invalid = await runConsole(['--as', 'operator', '/server rdns 42 999.1.1.1 host.example.com']);
    expect(invalid.code).toBe(2);
    expect(invalid.stdout).toBe('');
    expect(invalid.stderr).toMatch(/ip/i);
    const unknown = await runConsole(['/servers logs 42']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command /servers');
  });

  it('a change without --yes prints the preview, sends nothing and exits 4', async () => {
    const { code, stdout, stderr } = await runConsole([
      '--as',
      'operator',
      '/server rdns id:42 ip:203.0.113.7 hostname:host.example.com',
    ]);
    expect(code).toBe(4);
    expect(stdout).toContain('[warning] Set reverse DNS');
    expect(stdout).toContain('Host name (rDNS): `host.example.com`');
    expect(stdout).not.toContain('Reverse DNS set');
    expect(stderr).toContain('Run it again with --yes');
  });

  it('a change with --yes is sent and recorded with the console actor', async () => {
    const { code, stdout, stderr } = await runConsole([
      '--as',
      'operator',
      '--yes',
      '/server',
      'rdns',
      '42',
      '203.0.113.7',
      'host.example.com',
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('[ok] Reverse DNS set');
    expect(stdout).toContain(`🛠️ console:${osUser} set the reverse DNS`);
  });

  it('refuses a change that needs a second person (APPROVAL_REQUIRED), even with --yes: exit 3', async () => {
    const { code, stdout, stderr } = await runConsole(
      ['--as', 'admin', '--yes', '/server rdns id:42 ip:203.0.113.7 hostname:host.example.com'],
      undefined,
      { APPROVAL_REQUIRED: 'server rdns' },
    );
    expect(code).toBe(3);
    expect(stdout).toBe('');
    expect(stderr).toContain('`/server rdns` needs a second person to approve it (APPROVAL_REQUIRED)');
    expect(stderr).toContain('Nothing was sent');
    // What does not need approval still runs.
    const read = await runConsole(['/server logs 42'], undefined, { APPROVAL_REQUIRED: 'server rdns' });
    expect(read.code).toBe(0);
  });

  it('refuses an /access request, which always needs a second person, whatever APPROVAL_REQUIRED lists: exit 3', async () => {
    const { code, stdout, stderr } = await runConsole([
      '--as',
      'viewer',
      '--yes',
      '/access request what:"domain dns" on:*.acme.example hours:2 why:"night shift"',
    ]);
    expect(code).toBe(3);
    expect(stdout).toBe('');
    expect(stderr).toContain('`/access request` always needs a second person to approve it');
    expect(stderr).toContain('Nothing was sent');
  });

  it('--json prints the answer’s data, and says on stderr that it is the sandbox’s', async () => {
    const { code, stdout, stderr } = await runConsole(['--json', '/server logs 42']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ serverId: 42, statusClass: expect.any(String) });
    expect(stdout).not.toContain('SANDBOX');
    expect(stderr).toContain('SANDBOX');
  });

  it('an API error goes to stderr with exit 1', async () => {
    const { code, stdout, stderr } = await runConsole(['/server logs 999999']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).not.toBe('');
  });

  it('invalid configuration names the variable and exits 78', async () => {
    const { code, stderr } = await runConsole(['/help'], undefined, { HOSTING_API_URL: 'ftp://nope' });
    expect(code).toBe(78);
    expect(stderr).toContain('HOSTING_API_URL');
  });
});

describe('console, interactive with piped stdin', () => {
  it('reads, refuses, rejects invalid input, confirms and cancels changes, and records them', async () => {
    const input = [
      '/server logs 42',
      '/domain register example.net ns1.example.com ns2.example.com',
      '/server logs id:abc',
      '/server rdns 42 203.0.113.7 host.example.com',
      'confirm',
      '/server rdns 42 203.0.113.8 other.example.com',
      'cancel',
      '/domain dns example.com',
      'www 3600 A 203.0.113.7',
      '@ MX 10 mail.example.com.',
      '',
      'confirm',
      '/audit',
      'exit',
      '',
    ].join('\n');
    const { code, stdout, stderr } = await runConsole(['--as', 'operator'], input);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('Server 42 — log entry');
    expect(stdout).toContain('`/domain register` needs the admin tier');
    expect(stdout).toContain('Invalid command: option id: "abc" is not a whole number');
    expect(stdout).toContain('[ok] Reverse DNS set');
    expect(stdout).toContain('Cancelled — nothing was sent.');
    expect(stdout).not.toContain('203.0.113.8 (server 42)');
    expect(stdout).toContain('[ok] DNS records submitted');
    // The audit trail (the same store and renderer as the bot) names the console actor.
    expect(stdout).toContain(`console:${osUser}`);
  });

  it('asks a form field by field; an invalid field, then `edit` asks again with what was typed', async () => {
    const input = [
      '/musicbot create username:alice',
      '', // keeps alice
      'alice@@example',
      '2', // the second plan
      '3',
      'edit',
      '',
      'alice@example.com',
      '',
      '',
      'confirm',
      'exit',
      '',
    ].join('\n');
    const { code, stdout, stderr } = await runConsole(['--as', 'operator'], input);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('New music-bot customer');
    expect(stdout).toContain('Now: alice (an empty line keeps it)');
    expect(stdout).toMatch(/E-mail.*alice@@example/s);
    expect(stdout).toContain('Nothing was sent.');
    expect(stdout).toContain('Now: alice@@example');
    expect(stdout).toContain('Music-bot account created');
  });

  it('a one-shot names the options a form stands for and sends nothing', async () => {
    const { code, stdout, stderr } = await runConsole([
      '--as',
      'operator',
      '/musicbot create username:alice',
    ]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('give its options on the command line: username, email, storage, bots');
  });

  it('a viewer gets /help with what they may run', async () => {
    const { code, stdout } = await runConsole([], '/help\n');
    expect(code).toBe(0);
    expect(stdout).toMatch(/✅ `\/server logs`/);
    expect(stdout).toMatch(/🚫 `\/server rdns`/);
    expect(stdout).toContain('Your tier: viewer.');
  });
});

// Each of these starts one or two console processes; on a busy machine that takes a while.
describe('console, in German (LANG=de_DE.UTF-8)', { timeout: 60_000 }, () => {
  const german = { LANG: 'de_DE.UTF-8' };

  it('answers a read in German, with German dates', async () => {
    const read = await runConsole(['/domain info example.com'], undefined, german);
    expect(read.stderr).toBe('');
    expect(read.code).toBe(0);
    expect(read.stdout).toContain('erfundene Daten');
    // German labels and dates (25.06.2027), not English ones.
    expect(read.stdout).toMatch(/\d{2}\.\d{2}\.\d{4}/);
    expect(read.stdout).not.toContain('Expires');
  });

  it('refuses in German', async () => {
    const refused = await runConsole(['/server rdns 42 203.0.113.7 host.example.com'], undefined, german);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('`/server rdns` erfordert die Stufe');
  });

  it('rejects a bad value in German, and takes the German command names', async () => {
    const invalid = await runConsole(['/server protokoll id:abc'], undefined, german);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toBe('Ungültiger Befehl: Option id: "abc" ist keine ganze Zahl\n');
  });

  it('shows a change’s preview in German and says in German that nothing was sent', async () => {
    const preview = await runConsole(
      ['--as', 'operator', '/server rdns 42 203.0.113.7 host.example.com'],
      undefined,
      german,
    );
    expect(preview.code).toBe(4);
    expect(preview.stdout).toMatch(/\[Warnung\] .*Reverse-DNS/);
    expect(preview.stderr).toContain('Nicht gesendet: das ist eine Änderung.');
  });

  it('LC_ALL wins over LC_MESSAGES over LANG', async () => {
    const english = await runConsole(['--bogus'], undefined, { LANG: 'de_DE.UTF-8', LC_ALL: 'C' });
    expect(english.stderr).toContain('hostops console: unknown flag --bogus');
    const usage = await runConsole(['--help'], undefined, { LC_MESSAGES: 'de_DE.UTF-8', LANG: 'C' });
    expect(usage.stdout).toContain('Aufruf: npm run console');
  });

  it('BOT_LOCALE=en keeps the public record English while the answer is German', async () => {
    const { code, stdout } = await runConsole(
      ['--as', 'operator', '--yes', '/server rdns 42 203.0.113.7 host.example.com'],
      undefined,
      { ...german, BOT_LOCALE: 'en' },
    );
    expect(code).toBe(0);
    expect(stdout).toContain(`🛠️ console:${osUser} set the reverse DNS`);
    expect(stdout).toMatch(/\[ok\] .*Reverse-DNS/);
  });

  it('an interactive session: prompts in German, typed German button labels confirm', async () => {
    const input = ['/server rdns 42 203.0.113.7 host.example.com', 'bestätigen', 'exit', ''].join('\n');
    const { code, stdout, stderr } = await runConsole(['--as', 'operator'], input, german);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('HostOps-Konsole — du handelst als operator');
    expect(stdout).toContain('Gib bestätigen oder abbrechen ein.');
    expect(stdout).toMatch(/\[ok\] .*Reverse-DNS/);
    // The public record follows the terminal too (no BOT_LOCALE): the console's one reader sees it.
    expect(stdout).not.toContain('set the reverse DNS');
  });
});

/**
 * The console at a terminal: `script` gives it a pseudo-terminal (readline's terminal mode, its history
 * file and the up arrow), fed keystroke by keystroke, each after the console has printed its prompt.
 */
async function atTerminal(
  keys: string[],
  /** A history file there before, as an earlier version may have left it. */
  earlier?: { text: string; mode: number },
): Promise<{ output: string; echoes: string[]; history: string; mode: number | undefined }> {
  const dir = mkdtempSync(join(tmpdir(), 'hostops-tty-'));
  dirs.push(dir);
  const historyFile = join(dir, '.hostops_console_history');
  if (earlier) {
    writeFileSync(historyFile, earlier.text);
    chmodSync(historyFile, earlier.mode);
  }
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
      HOSTING_API_URL: 'sandbox',
      DATABASE_URL: `sqlite:${join(dir, 'console.db')}`,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += String(chunk);
  });
  const closed = new Promise((resolve) => child.on('close', resolve));
  const prompts = () => output.split('> ').length;
  /** What the terminal showed after each key: a cursor key's is the line it brought back. */
  const echoes: string[] = [];
  for (const key of keys) {
    const before = prompts();
    const from = output.length;
    child.stdin.write(key);
    // A line is answered when a new prompt follows and nothing more arrives for a moment; a cursor key
    // only redraws the line.
    const deadline = Date.now() + 15_000;
    let seen = output.length;
    for (;;) {
      await new Promise((r) => setTimeout(r, 250));
      const quiet = output.length === seen;
      seen = output.length;
      if ((quiet && (!key.endsWith('\r') || prompts() > before)) || Date.now() > deadline) break;
    }
    echoes.push(output.slice(from));
  }
  // `script` hangs up on the console when its own input ends: `exit` first, and the input open till then.
  await new Promise((r) => setTimeout(r, 500));
  child.stdin.write('exit\r');
  const timer = setTimeout(() => child.kill(), 15_000);
  await closed;
  clearTimeout(timer);
  const exists = existsSync(historyFile);
  return {
    output,
    echoes,
    history: exists ? readFileSync(historyFile, 'utf8') : '',
    mode: exists ? statSync(historyFile).mode & 0o777 : undefined,
  };
}

describe('console, at a terminal', { timeout: 60_000 }, () => {
  it('keeps no license key in its history: the file and the up arrow have the masked form, which is refused', async () => {
    const { output, history, mode } = await atTerminal([
      '/panel bind SECRETKEY-1234 203.0.113.7\r',
      'cancel\r',
      '/panel bind "SECRET\\"KEY-98" 203.0.113.7\r',
      'cancel\r',
      // Up four times: past the cancels and the escaped key (kept masked too), to the first command.
      '\u001b[A',
      '\u001b[A',
      '\u001b[A',
      '\u001b[A',
      '\r',
    ]);
    expect(output).toContain('License: `SECRETKEY-1234`');
    expect(history).not.toContain('SECRET');
    expect(history.split('\n')).toEqual([
      '/panel bind …1234 203.0.113.7',
      'cancel',
      '/panel bind …Y-98 203.0.113.7',
      'cancel',
      '/panel bind …1234 203.0.113.7',
      'exit',
      '',
    ]);
    // Created readable by its owner only.
    expect(mode).toBe(0o600);
    // The line the up arrow brought back is the masked one, and a masked key is not sent.
    expect(output).toContain('`license`: this is the masked form of a key');
  });

  it('keeps no key of a line that does not parse either, and tightens and cleans an older history file', async () => {
    const keys = ['LICENCEKEY-1111', 'LIZENZKEY-2222', 'LIZENZKEY-3333', 'POSITIONKEY-4444', 'TYPOKEY-5555'];
    const up = '\u001b[A';
    const { output, echoes, history, mode } = await atTerminal(
      [
        // Each is refused: an option name that is none, German names in an English terminal, a missing
        // option, a mistyped command.
        `/panel bind licence:${keys[0]} 203.0.113.7\r`,
        `/panel bind lizenz:${keys[1]} ip:203.0.113.7\r`,
        `/panel binden lizenz:${keys[2]}\r`,
        `/panel bind ${keys[3]}\r`,
        `/panle bind ${keys[4]} 203.0.113.7\r`,
        // The line without its IP, brought back and finished: the key it sends is the masked one.
        up,
        up,
        ' 203.0.113.7\r',
        // Every line the up arrow reaches, the older file's included.
        ...Array.from({ length: 8 }, () => up),
        // Clear the line brought back, so that `exit` is typed alone.
        '\u0015',
      ],
      { text: '/panel bind OLDSECRETKEY-9999 203.0.113.7\n/server logs 42\n', mode: 0o644 },
    );
    expect(output).toContain('/panel bind has no option licence');
    expect(output).toContain('`license`: this is the masked form of a key');
    expect(mode).toBe(0o600);
    for (const key of [...keys, 'OLDSECRETKEY-9999']) expect(history).not.toContain(key);
    expect(history.split('\n')).toEqual([
      '/panel bind …9999 203.0.113.7',
      '/server logs 42',
      '/panel bind licence:…1111 …13.7',
      '/panel bind lizenz:…2222 ip:203.0.113.7',
      '/panel binden lizenz:…3333',
      '/panel bind …4444',
      '/panle bind …5555 203.0.113.7',
      '/panel bind …4444 203.0.113.7',
      'exit',
      '',
    ]);
    const recalled = echoes.slice(8, 16).join('');
    for (const key of [...keys, 'OLDSECRETKEY-9999']) expect(recalled).not.toContain(key);
    for (const mask of ['…1111', '…2222', '…3333', '…4444', '…5555', '…9999'])
      expect(recalled).toContain(mask);
  });
});
