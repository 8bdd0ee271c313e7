// The same behaviour, checked against both engines: a SQLite file and a real PostgreSQL server.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PURGE_BATCH } from '../../src/store/auditQueries.js';
import {
  type NewAuditEntry,
  type NewChange,
  openStore,
  type Store,
  TargetBusyError,
} from '../../src/store/index.js';
import { migrations } from '../../src/store/migrations/index.js';
import { captureLogs } from '../support/captureLogs.js';
import {
  at,
  newChange as change,
  STORE_ENGINES as engines,
  MINUTE,
  newId,
  T0,
} from '../support/storeEngines.js';

function auditEntry(overrides: Partial<NewAuditEntry> = {}): NewAuditEntry {
  return {
    at: at(0),
    userId: 'u1',
    userName: 'alice',
    guildId: 'g1',
    channelId: 'c1',
    command: 'domain',
    subcommand: 'info',
    target: 'example.com',
    outcome: 'ok',
    detail: null,
    correlationId: 'corr',
    durationMs: 12,
    parameters: null,
    changeId: null,
    ...overrides,
  };
}

describe.each(engines)('$engine store', ({ engine, freshUrl }) => {
  const opened: Store[] = [];
  /** A store on a database of its own, closed after the file's tests. */
  async function fresh(label: string, url?: string): Promise<Store> {
    const store = await openStore(url ?? (await freshUrl(label)));
    opened.push(store);
    return store;
  }
  afterAll(async () => {
    await Promise.all(opened.map((store) => store.close()));
  });

  let store: Store;
  beforeAll(async () => {
    store = await fresh('shared');
  });

  it('reports its engine', () => {
    expect(store.engine).toBe(engine);
  });

  it('re-opening an up-to-date database migrates nothing and keeps the data', async () => {
    const url = await freshUrl('reopen');
    const logs = captureLogs();
    const first = await openStore(url, { logger: logs.logger });
    const record = change();
    await first.changes.insert(record);
    await first.close();
    for (let i = 0; i < 2; i++) {
      const again = await openStore(url, { logger: logs.logger });
      expect((await again.changes.get(record.id))?.id).toBe(record.id);
      await again.close();
    }
    expect(logs.entries().map((entry) => [entry.msg, entry.engine, entry.migrations])).toEqual([
      ['store opened', engine, Object.keys(migrations(engine))],
      ['store opened', engine, []],
      ['store opened', engine, []],
    ]);
  });

  it('a database one migration behind is upgraded: the up-to-date check lets the Migrator run', async () => {
    const url = await freshUrl('behind');
    await (await openStore(url)).close();
    // As if the newest migration had not run yet (each is written to be safe to run again).
    const newest = Object.keys(migrations(engine)).at(-1) ?? '';
    const { Kysely, PostgresDialect, SqliteDialect, sql } = await import('kysely');
    const raw = new Kysely<unknown>({
      dialect:
        engine === 'sqlite'
          ? new SqliteDialect({
              database: new (await import('better-sqlite3')).default(url.slice('sqlite:'.length)),
            })
          : new PostgresDialect({ pool: new (await import('pg')).default.Pool({ connectionString: url }) }),
    });
    await sql`delete from kysely_migration where name = ${newest}`.execute(raw);
    await raw.destroy();
    const logs = captureLogs();
    await (await openStore(url, { logger: logs.logger })).close();
    await (await openStore(url, { logger: logs.logger })).close();
    expect(logs.entries().map((entry) => entry.migrations)).toEqual([[newest], []]);
  });

  describe('changes', () => {
    it('orphanSending: a sending change of a replica that is gone becomes unknown, once', async () => {
      const mine = change();
      const theirs = change();
      const legacy = change();
      for (const r of [mine, theirs, legacy]) await store.changes.insert(r);
      await store.changes.transition(mine.id, 'pending', 'sending', { replicaId: 'alive' });
      await store.changes.transition(theirs.id, 'pending', 'sending', { replicaId: 'dead' });
      await store.changes.transition(legacy.id, 'pending', 'sending');
      const orphaned = await store.changes.orphanSending(
        ['alive', 'other'],
        { reason: 'replica gone' },
        at(MINUTE),
      );
      expect(orphaned.map((r) => r.id).sort()).toEqual([theirs.id, legacy.id].sort());
      expect(orphaned.every((r) => r.state === 'unknown' && r.result?.reason === 'replica gone')).toBe(true);
      expect((await store.changes.get(mine.id))?.state).toBe('sending');
      expect((await store.changes.get(mine.id))?.replicaId).toBe('alive');
      expect(await store.changes.orphanSending(['alive'], {}, at(MINUTE))).toEqual([]);
    });

    it('replicas: heartbeats, the live set, removal', async () => {
      const started = at(0);
      await store.replicas.heartbeat(
        { replicaId: 'r1', role: 'bot', host: 'h1', pid: 11, startedAt: started },
        at(0),
      );
      await store.replicas.heartbeat(
        { replicaId: 'r2', role: 'console', host: 'h2', pid: 22, startedAt: at(1) },
        at(1),
      );
      await store.replicas.heartbeat(
        { replicaId: 'r1', role: 'bot', host: 'h1', pid: 11, startedAt: started },
        at(30_000),
      );
      expect((await store.replicas.live(at(10_000))).map((r) => r.replicaId)).toEqual(['r1']);
      expect((await store.replicas.live(at(0))).map((r) => [r.replicaId, r.role, r.host, r.pid])).toEqual([
        ['r1', 'bot', 'h1', 11],
        ['r2', 'console', 'h2', 22],
      ]);
      await store.replicas.remove('r1');
      await store.replicas.remove('r2');
      expect(await store.replicas.live(at(0))).toEqual([]);
    });

    it('replicas: heartbeats by the store clock and the lease judged by it, whatever the local clock says', async () => {
      const row = { replicaId: 'by-clock', role: 'bot' as const, host: 'h', pid: 1, startedAt: new Date() };
      // A heartbeat written by a replica whose clock is an hour behind still counts by the store's clock.
      await store.replicas.heartbeat({ ...row, replicaId: 'skewed' }, new Date(Date.now() - 3_600_000));
      await store.replicas.heartbeat(row);
      const live = await store.replicas.live({ withinMs: 15_000 });
      expect(live.map((r) => r.replicaId)).toEqual(['by-clock']);
      expect(Math.abs((live[0]?.heartbeatAt.getTime() ?? 0) - Date.now())).toBeLessThan(5_000);
      await store.replicas.remove('by-clock');
      await store.replicas.remove('skewed');
    });

    it('replicas: clock reads the clock heartbeats are written by', async () => {
      const row = { replicaId: 'clock-read', role: 'bot' as const, host: 'h', pid: 1, startedAt: new Date() };
      const before = await store.replicas.clock();
      await store.replicas.heartbeat(row);
      const after = await store.replicas.clock();
      const written = (await store.replicas.live(before)).find((r) => r.replicaId === 'clock-read');
      expect(written?.heartbeatAt.getTime()).toBeGreaterThanOrEqual(before.getTime());
      expect(written?.heartbeatAt.getTime()).toBeLessThanOrEqual(after.getTime());
      expect(Math.abs(before.getTime() - Date.now())).toBeLessThan(5_000);
      await store.replicas.remove('clock-read');
    });

    it('orphanSending with nobody alive orphans nothing (a caller always counts itself)', async () => {
      const sending = change({ state: 'sending' });
      await store.changes.insert(sending);
      await store.changes.transition(sending.id, 'sending', 'sending', { replicaId: 'someone' });
      expect(await store.changes.orphanSending([], {}, at(MINUTE))).toEqual([]);
      expect((await store.changes.get(sending.id))?.state).toBe('sending');
    });

    it('a finishing transition with heldBy is refused once another replica holds (or orphaned) the change', async () => {
      const sending = change({ state: 'sending' });
      await store.changes.insert(sending);
      await store.changes.transition(sending.id, 'sending', 'sending', { replicaId: 'owner' });
      expect(await store.changes.transition(sending.id, 'sending', 'done', {}, { heldBy: 'thief' })).toBe(
        false,
      );
      expect(await store.changes.transition(sending.id, 'sending', 'done', {}, { heldBy: 'owner' })).toBe(
        true,
      );
    });

    it('round-trips a change, JSON and times included', async () => {
      const record = change({
        parameters: { domain: 'bücher.example', nested: { list: [1, 'two', null, true] }, quote: `'"\\` },
        preview: ['a', { b: 1 }],
        guildId: null,
        channelId: null,
        target: null,
        createdAt: new Date(T0 + 123),
      });
      await store.changes.insert(record);
      expect(await store.changes.get(record.id)).toEqual({
        ...record,
        result: null,
        updatedAt: record.createdAt,
        replicaId: null,
        approval: null,
      });

      const withResult = change({ result: { ok: true }, preview: undefined });
      await store.changes.insert(withResult);
      const read = await store.changes.get(withResult.id);
      expect(read?.result).toEqual({ ok: true });
      expect(read?.preview).toBeNull();
    });

    it('get returns undefined for an unknown id', async () => {
      expect(await store.changes.get('no-such-change')).toBeUndefined();
    });

    it('a transition succeeds once; the same transition again is refused', async () => {
      const record = change();
      await store.changes.insert(record);
      const now = at(MINUTE);
      expect(
        await store.changes.transition(record.id, 'pending', 'sending', { preview: 'sending…' }, { now }),
      ).toBe(true);
      expect(await store.changes.transition(record.id, 'pending', 'sending')).toBe(false);
      expect(await store.changes.get(record.id)).toMatchObject({
        state: 'sending',
        updatedAt: now,
        preview: 'sending…',
      });

      const before = Date.now();
      expect(
        await store.changes.transition(record.id, ['sending', 'unknown'], 'done', {
          result: { registered: true },
          parameters: { domain: 'example.com' },
          expiresAt: at(5 * MINUTE),
        }),
      ).toBe(true);
      const read = await store.changes.get(record.id);
      expect(read).toMatchObject({
        createdAt: record.createdAt,
        state: 'done',
        preview: 'sending…',
        result: { registered: true },
        parameters: { domain: 'example.com' },
        expiresAt: at(5 * MINUTE),
        requestedByName: 'alice',
        locale: 'en',
      });
      // Without `now`, updatedAt is the current time.
      expect(read?.updatedAt.getTime()).toBeGreaterThanOrEqual(before);
      expect(read?.updatedAt.getTime()).toBeLessThanOrEqual(Date.now());

      expect(await store.changes.transition(record.id, 'done', 'failed', { result: null })).toBe(true);
      expect((await store.changes.get(record.id))?.result).toBeNull();
      expect(await store.changes.transition('no-such-change', 'pending', 'sending')).toBe(false);
      expect(await store.changes.transition(record.id, [], 'sending')).toBe(false);
    });

    it('of 20 concurrent identical transitions exactly one succeeds', async () => {
      const record = change();
      await store.changes.insert(record);
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, () => store.changes.transition(record.id, 'pending', 'sending')),
      );
      expect(outcomes.filter(Boolean)).toHaveLength(1);
    });

    it('one change of a serial key is sending at a time: of concurrent claims of different changes, one wins, the others are told it is busy', async () => {
      const key = 'submitDnsRecords serial.example';
      const records = Array.from({ length: 10 }, () => change({ target: 'serial.example' }));
      for (const record of records) await store.changes.insert(record);
      const claim = (id: string) =>
        store.changes.transition(id, 'pending', 'sending', { serialKey: key }).then(
          (moved) => (moved ? 'claimed' : 'closed'),
          (error: unknown) => (error instanceof TargetBusyError ? 'busy' : Promise.reject(error)),
        );
      const outcomes = await Promise.all(records.map((record) => claim(record.id)));
      expect(outcomes.filter((outcome) => outcome === 'claimed')).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome === 'busy')).toHaveLength(9);
      const winner = records[outcomes.indexOf('claimed')]?.id ?? '';
      const loser = records.find((record) => record.id !== winner)?.id ?? '';
      // Refused changes nothing; another key, or none, is not held up.
      expect((await store.changes.get(loser))?.state).toBe('pending');
      const other = change();
      await store.changes.insert(other);
      expect(await store.changes.transition(other.id, 'pending', 'sending', { serialKey: 'other' })).toBe(
        true,
      );
      const unkeyed = change();
      await store.changes.insert(unkeyed);
      expect(await store.changes.transition(unkeyed.id, 'pending', 'sending')).toBe(true);
      // Once the winner has left `sending`, the next one may go.
      expect(await store.changes.transition(winner, 'sending', 'done')).toBe(true);
      expect(await claim(loser)).toBe('claimed');
      expect(await claim(winner)).toBe('closed');
    });

    it('refuses a transition once the change has expired', async () => {
      const record = change({ expiresAt: at(2 * MINUTE) });
      await store.changes.insert(record);
      const confirm = (when: Date) =>
        store.changes.transition(record.id, 'pending', 'sending', {}, { now: when, notExpiredAt: when });
      expect(await confirm(at(2 * MINUTE))).toBe(false);
      expect(await confirm(at(3 * MINUTE))).toBe(false);
      expect((await store.changes.get(record.id))?.state).toBe('pending');
      expect(await confirm(at(2 * MINUTE - 1))).toBe(true);
    });

    it('listByState lists the given states, oldest first, up to the limit', async () => {
      const own = await fresh('list');
      const records = [
        change({ state: 'sending', createdAt: at(3) }),
        change({ state: 'unknown', createdAt: at(1) }),
        change({ state: 'done', createdAt: at(0) }),
        change({ state: 'sending', createdAt: at(2) }),
      ];
      for (const record of records) await own.changes.insert(record);
      const ids = async (limit?: number) =>
        (await own.changes.listByState(['sending', 'unknown'], limit)).map((r) => r.id);
      expect(await ids()).toEqual([records[1]?.id, records[3]?.id, records[0]?.id]);
      expect(await ids(2)).toEqual([records[1]?.id, records[3]?.id]);
      expect(await own.changes.listByState([])).toEqual([]);
    });
    it('due: every change in the given states whose deadline has come, deadline order, page by page', async () => {
      const own = await fresh('due');
      // Letters only, so the id order is the same in JS as in any collation PostgreSQL may have.
      const named = (id: string, overrides: Partial<NewChange>) => change({ id, ...overrides });
      const dueOnes = [
        named('dueb', { state: 'awaiting_approval', expiresAt: at(1) }),
        // Equal deadlines: a page may end between them, and the next one must go on from its id.
        named('duee', { expiresAt: at(2) }),
        named('duec', { expiresAt: at(2) }),
        named('dued', { state: 'awaiting_approval', expiresAt: at(2) }),
        named('duea', { expiresAt: at(3) }),
      ];
      const others = [
        named('laterb', { expiresAt: at(11) }),
        named('latera', { state: 'awaiting_approval', expiresAt: at(7 * 24 * 60 * MINUTE) }),
        named('sendingz', { state: 'sending', expiresAt: at(0) }),
        named('expiredz', { state: 'expired', expiresAt: at(0) }),
      ];
      // Inserted newest deadline first, so neither insertion nor creation order is the answer.
      for (const record of [...others, ...dueOnes].reverse()) await own.changes.insert(record);
      const expected = ['dueb', 'duec', 'dued', 'duee', 'duea'];
      const states = ['pending', 'awaiting_approval'] as const;
      for (const limit of [1, 2, 3, 4, 5, 6]) {
        const read: string[] = [];
        let after: { expiresAt: Date; id: string } | undefined;
        for (let pages = 0; pages < 10; pages++) {
          const page = await own.changes.due(states, { limit, now: at(10), ...(after && { after }) });
          read.push(...page.map((record) => record.id));
          after = page.at(-1);
          if (page.length < limit) break;
        }
        expect(read, `pages of ${limit}`).toEqual(expected);
      }
      // A deadline exactly now is due; one a millisecond later is not.
      expect((await own.changes.due(states, { limit: 10, now: at(11) })).map((r) => r.id)).toContain(
        'laterb',
      );
      expect((await own.changes.due(states, { limit: 10, now: at(10) })).map((r) => r.id)).not.toContain(
        'laterb',
      );
      expect(await own.changes.due([], { limit: 10, now: at(10) })).toEqual([]);
    });

    describe('by the store clock, whatever this process’s clock says', () => {
      afterEach(() => {
        vi.useRealTimers();
      });
      /** This process's clock set off by `offsetMs` (Date only: timers and the database's clock run on). */
      const skewLocalClock = (offsetMs: number) => {
        const real = Date.now();
        vi.useFakeTimers({ toFake: ['Date'], now: real + offsetMs });
      };

      it('due: judged by the store clock unless told the time', async () => {
        const own = await fresh('due-clock');
        const overdue = change({ expiresAt: new Date(Date.now() - MINUTE) });
        const open = change({ expiresAt: new Date(Date.now() + 10 * MINUTE) });
        for (const record of [overdue, open]) await own.changes.insert(record);
        skewLocalClock(60 * MINUTE);
        expect((await own.changes.due(['pending'], { limit: 10 })).map((r) => r.id)).toEqual([overdue.id]);
        skewLocalClock(-60 * MINUTE);
        expect((await own.changes.due(['pending'], { limit: 10 })).map((r) => r.id)).toEqual([overdue.id]);
      });

      it('forms: open for their time by the store clock, whoever opens, takes or purges them', async () => {
        const own = await fresh('forms-clock');
        const form = { ownerId: 'u1', command: '/domain dns', state: { n: 1 }, correlationId: 'f' };
        // Opened where the clock is 10 minutes behind, for 14 minutes.
        skewLocalClock(-10 * MINUTE);
        await own.forms.open({ ...form, id: 'open', openForMs: 14 * MINUTE });
        await own.forms.open({ ...form, id: 'closed', openForMs: -1 });
        await own.forms.open({ ...form, id: 'other', openForMs: 14 * MINUTE });
        // Purged and taken where it is 20 minutes ahead: by the store's clock it opened just now.
        skewLocalClock(20 * MINUTE);
        expect(await own.forms.purgeExpired()).toBe(1);
        expect(await own.forms.take('closed', 'u1')).toBeUndefined();
        expect(await own.forms.take('open', 'someone else')).toBeUndefined();
        const taken = await own.forms.take('open', 'u1');
        expect(taken).toMatchObject({ id: 'open', ownerId: 'u1', state: { n: 1 }, correlationId: 'f' });
        vi.useRealTimers();
        const leftMs = (taken?.expiresAt.getTime() ?? 0) - Date.now();
        expect(leftMs).toBeGreaterThan(13 * MINUTE);
        expect(leftMs).toBeLessThanOrEqual(14 * MINUTE);
        // Once: a second submit finds it gone.
        expect(await own.forms.take('open', 'u1')).toBeUndefined();
        expect(await own.forms.take('other', 'u1')).toBeDefined();
      });

      it("forms: peek shows its owner an open form and leaves it open (Edit); never a closed one or another's", async () => {
        const own = await fresh('forms-peek');
        const form = { ownerId: 'u1', command: '/musicbot create', correlationId: 'p' };
        await own.forms.open({
          ...form,
          id: 'open',
          state: { typed: { email: 'a@@b' } },
          openForMs: 14 * MINUTE,
        });
        await own.forms.open({ ...form, id: 'closed', state: {}, openForMs: -1 });
        expect(await own.forms.peek('open', 'someone else')).toBeUndefined();
        expect(await own.forms.peek('closed', 'u1')).toBeUndefined();
        expect(await own.forms.peek('missing', 'u1')).toBeUndefined();
        const seen = await own.forms.peek('open', 'u1');
        expect(seen).toMatchObject({ id: 'open', ownerId: 'u1', state: { typed: { email: 'a@@b' } } });
        expect(seen?.expiresAt.getTime()).toBeGreaterThan(Date.now());
        // Still there for the submit, once.
        expect(await own.forms.peek('open', 'u1')).toEqual(seen);
        expect(await own.forms.take('open', 'u1')).toEqual(seen);
        expect(await own.forms.peek('open', 'u1')).toBeUndefined();
      });
    });
  });

  describe('audit', () => {
    let audit: Store['audit'];
    const ids: number[] = [];
    const fixtures = [
      auditEntry({ at: at(0), userId: 'u1', command: 'domain', subcommand: 'info', target: 'Example.com' }),
      auditEntry({
        at: at(1000),
        userId: 'u2',
        command: 'domain',
        subcommand: 'register',
        target: 'shop.example.org',
        outcome: 'failed',
        detail: 'provider error',
        durationMs: null,
        parameters: { domain: 'shop.example.org' },
        changeId: 'chg1',
      }),
      auditEntry({
        at: at(2000),
        userId: 'u1',
        command: 'server',
        subcommand: 'logs',
        target: null,
        guildId: null,
        channelId: null,
      }),
      auditEntry({ at: at(2000), userId: 'u1', command: 'help', subcommand: '', target: '100%_sure\\path' }),
      auditEntry({ at: at(3000), userId: 'u2', command: 'domain', subcommand: 'info', target: '100x sure' }),
    ];

    beforeAll(async () => {
      audit = (await fresh('audit')).audit;
      for (const entry of fixtures) ids.push(await audit.insert(entry));
    });

    const query = (filter: Parameters<Store['audit']['query']>[0], limit = 50, offset = 0) =>
      audit.query(filter, { limit, offset });
    const idsOf = async (filter: Parameters<Store['audit']['query']>[0]) =>
      (await query(filter)).rows.map((row) => row.id);

    it('returns increasing ids and round-trips every field', async () => {
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(new Set(ids).size).toBe(ids.length);
      const { rows } = await query({ userId: 'u2', subcommand: 'register' });
      expect(rows).toEqual([{ actedById: null, actedByName: null, ...fixtures[1], id: ids[1] }]);
    });

    it('lists newest first (at desc, then id desc) with the total', async () => {
      const all = await query({});
      expect(all.total).toBe(5);
      expect(all.rows.map((row) => row.id)).toEqual([ids[4], ids[3], ids[2], ids[1], ids[0]]);
    });

    it('filters by each field', async () => {
      expect(await idsOf({ userId: 'u2' })).toEqual([ids[4], ids[1]]);
      expect(await idsOf({ command: 'domain' })).toEqual([ids[4], ids[1], ids[0]]);
      expect(await idsOf({ subcommand: 'info' })).toEqual([ids[4], ids[0]]);
      expect(await idsOf({ subcommand: '' })).toEqual([ids[3]]);
      expect(await idsOf({ outcome: 'failed' })).toEqual([ids[1]]);
      expect(await idsOf({ since: at(2000) })).toEqual([ids[4], ids[3], ids[2]]);
      expect(await idsOf({ target: 'EXAMPLE' })).toEqual([ids[1], ids[0]]);
      expect(await idsOf({ target: 'example.COM' })).toEqual([ids[0]]);
    });

    it('combines filters', async () => {
      expect(await idsOf({ userId: 'u1', command: 'domain', since: at(0), target: 'example' })).toEqual([
        ids[0],
      ]);
      expect(await idsOf({ userId: 'u2', subcommand: 'info', outcome: 'ok' })).toEqual([ids[4]]);
      expect(await idsOf({ userId: 'u2', outcome: 'ok', since: at(3001) })).toEqual([]);
    });

    it('treats %, _ and \\ in the target filter literally', async () => {
      expect(await idsOf({ target: '%' })).toEqual([ids[3]]);
      expect(await idsOf({ target: '0%_s' })).toEqual([ids[3]]);
      expect(await idsOf({ target: '_' })).toEqual([ids[3]]);
      expect(await idsOf({ target: '\\' })).toEqual([ids[3]]);
      expect(await idsOf({ target: '\\p' })).toEqual([ids[3]]);
      expect(await idsOf({ target: '100_' })).toEqual([]);
    });

    it('pages through the matches, the total unchanged', async () => {
      const pages = await Promise.all([0, 2, 4, 6].map((offset) => query({}, 2, offset)));
      expect(pages.map((page) => page.total)).toEqual([5, 5, 5, 5]);
      expect(pages.map((page) => page.rows.map((row) => row.id))).toEqual([
        [ids[4], ids[3]],
        [ids[2], ids[1]],
        [ids[0]],
        [],
      ]);
      expect(await query({ userId: 'u1' }, 1, 1)).toMatchObject({ total: 3, rows: [{ id: ids[2] }] });
    });

    it('reads the chunks of an export: after a given entry, by id within one instant, no count', async () => {
      const chunk = async (filter: Parameters<Store['audit']['rows']>[0], limit: number) =>
        (await audit.rows(filter, limit)).map((row) => row.id);
      expect(await chunk({}, 2)).toEqual([ids[4], ids[3]]);
      // ids[2] and ids[3] share an instant.
      expect(await chunk({ before: { at: at(2000), id: ids[3] as number } }, 2)).toEqual([ids[2], ids[1]]);
      expect(await chunk({ before: { at: at(2000), id: ids[2] as number } }, 5)).toEqual([ids[1], ids[0]]);
      expect(await chunk({ userId: 'u1', before: { at: at(2000), id: ids[3] as number } }, 5)).toEqual([
        ids[2],
        ids[0],
      ]);
      expect(await chunk({ before: { at: at(0), id: ids[0] as number } }, 5)).toEqual([]);
    });

    describe('search: /audit’s page from either end and its count up to a cap', () => {
      // 25 entries of one user, one a second apart (two sharing an instant), newest first in `all`.
      let own: Store['audit'];
      const all: number[] = [];
      const filter = { userId: 'pager' };
      const search = (page: Partial<Parameters<Store['audit']['search']>[1]>) =>
        own.search(filter, { limit: 10, offset: 0, from: 'newest', countUpTo: 100, ...page });
      const idsOf = (rows: { id: number }[]) => rows.map((row) => row.id);

      beforeAll(async () => {
        own = (await fresh('audit-search')).audit;
        const made: number[] = [];
        for (let n = 0; n < 25; n++) {
          made.push(await own.insert(auditEntry({ at: at(n === 13 ? 12_000 : n * 1000), userId: 'pager' })));
        }
        // Newest first: at desc, then id desc.
        all.push(...made.reverse());
        all.splice(11, 2, Math.max(all[11] ?? 0, all[12] ?? 0), Math.min(all[11] ?? 0, all[12] ?? 0));
        await own.insert(auditEntry({ userId: 'other' }));
      });

      it('counts exactly up to the cap, and flags "more than" past it', async () => {
        expect(await search({})).toMatchObject({ total: 25, capped: false, more: true });
        expect(await search({ countUpTo: 25 })).toMatchObject({ total: 25, capped: false });
        expect(await search({ countUpTo: 24 })).toMatchObject({ total: 24, capped: true });
        expect(await search({ countUpTo: 5 })).toMatchObject({ total: 5, capped: true });
        const first = await search({ countUpTo: 5 });
        expect(idsOf(first.rows)).toEqual(all.slice(0, 10));
      });

      it('pages from the newest end, telling whether older ones are left, capped or not', async () => {
        for (const countUpTo of [100, 5]) {
          const pages = await Promise.all([0, 10, 20].map((offset) => search({ offset, countUpTo })));
          expect(pages.map((page) => idsOf(page.rows))).toEqual([
            all.slice(0, 10),
            all.slice(10, 20),
            all.slice(20),
          ]);
          expect(pages.map((page) => page.more)).toEqual([true, true, false]);
          expect(await search({ offset: 30, countUpTo })).toMatchObject({ rows: [], more: false });
          expect(await search({ offset: 15, limit: 10, countUpTo })).toMatchObject({ more: false });
          expect(await search({ offset: 14, limit: 10, countUpTo })).toMatchObject({ more: true });
        }
      });

      it('pages from the oldest end: the oldest page is the last entries in time order, capped or not', async () => {
        for (const countUpTo of [100, 5]) {
          const oldest = await search({ from: 'oldest', countUpTo });
          // Shown newest first, like every page.
          expect(idsOf(oldest.rows)).toEqual(all.slice(15));
          expect(oldest.more).toBe(true);
          const next = await search({ from: 'oldest', offset: 10, countUpTo });
          expect(idsOf(next.rows)).toEqual(all.slice(5, 15));
          expect(next.more).toBe(true);
          const newest = await search({ from: 'oldest', offset: 20, countUpTo });
          expect(idsOf(newest.rows)).toEqual(all.slice(0, 5));
          expect(newest.more).toBe(false);
          expect(await search({ from: 'oldest', offset: 25, countUpTo })).toMatchObject({
            rows: [],
            more: false,
          });
          expect(await search({ from: 'oldest', offset: 15, countUpTo })).toMatchObject({ more: false });
        }
      });

      it('finds a whole target, case-insensitively, with %, _ and \\ as themselves', async () => {
        const short = (await fresh('audit-whole')).audit;
        const made: Record<string, number> = {};
        for (const target of ['al', 'AL', 'al2', 'pal', '%', '_', 'a_', '\\', null]) {
          made[String(target)] = await short.insert(auditEntry({ target }));
        }
        const whole = async (targetExact: string) =>
          idsOf(
            (await short.search({ targetExact }, { limit: 10, offset: 0, from: 'newest', countUpTo: 10 }))
              .rows,
          ).sort((a, b) => a - b);
        expect(await whole('al')).toEqual([made.al, made.AL]);
        expect(await whole('Al')).toEqual([made.al, made.AL]);
        expect(await whole('%')).toEqual([made['%']]);
        expect(await whole('_')).toEqual([made._]);
        expect(await whole('a_')).toEqual([made.a_]);
        expect(await whole('\\')).toEqual([made['\\']]);
        expect(await whole('x')).toEqual([]);
      });
    });

    it('purges entries strictly older than the cutoff', async () => {
      const own = (await fresh('audit-purge')).audit;
      for (const offset of [0, 1000, 2000]) await own.insert(auditEntry({ at: at(offset) }));
      expect(await own.purgeOlderThan(at(1000))).toBe(1);
      expect(await own.purgeOlderThan(at(1000))).toBe(0);
      expect((await own.query({}, { limit: 10, offset: 0 })).total).toBe(2);
    });

    it('purges past one batch (on SQLite on the bulk-write worker) and keeps what is newer', async () => {
      const own = (await fresh('audit-purge-batches')).audit;
      const expired = PURGE_BATCH * 2 + 7;
      for (let i = 0; i < expired; i += 1) await own.insert(auditEntry({ at: at(i) }));
      await own.insert(auditEntry({ at: at(expired + 1000) }));
      expect(await own.purgeOlderThan(at(expired))).toBe(expired);
      expect((await own.query({}, { limit: 10, offset: 0 })).total).toBe(1);
      // 60 s, as historyIndexes' purge case: the rests between batches scale with each batch's time, and a
      // bulk-write worker's start on a loaded machine (four test files on two cores) passed 20 s once in CI.
    }, 120_000);
  });

  describe('claims', () => {
    it('one of two claims of the same interaction wins', async () => {
      const id = newId();
      expect(await store.claims.claimInteraction(id, 'replica-a', at(0))).toBe(true);
      expect(await store.claims.claimInteraction(id, 'replica-b', at(0))).toBe(false);
      expect(await store.claims.claimInteraction(newId(), 'replica-b', at(0))).toBe(true);
    });

    it('of 10 concurrent claims exactly one wins', async () => {
      const id = newId();
      const interactions = await Promise.all(
        Array.from({ length: 10 }, (_, i) => store.claims.claimInteraction(id, `replica-${i}`, at(0))),
      );
      const runs = await Promise.all(
        Array.from({ length: 10 }, (_, i) => store.claims.claimJobRun('expire', id, `replica-${i}`, at(0))),
      );
      expect(interactions.filter(Boolean)).toHaveLength(1);
      expect(runs.filter(Boolean)).toHaveLength(1);
    });

    it('claims a job run once per (job, slot)', async () => {
      const slot = newId();
      expect(await store.claims.claimJobRun('purge', slot, 'replica-a', at(0))).toBe(true);
      expect(await store.claims.claimJobRun('purge', slot, 'replica-b', at(0))).toBe(false);
      expect(await store.claims.claimJobRun('expire', slot, 'replica-b', at(0))).toBe(true);
      expect(await store.claims.claimJobRun('purge', `${slot}-next`, 'replica-b', at(0))).toBe(true);
    });

    it('purges claims strictly older than the cutoff', async () => {
      const own = (await fresh('claims-purge')).claims;
      await own.claimInteraction('old', 'r', at(0));
      await own.claimInteraction('new', 'r', at(MINUTE));
      await own.claimJobRun('job', 'old', 'r', at(0));
      await own.claimJobRun('job', 'new', 'r', at(MINUTE));
      expect(await own.purgeOlderThan(at(MINUTE))).toBe(2);
      expect(await own.claimInteraction('old', 'r', at(2 * MINUTE))).toBe(true);
      expect(await own.claimInteraction('new', 'r', at(2 * MINUTE))).toBe(false);
      expect(await own.claimJobRun('job', 'old', 'r', at(2 * MINUTE))).toBe(true);
    });
  });

  describe.runIf(engine === 'postgres')('across replicas', () => {
    it('two stores (two pools) racing on one change: exactly one transition succeeds', async () => {
      const url = await freshUrl('replicas');
      // Both migrate the new database at once, as replicas starting together do.
      const [a, b] = await Promise.all([fresh('', url), fresh('', url)]);
      for (let round = 0; round < 3; round++) {
        const record = change();
        await a.changes.insert(record);
        const outcomes = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            (i % 2 === 0 ? a : b).changes.transition(
              record.id,
              'pending',
              'sending',
              {},
              { notExpiredAt: at(0) },
            ),
          ),
        );
        expect(outcomes.filter(Boolean)).toHaveLength(1);
      }
    });

    it('two stores claiming different changes of one serial key at once: one is sending, the other is busy', async () => {
      const url = await freshUrl('serial_replicas');
      const [a, b] = await Promise.all([fresh('', url), fresh('', url)]);
      for (let round = 0; round < 3; round++) {
        const key = `submitDnsRecords round-${round}.example`;
        const records = Array.from({ length: 6 }, () => change());
        for (const record of records) await a.changes.insert(record);
        const outcomes = await Promise.all(
          records.map((record, i) =>
            (i % 2 === 0 ? a : b).changes
              .transition(record.id, 'pending', 'sending', { serialKey: key })
              .then(
                (moved) => moved,
                (error: unknown) => (error instanceof TargetBusyError ? 'busy' : Promise.reject(error)),
              ),
          ),
        );
        expect(outcomes.filter((outcome) => outcome === true)).toHaveLength(1);
        expect(outcomes.filter((outcome) => outcome === 'busy')).toHaveLength(5);
      }
    });
  });
});
