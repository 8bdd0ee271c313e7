// SQLite is the single-process store: a second HostOps on the same file must refuse to start, clearly,
// and a process killed outright must not lock its successor out.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Fakes, killSpawned, logged, spawnBot, startFakes } from '../support/spawnBot.js';

let f: Fakes;
beforeAll(async () => {
  f = await startFakes();
});
afterAll(async () => {
  await killSpawned();
  await f?.stop();
});

it('a second process on the same SQLite file refuses to start, saying replicas need PostgreSQL', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'hostops-sqlite-')), 'hostops.db');
  const env = { DATABASE_URL: `sqlite:${file}` };
  const first = await spawnBot({ ...f, env });
  await first.waitForLog(logged('gateway ready'));

  const second = await spawnBot({ ...f, env });
  const exit = await second.exitWithin(15_000);
  expect(exit.code).toBe(1);
  const fatal = second.lines.filter((line) => line.json.level === 60);
  expect(fatal).toHaveLength(1);
  expect(String(fatal[0]?.json.msg)).toMatch(
    /DATABASE_URL: the SQLite database at .*hostops\.db is in use by another HostOps process \(.+, pid \d+\); replicas need PostgreSQL/,
  );
  // The first one is unaffected.
  expect(first.exit).toBeUndefined();

  // Killed outright, the first leaves its heartbeat behind; a successor on the same host starts anyway,
  // because that pid no longer runs.
  first.kill('SIGKILL');
  await first.exitWithin(5_000);
  const third = await spawnBot({ ...f, env });
  await third.waitForLog(logged('gateway ready'));
  expect(third.exit).toBeUndefined();
  third.kill('SIGTERM');
  expect((await third.exitWithin(10_000)).code).toBe(0);
});
