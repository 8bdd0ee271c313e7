import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { Housekeeping } from '../../src/audit/Housekeeping.js';
import { type NewAuditEntry, openStore, type Store } from '../../src/store/index.js';
import { captureLogs } from '../support/captureLogs.js';
import { createDatabase } from '../support/startPostgres.js';

const DAY = 24 * 60 * 60 * 1000;
const NOW = new Date('2030-06-15T03:00:00Z');
const tmp = mkdtempSync(join(tmpdir(), 'hostops-housekeeping-'));
const stores: Store[] = [];
let sqlite: Store;
let postgres: Store;

beforeAll(async () => {
  sqlite = await openStore(`sqlite:${join(tmp, 'h.db')}`);
  postgres = await openStore(await createDatabase(inject('postgresUrl'), 'housekeeping'));
  stores.push(sqlite, postgres);
});
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  rmSync(tmp, { recursive: true, force: true });
});

function entry(daysAgo: number): NewAuditEntry {
  return {
    at: new Date(NOW.getTime() - daysAgo * DAY),
    userId: 'u1',
    userName: 'alice',
    guildId: 'g1',
    channelId: 'c1',
    command: 'domain',
    subcommand: 'info',
    target: `d${daysAgo}.example`,
    outcome: 'ok',
    detail: null,
    correlationId: `c${daysAgo}`,
    durationMs: 5,
    parameters: null,
    changeId: null,
  };
}

for (const engine of ['sqlite', 'postgres'] as const) {
  it(`${engine}: purges entries past the retention once a day, whichever replica gets there first`, async () => {
    const store = engine === 'sqlite' ? sqlite : postgres;
    for (const daysAgo of [0, 10, 399, 401, 1000]) await store.audit.insert(entry(daysAgo));
    // A form nobody submitted (closed modal) and one still open.
    const form = { ownerId: 'u1', command: '/domain dns', state: {}, correlationId: 'f' };
    await store.forms.open({ ...form, id: `${engine}-stale`, openForMs: -1000 });
    await store.forms.open({ ...form, id: `${engine}-open`, openForMs: DAY * 2 });
    const { logger } = captureLogs();
    const a = new Housekeeping(store, 400, 'replica-a', logger);
    const b = new Housekeeping(store, 400, 'replica-b', logger);
    const [first, second] = await Promise.all([a.run(NOW), b.run(NOW)]);
    a.stop();
    b.stop();
    // One of the two did the day's purge; the other found the day claimed.
    expect([first, second].filter(Boolean)).toEqual([{ audit: 2, claims: 0, forms: 1 }]);
    expect(await store.forms.take(`${engine}-open`, 'u1')).toBeDefined();
    const { rows } = await store.audit.query({}, { limit: 10, offset: 0 });
    expect(rows.map((r) => r.target).sort()).toEqual(['d0.example', 'd10.example', 'd399.example']);
    // The next day runs again.
    const next = new Housekeeping(store, 5, 'replica-a', logger);
    expect(await next.run(new Date(NOW.getTime() + DAY))).toEqual({ audit: 2, claims: 0, forms: 0 });
    next.stop();
  });
}
