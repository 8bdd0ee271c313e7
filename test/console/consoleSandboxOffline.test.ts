// The sandbox reads nothing real: the built console on the sandbox, under a preload that records every
// attempt to reach beyond loopback (test/support/outboundRecorder.mjs: TCP, TLS, UDP, name look-ups and
// resolver queries), runs the forward check of /server rdns — answered by the sandbox's made-up zone, both
// ways — and the other sandbox commands, and nothing is recorded.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify, stripVTControlCharacters } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { runConsoleProcess } from '../support/consoleProcess.js';

const tmp = mkdtempSync(join(tmpdir(), 'hostops-sandbox-offline-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const RECORDER = pathToFileURL(join(import.meta.dirname, '../support/outboundRecorder.mjs')).href;

/** The console on the sandbox (no HOSTING_API_URL), the registry check on, every outbound attempt logged. */
async function offline(name: string, args: string[], input = '') {
  const cwd = mkdtempSync(join(tmp, `${name}-`));
  const log = join(cwd, 'outbound.log');
  const run = await runConsoleProcess(args, {
    cwd,
    input,
    env: { NODE_OPTIONS: `--import=${RECORDER}`, HOSTOPS_OUTBOUND_LOG: log, RDAP_CHECK: 'on' },
  });
  const outbound = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
  // The words as read: without the marks of a literal (backticks, inverse video).
  return { ...run, text: stripVTControlCharacters(run.stdout).replaceAll('`', ''), outbound };
}

describe('the outbound recorder', () => {
  it('records a connection beyond loopback (what would make the tests below fail)', async () => {
    const cwd = mkdtempSync(join(tmp, 'recorder-'));
    const log = join(cwd, 'outbound.log');
    // A documentation address (RFC 5737), the socket destroyed at once: recorded before it is attempted.
    const script =
      "const s = require('node:net').connect({ host: '192.0.2.1', port: 9 }); s.on('error', () => {}); s.destroy();";
    await promisify(execFile)(process.execPath, [`--import=${RECORDER}`, '-e', script], {
      env: { PATH: process.env.PATH ?? '', HOSTOPS_OUTBOUND_LOG: log },
    });
    expect(readFileSync(log, 'utf8')).toBe('tcp 192.0.2.1:9\n');
  });
});

describe('the console on the sandbox', () => {
  it('checks forward DNS in its own zone: a name that resolves to the address, and no socket opened', {
    timeout: 60_000,
  }, async () => {
    const run = await offline('match', [
      '--as',
      'operator',
      '/server rdns 42 203.0.113.7 web-01.example.com',
    ]);
    expect(run.outbound).toEqual([]);
    // A preview only (no --yes): exit 4, nothing sent.
    expect(run.code).toBe(4);
    expect(run.text).toContain('web-01.example.com resolves to 203.0.113.7');
  });

  it("a name whose A record is another address: the mismatch, named from the zone's data", {
    timeout: 60_000,
  }, async () => {
    const run = await offline('mismatch', [
      '--as',
      'operator',
      '/server rdns 7 203.0.113.80 edge-01.example.com',
    ]);
    expect(run.outbound).toEqual([]);
    expect(run.text).toContain('edge-01.example.com resolves to 203.0.113.81, not to 203.0.113.80');
  });

  it('a session of every kind of sandbox command (registry check on) reaches nothing beyond loopback', {
    timeout: 90_000,
  }, async () => {
    const lines = [
      '/help',
      '/domain info example.com',
      '/domain info shop.example',
      '/domain expiry domains:"example.net bücher.example old-brand.example"',
      '/server logs 4711',
      '/server rdns 1001 192.0.2.45 mail.example.org',
      'confirm',
      '/server rdns 42 203.0.113.7 nothing.example.com',
      'cancel',
      '/domain dns example.com records:"www 3600 A 203.0.113.7"',
      'confirm',
      '/domain records example.com',
      '/panel bind SANDBOX-LICENSE-0002 198.51.100.11',
      'confirm',
      '/watch add domains:"example.org shop.example moved-away.example"',
      '/watch list',
      '/watch check',
      '/watch calendar',
      '/audit',
    ];
    const run = await offline('session', ['--as', 'admin'], `${lines.join('\n')}\n`);
    expect(run.outbound).toEqual([]);
    expect(run.text).toContain('mail.example.org resolves to 192.0.2.45');
    expect(run.text).toContain('nothing.example.com has no IPv4 address');
    // The registry's line came from the sandbox's made-up registry (shop.example's date disagrees).
    expect(run.text).toContain('shop.example');
    expect(run.stderr).not.toMatch(/error/i);
  });
});
