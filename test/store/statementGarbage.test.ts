// better-sqlite3 12 derives its statements from node::ObjectWrap, whose destructor (in the header since Node
// 24.19, compiled into the addon) asks for the current Environment. When V8 collects a finished statement
// outside a JavaScript context that is null and Node aborts the whole process: "Assertion failed: (env) !=
// nullptr" in RemoveEnvironmentCleanupHook (nodejs/node#65446). Test files lost their worker to it on
// Node 24, and so would HostOps in its container. better-sqlite3 13 uses Node-API instead.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { sourceEntryArgs } from '../support/runSource.js';

const tmp = mkdtempSync(join(tmpdir(), 'hostops-statement-garbage-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

it('a SQLite store in steady use survives V8 collecting its finished statements', async () => {
  const args = [...sourceEntryArgs('test/store/fixtures/statementChurn.ts'), join(tmp, 'churn.db')];
  const outcome = await new Promise<{
    code: number | null;
    signal: string | null;
    stdout: string;
    stderr: string;
  }>((resolve) => {
    const child = execFile(process.execPath, args, { timeout: 30_000 }, (_error, stdout, stderr) =>
      resolve({ code: child.exitCode, signal: child.signalCode, stdout, stderr }),
    );
  });
  expect(outcome.stderr).not.toContain('Assertion failed');
  expect(outcome).toMatchObject({ code: 0, signal: null, stdout: 'survived 2000\n' });
});
