// What an audit row owes Discord (migration 0020), on both engines: owed with the change's end, taken for
// a lease by one caller at a time, taken again once the lease ran out (a taker that died, a post that
// failed), counted, and gone only once done.
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { type NewAuditEntry, openStore, type Store } from '../../src/store/index.js';
import { newChange as change, STORE_ENGINES as engines, rawDatabase } from '../support/storeEngines.js';

const entry = (changeId: string, outcome: string): NewAuditEntry => ({
  at: new Date(),
  userId: 'u1',
  userName: 'alice',
  guildId: 'g1',
  channelId: 'c1',
  command: 'domain',
  subcommand: 'dns',
  target: 'example.com',
  outcome,
  detail: null,
  correlationId: `corr-${changeId}`,
  durationMs: 12,
  parameters: null,
  changeId,
});

describe.each(engines)('$engine: owed posts', ({ freshUrl }) => {
  async function ended(store: Store, kinds: ('line' | 'notice')[], dueInMs: number) {
    const record = change({ expiresAt: new Date(Date.now() + 60_000) });
    await store.changes.insert(record);
    await store.changes.transition(record.id, 'pending', 'sending', { replicaId: 'r1' });
    const from = new Date((await store.replicas.clock()).getTime() + dueInMs);
    const settled = await store.changes.transition(
      record.id,
      'sending',
      'done',
      {},
      { audit: { entry: entry(record.id, 'done'), owes: { kinds, from } } },
    );
    expect(settled).toBe(true);
    return record.id;
  }

  it('the settling replica takes its end’s posts once; the sweep only once they are due, then after each lease', async () => {
    const store = await openStore(await freshUrl('owed-posts'));
    try {
      const id = await ended(store, ['line', 'notice'], 60_000);
      // Not due yet: the sweep takes nothing; the settler takes both, and only once.
      expect(await store.audit.takePosts({ due: 10 }, 60_000)).toEqual([]);
      const first = await store.audit.takePosts({ changeId: id, outcome: 'done' }, 1_000);
      expect(first.map((p) => [p.kind, p.attempts, p.entry.changeId]).sort()).toEqual([
        ['line', 1, id],
        ['notice', 1, id],
      ]);
      expect(await store.audit.takePosts({ changeId: id, outcome: 'done' }, 60_000)).toEqual([]);
      // Leased: not due for a sweep until the lease has run out.
      expect(await store.audit.takePosts({ due: 10 }, 60_000)).toEqual([]);
      // The line is posted; the notice's post failed and its lease (here none) ran out: a sweep retakes it.
      const line = first.find((p) => p.kind === 'line');
      expect(await store.audit.postDone(line?.entry.id ?? 0, 'line')).toBe(true);
      expect(await store.audit.postDone(line?.entry.id ?? 0, 'line')).toBe(false);
      const notice = first.find((p) => p.kind === 'notice');
      await sleep(1_100);
      expect((await store.audit.takePosts({ due: 10 }, -1)).map((p) => p.attempts)).toEqual([2]);
      const retaken = await store.audit.takePosts({ due: 10 }, 60_000);
      expect(retaken.map((p) => [p.kind, p.attempts, p.entry.id])).toEqual([['notice', 3, notice?.entry.id]]);
      // Two sweeps at once: one of them holds it.
      expect(await store.audit.takePosts({ due: 10 }, 60_000)).toEqual([]);
      expect(await store.audit.postDone(notice?.entry.id ?? 0, 'notice')).toBe(true);
      expect(await store.audit.takePosts({ due: 10 }, -60_000)).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('concurrent takes of the same due posts: each post goes to exactly one taker', async () => {
    const store = await openStore(await freshUrl('owed-posts-race'));
    try {
      const ids = await Promise.all([0, 1, 2, 3, 4].map(() => ended(store, ['line'], -1_000)));
      const takes = await Promise.all([0, 1, 2, 3].map(() => store.audit.takePosts({ due: 10 }, 60_000)));
      const taken = takes.flat().map((p) => p.entry.changeId);
      expect(taken.sort()).toEqual([...ids].sort());
    } finally {
      await store.close();
    }
  });

  it('migration 0020: a line 0019 still owed (audit.announce_due_at) becomes an owed post, once', async () => {
    const url = await freshUrl('owed-posts-0019');
    let store = await openStore(url);
    const id = await store.audit.insert(entry('legacy', 'done'));
    await store.close();
    const raw = await rawDatabase(url);
    await sql`update audit set announce_due_at = 1 where id = ${id}`.execute(raw);
    // A database as 0019 left it: 0020 and every later migration not applied yet (openStore takes a
    // database whose newest applied migration is the newest it knows as up to date).
    await sql`delete from kysely_migration where name >= '0020_owed_posts'`.execute(raw);
    await raw.destroy();
    store = await openStore(url);
    try {
      const taken = await store.audit.takePosts({ due: 10 }, 60_000);
      expect(taken.map((p) => [p.kind, p.attempts, p.entry.id])).toEqual([['line', 1, id]]);
    } finally {
      await store.close();
    }
  });
});
