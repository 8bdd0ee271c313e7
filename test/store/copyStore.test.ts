// `npm run migrate-store`'s logic: a SQLite store copied into a real PostgreSQL database, row for row.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { maskSecret } from '../../src/changes/maskSecret.js';
import { CopyStoreError, copyStore } from '../../src/store/copyStore.js';
import {
  type ChangeState,
  type NewAuditEntry,
  type NewChange,
  openStore,
  type Store,
} from '../../src/store/index.js';
import { createDatabase } from '../support/startPostgres.js';
import { at, newChange as change, MINUTE, newId } from '../support/storeEngines.js';

const tmp = mkdtempSync(join(tmpdir(), 'hostops-copy-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let files = 0;
const sqliteUrl = () => `sqlite:${join(tmp, `source-${++files}.db`)}`;
const postgresUrl = (label: string) => createDatabase(inject('postgresUrl'), label);

const ALL_STATES: ChangeState[] = [
  'pending',
  'awaiting_approval',
  'sending',
  'done',
  'failed',
  'unknown',
  'cancelled',
  'rejected',
  'expired',
];

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
    correlationId: `corr-${newId()}`,
    durationMs: 12,
    parameters: null,
    changeId: null,
    ...overrides,
  };
}

/**
 * A replica's heartbeat on the store at `url`: by the store's clock, or `offsetMs` from now by this host's
 * (a heartbeat from the past, for a process that stopped).
 */
async function lastHeartbeat(
  url: string,
  replica: { replicaId: string; host: string; pid: number },
  offsetMs?: number,
): Promise<void> {
  const store = await openStore(url);
  try {
    const at = offsetMs === undefined ? undefined : new Date(Date.now() + offsetMs);
    await store.replicas.heartbeat({ ...replica, role: 'bot', startedAt: new Date() }, at);
  } finally {
    await store.close();
  }
}

/** A change in every state, each the way the journal leaves it; returns their ids. */
async function seedChanges(store: Store): Promise<string[]> {
  const ids: string[] = [];
  const add = async (
    overrides: Partial<NewChange>,
    steps: [ChangeState, ChangeState, Parameters<Store['changes']['transition']>[3]?][] = [],
  ) => {
    const record = change(overrides);
    await store.changes.insert(record);
    let minute = 1;
    for (const [from, to, patch] of steps) {
      const moved = await store.changes.transition(record.id, from, to, patch, {
        now: at(minute++ * MINUTE),
      });
      expect(moved).toBe(true);
    }
    ids.push(record.id);
  };
  await add({ state: 'pending', parameters: { domain: 'bücher.example', quote: `'"\\` } });
  await add({ operation: 'setReverseDns', command: '/server rdns', target: '203.0.113.7', guildId: null }, [
    ['pending', 'awaiting_approval', { approval: { messageId: '500000000000000001', channelId: 'c9' } }],
  ]);
  await add({}, [['pending', 'sending', { replicaId: 'replica-a' }]]);
  // /panel bind: the license is masked once the record leaves pending.
  await add(
    {
      operation: 'bindPanelLicense',
      command: '/panel bind',
      target: '198.51.100.4',
      parameters: { license: 'ABCD-EFGH-IJKL-WXYZ', ip: '198.51.100.4' },
      preview: { license: 'ABCD-EFGH-IJKL-WXYZ' },
    },
    [
      [
        'pending',
        'sending',
        {
          replicaId: 'replica-b',
          parameters: { license: maskSecret('ABCD-EFGH-IJKL-WXYZ'), ip: '198.51.100.4' },
          preview: { license: maskSecret('ABCD-EFGH-IJKL-WXYZ') },
        },
      ],
      ['sending', 'done', { result: { ok: true, status: 200 } }],
    ],
  );
  await add({ createdAt: at(5) }, [
    ['pending', 'sending', { replicaId: 'replica-a' }],
    ['sending', 'failed', { result: { kind: 'upstream', status: 500 } }],
  ]);
  await add({ createdAt: at(5) }, [
    ['pending', 'sending', { replicaId: 'replica-gone' }],
    ['sending', 'unknown', { result: { kind: 'outcome_unknown' } }],
  ]);
  await add({ channelId: null, result: null }, [['pending', 'cancelled']]);
  await add({}, [
    ['pending', 'awaiting_approval', { approval: { messageId: '500000000000000002' } }],
    ['awaiting_approval', 'rejected', { approval: { by: 'bob', reason: 'wrong box ✋' } }],
  ]);
  await add({ expiresAt: at(MINUTE) }, [['pending', 'expired']]);
  return ids;
}

async function seedAudit(store: Store): Promise<void> {
  const entries = [
    auditEntry({ at: at(0), parameters: { domain: 'bücher.example', nested: [1, null, 'x'] } }),
    auditEntry({ at: at(1000), userId: 'u2', userName: 'bob', outcome: 'refused', detail: 'role' }),
    // Two at the same millisecond: their order is the id order.
    auditEntry({ at: at(2000), command: 'panel', subcommand: 'bind', changeId: 'chg-1', target: null }),
    auditEntry({ at: at(2000), command: 'help', subcommand: '', guildId: null, channelId: null }),
    auditEntry({ at: at(3000), durationMs: null, outcome: 'unknown', detail: 'timed out' }),
    // Written later with an earlier time (a clock step): listed by time, then id.
    auditEntry({ at: at(500), correlationId: 'late-writer' }),
    auditEntry({ at: at(4000), target: '100%_sure\\path', parameters: { records: 'a\nb' } }),
  ];
  for (const entry of entries) await store.audit.insert(entry);
}

const withoutIds = (rows: { id: number }[]) => rows.map(({ id: _id, ...rest }) => rest);

describe('copyStore: SQLite into PostgreSQL', () => {
  const opened: Store[] = [];
  async function open(url: string): Promise<Store> {
    const store = await openStore(url);
    opened.push(store);
    return store;
  }
  afterAll(async () => {
    await Promise.all(opened.map((store) => store.close().catch(() => {})));
  });

  let from: string;
  let changeIds: string[];
  beforeAll(async () => {
    from = sqliteUrl();
    const seeding = await openStore(from);
    changeIds = await seedChanges(seeding);
    await seedAudit(seeding);
    // The watch list, one domain seen and alerted once: the alert must not go out again after the move.
    await seeding.watch.add(
      [
        { domain: 'xn--bcher-kva.example', unicode: 'bücher.example' },
        { domain: 'new.example', unicode: 'new.example' },
      ],
      '100000000000000001',
      at(0),
    );
    const [seen] = await seeding.watch.all();
    if (!seen) throw new Error('no watched domain');
    await seeding.watch.record(
      seen,
      {
        status: 'ok',
        failures: 0,
        expiryDate: '2031-01-01',
        active: true,
        expired: false,
        transferredAway: false,
      },
      at(1000),
    );
    await seeding.watch.claimAlert(seen.domain, 'expiry:2031-01-01:30', at(1000));
    // Two sets sent for one domain, each by its change: after the move the next prompt compares with the
    // second, and Revert of the second goes back to the first.
    for (const [n, changeId] of ['dns-1', 'dns-2'].entries()) {
      await seeding.changes.insert(
        change({
          id: changeId,
          operation: 'submitDnsRecords',
          command: '/domain dns',
          target: 'xn--bcher-kva.example',
          createdAt: at(1000 + n),
          expiresAt: at(1000 + n + MINUTE),
        }),
      );
      const sends = {
        domain: 'xn--bcher-kva.example',
        records: JSON.stringify([{ name: '@', ttl: 3600, type: 'A', content: `192.0.2.${n + 1}` }]),
      };
      const sentAt = at(2000 + n);
      expect(
        await seeding.changes.transition(changeId, 'pending', 'sending', { sends }, { now: sentAt }),
      ).toBe(true);
      await seeding.changes.transition(changeId, 'sending', n === 0 ? 'done' : 'unknown');
    }
    await seeding.close();
  });

  it('copies every change and every audit entry; the copy reads back equal through the Store API', async () => {
    const to = await postgresUrl('copy');
    // Small batches: several pages of both tables, the last one short.
    expect(await copyStore({ from, to, batchSize: 3 })).toEqual({
      changes: 11,
      audit: 7,
      watched: 2,
      alerts: 1,
      dnsSets: 2,
    });

    const source = await open(from);
    const target = await open(to);
    expect(target.engine).toBe('postgres');
    for (const id of changeIds) {
      const original = await source.changes.get(id);
      expect(original).toBeDefined();
      expect(await target.changes.get(id)).toEqual(original);
    }
    expect(await target.changes.listByState(ALL_STATES)).toEqual(
      await source.changes.listByState(ALL_STATES),
    );
    expect(await target.watch.all()).toEqual(await source.watch.all());
    expect(await target.watch.alerts()).toEqual(await source.watch.alerts());
    expect(await target.dnsSets.all()).toEqual(await source.dnsSets.all());
    const last = await target.dnsSets.latest('xn--bcher-kva.example');
    expect(last).toMatchObject({ changeId: 'dns-2', outcome: 'unknown', sentAt: at(2001) });
    expect(last && (await target.dnsSets.latest(last.domain, last))?.changeId).toBe('dns-1');
    expect(await target.watch.claimAlert('new.example', 'expiry:2031-01-01:30', at(5000))).toBe(false);
    const bound = (await target.changes.listByState(['done']))[0];
    expect(bound?.parameters).toEqual({ license: '…WXYZ', ip: '198.51.100.4' });
    expect(JSON.stringify(await target.changes.listByState(ALL_STATES))).not.toContain('ABCD-EFGH');

    const page = { limit: 100, offset: 0 };
    const sourceAudit = await source.audit.query({}, page);
    const targetAudit = await target.audit.query({}, page);
    expect(targetAudit.total).toBe(7);
    expect(withoutIds(targetAudit.rows)).toEqual(withoutIds(sourceAudit.rows));
    expect(targetAudit.rows.map((row) => row.correlationId)).toEqual(
      sourceAudit.rows.map((row) => row.correlationId),
    );
    // Paging and filters see the same entries.
    for (const filter of [{ userId: 'u2' }, { target: '%_s' }, { since: at(2000) }]) {
      expect(withoutIds((await target.audit.query(filter, { limit: 2, offset: 1 })).rows)).toEqual(
        withoutIds((await source.audit.query(filter, { limit: 2, offset: 1 })).rows),
      );
    }
    // Transient tables are not copied.
    expect(await target.replicas.live(new Date(0))).toEqual([]);
  });

  it('refuses a target that already holds a change or an audit entry, and leaves it unchanged', async () => {
    const to = await postgresUrl('not_empty');
    const existing = change({ state: 'pending' });
    const seeded = await openStore(to);
    await seeded.changes.insert(existing);
    await seeded.audit.insert(auditEntry({ correlationId: 'already-here' }));
    await seeded.close();

    const error = await copyStore({ from, to }).catch((rejection: unknown) => rejection);
    expect(error).toBeInstanceOf(CopyStoreError);
    expect((error as Error).message).toBe(
      '--to: the target store is not empty (1 change, 1 audit entry); copy into a new, empty database. Nothing was copied.',
    );

    const target = await open(to);
    expect((await target.changes.listByState(ALL_STATES)).map((record) => record.id)).toEqual([existing.id]);
    const audit = await target.audit.query({}, { limit: 10, offset: 0 });
    expect(audit.rows.map((row) => row.correlationId)).toEqual(['already-here']);
  });

  it('refuses while a HostOps process is live on the source, copying nothing', async () => {
    const source = sqliteUrl();
    const running = await openStore(source);
    await running.changes.insert(change());
    await running.replicas.heartbeat(
      { replicaId: 'live-one', role: 'bot', host: 'ops-host', pid: 4242, startedAt: new Date() },
      new Date(),
    );
    await running.close();
    const to = await postgresUrl('live_source');

    await expect(copyStore({ from: source, to })).rejects.toThrow(
      /^--from: HostOps is running on this store \(ops-host, pid 4242\); stop HostOps first/,
    );
    const target = await open(to);
    expect(await target.changes.listByState(ALL_STATES)).toEqual([]);

    // Once the lease has run out (a killed process), the copy goes ahead.
    await lastHeartbeat(source, { replicaId: 'live-one', host: 'ops-host', pid: 4242 }, -16_000);
    expect(await copyStore({ from: source, to })).toEqual({
      changes: 1,
      audit: 0,
      watched: 0,
      alerts: 0,
      dnsSets: 0,
    });
  });

  describe('judges heartbeats by the store clock that stamped them, not by this host’s', () => {
    afterEach(() => {
      vi.useRealTimers();
    });
    /** This host's clock set off by `offsetMs` (Date only: timers and the databases' clocks run on). */
    const skewLocalClock = (offsetMs: number) => {
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + offsetMs });
    };

    /** A source holding one change, an empty target, and a heartbeat on the `side` one. */
    async function storesWithHeartbeat(side: string, label: string, offsetMs?: number) {
      const source = sqliteUrl();
      const to = await postgresUrl(label);
      const seeded = await openStore(source);
      await seeded.changes.insert(change());
      await seeded.close();
      await lastHeartbeat(side === '--from' ? source : to, { replicaId: 'r', host: 'h', pid: 9 }, offsetMs);
      return { source, to };
    }
    const sides = [
      { engine: 'sqlite', side: '--from' },
      { engine: 'postgres', side: '--to' },
    ];

    it.each(sides)('$engine ($side): live while this host’s clock runs a minute ahead', async ({ side }) => {
      // Stamped by the store's clock, as every replica does.
      const { source, to } = await storesWithHeartbeat(side, 'skew_ahead');
      skewLocalClock(MINUTE);
      await expect(copyStore({ from: source, to })).rejects.toThrow(
        new RegExp(`^${side}: HostOps is running on this store \\(h, pid 9\\)`),
      );
      vi.useRealTimers();
      expect(await (await open(to)).changes.listByState(ALL_STATES)).toEqual([]);
    });

    it.each(sides)(
      '$engine ($side): stopped while this host’s clock runs a minute behind',
      async ({ side }) => {
        const { source, to } = await storesWithHeartbeat(side, 'skew_behind', -16_000);
        skewLocalClock(-MINUTE);
        expect((await copyStore({ from: source, to })).changes).toBe(1);
      },
    );
  });

  it('refuses while a HostOps replica is live on the target', async () => {
    const to = await postgresUrl('live_target');
    const replica = await openStore(to);
    await replica.replicas.heartbeat(
      { replicaId: 'r1', role: 'bot', host: 'replica-host', pid: 7, startedAt: new Date() },
      new Date(),
    );
    await replica.close();
    await expect(copyStore({ from, to })).rejects.toThrow(/^--to: HostOps is running on this store/);
  });

  it('refuses a SQLite source that does not exist, without creating it', async () => {
    const missing = join(tmp, 'nothing-here', 'hostops.db');
    await expect(copyStore({ from: `sqlite:${missing}`, to: await postgresUrl('missing') })).rejects.toThrow(
      `--from: no SQLite database at ${missing}`,
    );
    expect(existsSync(missing)).toBe(false);
  });

  it('names the flag, not DATABASE_URL, when a store cannot be opened, and never the password', async () => {
    const error = await copyStore({
      from,
      to: 'postgres://hostops:pw-4711-secret@127.0.0.1:9/hostops',
    }).catch((rejection: unknown) => rejection);
    expect(error).toBeInstanceOf(CopyStoreError);
    expect((error as Error).message).toMatch(
      /^--to: cannot open the PostgreSQL database at postgres:\/\/hostops:\*\*\*@127\.0\.0\.1:9\/hostops/,
    );
    expect((error as Error).message).not.toContain('pw-4711-secret');
  });
});

describe.each([
  { engine: 'postgres', url: () => postgresUrl('import') },
  { engine: 'sqlite', url: async () => sqliteUrl() },
])('$engine importRows', ({ url }) => {
  it('is one transaction: a failure part-way leaves the store empty', async () => {
    const store = await openStore(await url());
    try {
      async function* failingAudit() {
        yield [auditEntry(), auditEntry()];
        throw new Error('source went away');
      }
      await expect(
        store.importRows({
          changes: [[{ ...change(), result: null, updatedAt: at(0), replicaId: null, approval: null }]],
          audit: failingAudit(),
        }),
      ).rejects.toThrow('source went away');
      expect(await store.changes.listByState(ALL_STATES)).toEqual([]);
      expect((await store.audit.query({}, { limit: 1, offset: 0 })).total).toBe(0);
      // And the empty store still takes the import.
      expect(await store.importRows({ changes: [], audit: [[auditEntry()]] })).toEqual({
        imported: true,
        changes: 0,
        audit: 1,
        watched: 0,
        alerts: 0,
        dnsSets: 0,
      });
    } finally {
      await store.close();
    }
  });
});
