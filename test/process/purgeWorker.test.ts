// The retention purge in the built bot, on a SQLite file, past its first batch: its batches and the
// write-ahead log's checkpoints then run on a worker thread whose program is evaluated from a string and
// loads better-sqlite3 by the path the bundle resolves — what only the bundle `npm start` runs can prove
// works.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PURGE_BATCH } from '../../src/store/auditQueries.js';
import { openStore } from '../../src/store/index.js';
import { type Fakes, killSpawned, logged, spawnBot, startFakes } from '../support/spawnBot.js';

const DAY = 86_400_000;
const EXPIRED = PURGE_BATCH * 3 + 5;
const path = join(mkdtempSync(join(tmpdir(), 'hostops-purge-worker-')), 'hostops.db');
let fakes: Fakes | undefined;

beforeAll(async () => {
  fakes = await startFakes();
  const store = await openStore(`sqlite:${path}`);
  const entry = (at: number, n: number) => ({
    at: new Date(at),
    userId: '100000000000000001',
    userName: 'ops',
    guildId: null,
    channelId: null,
    command: 'domain',
    subcommand: 'info',
    target: `purge-${n}.example`,
    outcome: 'ok',
    detail: null,
    correlationId: `cid-${n}`,
    durationMs: 1,
    parameters: null,
    changeId: null,
  });
  const old = Date.now() - 10 * DAY;
  for (let n = 0; n < EXPIRED; n += 1) await store.audit.insert(entry(old + n, n));
  await store.audit.insert(entry(Date.now(), EXPIRED));
  await store.close();
});
afterAll(async () => {
  await killSpawned();
  await fakes?.stop();
});

it('purges every expired entry, batch after batch, on the bulk-write worker, and keeps the rest', async () => {
  if (!fakes) throw new Error('the fakes did not start');
  const bot = await spawnBot({
    discord: fakes.discord,
    api: fakes.api,
    env: { DATABASE_URL: `sqlite:${path}`, AUDIT_RETENTION_DAYS: '1' },
  });
  const purged = await bot.waitForLog(logged('purged old audit entries'), 100_000);
  expect(purged.json.audit).toBe(EXPIRED);
  bot.kill('SIGTERM');
  expect((await bot.exitWithin(10_000)).code).toBe(0);
  expect(bot.output).not.toMatch(/worker failed|Worker|ERR_/);
  const database = new Database(path, { readonly: true });
  try {
    const rows = database.prepare('select target from audit').all() as { target: string }[];
    expect(rows.map((row) => row.target)).toEqual([`purge-${EXPIRED}.example`]);
  } finally {
    database.close();
  }
});
