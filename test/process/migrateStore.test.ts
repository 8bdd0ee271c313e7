// `npm run migrate-store`, the real script as it runs it (built, under node): copies, says so in one log line, and never
// prints the target's password.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { builtEntryArgs } from '../support/built.js';
import { createDatabase } from '../support/startPostgres.js';

const execFileAsync = promisify(execFile);

// An empty working directory, so no developer .env leaks into the test.
const cwd = mkdtempSync(join(tmpdir(), 'hostops-migrate-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function migrate(args: string[], env: Record<string, string> = {}): Promise<Run> {
  try {
    const { stdout, stderr } = await execFileAsync(
      process.execPath,
      [...builtEntryArgs('src/migrate-store.ts'), ...args],
      { cwd, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 15_000 },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const logLines = (run: Run) =>
  run.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('npm run migrate-store', () => {
  // Relative to the working directory, as an operator writes it.
  const from = 'sqlite:data/hostops.db';

  beforeAll(async () => {
    const source = await openStore(`sqlite:${join(cwd, 'data/hostops.db')}`);
    for (const [index, state] of (['pending', 'done'] as const).entries()) {
      await source.changes.insert({
        id: `change-${index}`,
        operation: 'setReverseDns',
        command: '/server rdns',
        target: '203.0.113.7',
        parameters: { ip: '203.0.113.7', hostname: 'mail.example.com' },
        preview: { title: 'Set reverse DNS' },
        requestedById: '100000000000000001',
        requestedByName: 'alice',
        locale: 'en',
        guildId: '300000000000000001',
        channelId: '400000000000000001',
        state,
        correlationId: `corr-${index}`,
        createdAt: new Date(1_900_000_000_000 + index),
        expiresAt: new Date(1_900_000_120_000),
      });
    }
    for (let index = 0; index < 3; index++) {
      await source.audit.insert({
        at: new Date(1_900_000_000_000 + index * 1000),
        userId: 'u1',
        userName: 'alice',
        guildId: 'g1',
        channelId: 'c1',
        command: 'domain',
        subcommand: 'info',
        target: `example-${index}.com`,
        outcome: 'ok',
        detail: null,
        correlationId: `audit-${index}`,
        durationMs: 5,
        parameters: null,
        changeId: null,
      });
    }
    await source.close();
  });

  it('copies into PostgreSQL, prints one summary line, never the password; a second run is refused', async () => {
    const to = await createDatabase(inject('postgresUrl'), 'migrate_cli');
    const password = new URL(to).password;
    expect(password.length).toBeGreaterThan(8);

    const run = await migrate(['--from', from, '--to', to]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const lines = logLines(run);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      msg: 'store copied: 2 changes, 3 audit entries, 0 watched domains and 0 DNS record sets',
      changes: 2,
      audit: 3,
      dnsSets: 0,
      from: 'sqlite:data/hostops.db',
      to: to.replace(`:${password}@`, ':***@'),
    });
    expect(run.stdout + run.stderr).not.toContain(password);

    const target = await openStore(to);
    try {
      expect((await target.changes.get('change-1'))?.state).toBe('done');
      const audit = await target.audit.query({}, { limit: 10, offset: 0 });
      expect(audit.rows.map((row) => row.correlationId)).toEqual(['audit-2', 'audit-1', 'audit-0']);
    } finally {
      await target.close();
    }

    // The target now holds rows: refused, exit 1, one fatal line, still no password.
    const again = await migrate(['--from', from, '--to', to]);
    expect(again.code).toBe(1);
    const fatal = logLines(again).filter((line) => line.level === 60);
    expect(fatal).toHaveLength(1);
    expect(String(fatal[0]?.msg)).toBe(
      'cannot copy the store: --to: the target store is not empty (2 changes, 3 audit entries); copy into a new, empty database. Nothing was copied.',
    );
    expect(again.stdout + again.stderr).not.toContain(password);
  });

  it('takes the target from DATABASE_URL when --to is left out', async () => {
    const to = await createDatabase(inject('postgresUrl'), 'migrate_env');
    const run = await migrate(['--from', from], { DATABASE_URL: to });
    expect(run.code).toBe(0);
    expect(logLines(run)[0]).toMatchObject({ changes: 2, audit: 3 });
    expect(run.stdout + run.stderr).not.toContain(new URL(to).password);
  });

  it('exits 78 on bad input, naming the flag or variable, never the password', async () => {
    const url = 'postgres://hostops:flag-pw-0815@127.0.0.1:9/hostops';
    const [missing, wrong, positional] = await Promise.all([
      migrate(['--to', url]),
      migrate(['--from', 'sqlite:data/nothing.db'], { DATABASE_URL: 'sqlite:data/hostops.db' }),
      // A URL typed without --to is echoed by Node's argument parser: only redacted.
      migrate(['--from', from, url]),
    ]);
    expect(missing.code).toBe(78);
    expect(missing.stderr).toContain('--from: is required');
    expect(wrong.code).toBe(78);
    expect(wrong.stderr).toContain(`--from: no SQLite database at ${join(cwd, 'data/nothing.db')}`);
    expect(wrong.stderr).toContain('DATABASE_URL: must be a postgres:// URL to be the target; or pass --to');
    expect(positional.code).toBe(78);
    expect(positional.stderr).toContain('postgres://hostops:***@127.0.0.1:9/hostops');
    for (const run of [missing, wrong, positional]) {
      expect(run.stdout + run.stderr).not.toContain('flag-pw-0815');
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
