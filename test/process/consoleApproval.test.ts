// APPROVAL_REQUIRED is the bot's policy, and the console holds to it without being told: the bot
// publishes its list to the store, and a console started with only its three variables on the same
// store refuses what the bot would hold for approval — through the gate, into the audit trail.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { builtEntryArgs } from '../support/built.js';
import { type Fakes, killSpawned, logged, spawnBot, startFakes } from '../support/spawnBot.js';

let fakes: Fakes;
beforeAll(async () => {
  fakes = await startFakes();
});
afterAll(async () => {
  await killSpawned();
  await fakes?.stop();
});

function consoleRun(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [...builtEntryArgs('src/console.ts'), ...args], {
    cwd: mkdtempSync(join(tmpdir(), 'hostops-console-approval-')),
    env: {
      PATH: process.env.PATH ?? '',
      HOME: '/nonexistent',
      LANG: 'C',
      NO_COLOR: '1',
      USER: 'ops',
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
  child.stdin.end();
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
}

describe("the console and the bot's approval policy", () => {
  it('a console without APPROVAL_REQUIRED refuses what the bot holds for approval, and the audit trail shows it', async () => {
    const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'hostops-policy-')), 'hostops.db')}`;
    const { discord, api } = fakes;
    const bot = await spawnBot({
      discord,
      api,
      env: { DATABASE_URL: databaseUrl, APPROVAL_REQUIRED: 'server rdns,domain register' },
    });
    await bot.waitForLog(logged('gateway ready'), 20_000);
    // SQLite is one process at a time: the console runs once the bot has stopped.
    bot.kill('SIGTERM');
    expect((await bot.exitWithin(20_000)).code).toBe(0);

    const env = { HOSTING_API_URL: api.url, HOSTING_API_TOKEN: api.token, DATABASE_URL: databaseUrl };
    const refused = await consoleRun(
      ['--as', 'admin', '--yes', '/server rdns id:42 ip:203.0.113.7 hostname:host.example.com'],
      env,
    );
    expect(refused.code, refused.stderr).toBe(3);
    expect(refused.stderr).toContain(
      '`/server rdns` needs a second person to approve it (APPROVAL_REQUIRED)',
    );
    expect(api.requestsFor('setReverseDns')).toHaveLength(0);
    // A change the bot does not hold is sent as usual.
    const bound = await consoleRun(['--as', 'operator', '--yes', '/panel bind ABCD-1234 203.0.113.9'], env);
    expect(bound.code, bound.stderr).toBe(0);
    expect(api.requestsFor('bindPanelLicense')).toHaveLength(1);

    const store = await openStore(databaseUrl);
    try {
      const { rows } = await store.audit.query(
        { command: 'server', outcome: 'refused' },
        { limit: 5, offset: 0 },
      );
      expect(rows.map((row) => [row.subcommand, row.detail, row.userName])).toEqual([
        ['rdns', 'approval', `console:${userInfo().username}`],
      ]);
    } finally {
      await store.close();
    }
    // And /audit, in the console, shows the refusal as the bot's /audit would.
    const audit = await consoleRun(['--as', 'operator', '/audit outcome:refused'], env);
    expect(audit.code, audit.stderr).toBe(0);
    expect(audit.stdout).toMatch(/refused · `\/server rdns` · .* · approval/);
    expect(audit.stdout).toContain('Matches 1–1 of 1');
    expect(audit.stdout).toContain(`console:${userInfo().username}`);
    expect(audit.stdout).not.toContain('/panel bind');
  }, 120_000);
});
