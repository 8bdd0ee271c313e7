// Issue 49, one clock: audit rows are stamped with the store's clock (StoreClock), as change records,
// claims and deadlines are — never the local one — so rows of replicas whose clocks disagree are ordered
// and purged alike. A bot whose store's clock runs 10 minutes ahead of its own (the store read through a
// wrapper that adds them): a read's row, a change's end (written in the transaction of the end) and a
// confirmed change's row all carry the store's time. On both engines.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { CallbackType, callbackOf, confirmAndWait, idle, openPrompt, press } from '../support/e2eHelpers.js';
import { createDatabase } from '../support/startPostgres.js';
import { startTestBot, type TestBot } from '../support/startTestBot.js';

const AHEAD_MS = 10 * 60_000;

/** The real store, whose clock reads AHEAD_MS later than the store's own. */
function storeAhead(store: Store): Store {
  return {
    ...store,
    close: () => store.close(),
    importRows: store.importRows.bind(store),
    replicas: {
      ...store.replicas,
      clock: async () => new Date((await store.replicas.clock()).getTime() + AHEAD_MS),
    },
  };
}

const engines = [
  { engine: 'sqlite', env: async () => ({}) },
  {
    engine: 'postgres',
    env: async () => ({ DATABASE_URL: await createDatabase(inject('postgresUrl'), 'audit_clock') }),
  },
] as const;

const dns = (domain: string) => ({
  commandName: 'domain',
  subcommand: 'dns',
  options: { domain, records: 'www 3600 A 203.0.113.7' },
});

describe.each(engines)('$engine: audit rows on the store’s clock', ({ env }) => {
  let t: TestBot;
  beforeAll(async () => {
    t = await startTestBot(await env(), {}, { wrapStore: storeAhead });
  });
  afterAll(() => t.stop());

  it('a read, a cancelled change and a confirmed one are stamped with the store’s time, not the local one', async () => {
    const localBefore = Date.now();
    const read = t.command({
      commandName: 'domain',
      subcommand: 'info',
      options: { domain: 'clock.example' },
    });
    await t.nth(read, 1);
    const cancelled = await openPrompt(t, dns('cancelled-clock.example'));
    expect((await callbackOf(t, press(t, cancelled, 'cancel'))).type).toBe(CallbackType.update);
    await confirmAndWait(t, await openPrompt(t, dns('confirmed-clock.example')));
    await idle(t);
    const localAfter = Date.now();

    const { rows } = await t.bot.store.audit.query({}, { limit: 50, offset: 0 });
    const byTarget = (target: string) => rows.filter((row) => row.target === target);
    const stamped = [
      ...byTarget('clock.example'),
      ...byTarget('cancelled-clock.example'),
      ...byTarget('confirmed-clock.example'),
    ];
    expect(stamped.map((row) => [row.target, row.outcome])).toEqual(
      expect.arrayContaining([
        ['clock.example', 'ok'],
        ['cancelled-clock.example', 'cancelled'],
        ['confirmed-clock.example', 'done'],
      ]),
    );
    for (const row of stamped) {
      // The store's time: 10 minutes past the local clock (a second's allowance for the clock's reading).
      expect(row.at.getTime(), `${row.target} ${row.outcome}`).toBeGreaterThanOrEqual(
        localBefore + AHEAD_MS - 1_000,
      );
      expect(row.at.getTime(), `${row.target} ${row.outcome}`).toBeLessThanOrEqual(
        localAfter + AHEAD_MS + 1_000,
      );
    }
    // The change records' own stamps are on the same clock: a row is never older than its change.
    const changes = await t.bot.store.changes.listByState(['done', 'cancelled']);
    for (const change of changes) {
      const row = rows.find((r) => r.changeId === change.id);
      expect(row?.at.getTime()).toBeGreaterThanOrEqual(change.createdAt.getTime());
    }
  });
});
