// The /access grants (migration 0021) on both engines: every write bumps the generation in its own
// transaction, so a second store on the same database (another replica) sees a revoke at its next decision.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GrantCache } from '../../src/access/GrantCache.js';
import { resourceOf } from '../../src/access/patterns.js';
import { type Grant, type NewAuditEntry, openStore, type Store } from '../../src/store/index.js';
import { at, STORE_ENGINES } from '../support/storeEngines.js';

const access = { viewerRoleIds: ['v'], operatorRoleIds: [], adminRoleIds: [], channelIds: [] };
const grant = (id: string, overrides: Partial<Grant> = {}): Grant => ({
  id,
  subject: { kind: 'role', id: 'support' },
  what: ['domain dns'],
  patterns: ['*.acme.example', 'server:100-199'],
  until: null,
  createdBy: '100000000000000001',
  createdAt: at(0),
  requestId: null,
  ...overrides,
});
const asked = {
  command: 'domain dns',
  tier: 'operator' as const,
  kind: 'change' as const,
  resources: [resourceOf('domain', 'shop.acme.example')].filter((r) => r !== undefined),
};
const support = { userId: 'u1', roleIds: new Set(['support']) };

describe.each(STORE_ENGINES)('access grants on $engine', ({ engine, freshUrl }) => {
  let url: string;
  let store: Store;
  let replica: Store;
  beforeAll(async () => {
    url = await freshUrl('grants');
    store = await openStore(url);
    // SQLite is one process's file: the second replica is a second store only on PostgreSQL.
    replica = engine === 'postgres' ? await openStore(url) : store;
  });
  afterAll(async () => {
    if (replica !== store) await replica?.close();
    await store?.close();
  });

  it('adds, loads and revokes, bumping the generation with each write', async () => {
    const before = await store.grants.generation();
    await store.grants.add(
      grant('g1', { until: at(3_600_000), requestId: 'req1', subject: { kind: 'user', id: 'u9' } }),
    );
    await store.grants.add(grant('g2', { what: ['operator', 'musicbot create'] }));
    const loaded = await store.grants.load();
    expect(loaded.generation).toBe(before + 2);
    expect(loaded.grants).toEqual([
      grant('g1', { until: at(3_600_000), requestId: 'req1', subject: { kind: 'user', id: 'u9' } }),
      grant('g2', { what: ['operator', 'musicbot create'] }),
    ]);
    expect(await store.grants.revoke('g1')).toMatchObject({ id: 'g1' });
    expect(await store.grants.revoke('g1')).toBeUndefined();
    expect(await store.grants.generation()).toBe(before + 3);
    expect((await store.grants.load()).grants.map((g) => g.id)).toEqual(['g2']);
  });

  it('replaces the grants only from the generation it was shown; of two, one applies', async () => {
    const { generation } = await store.grants.load();
    const results = await Promise.all([
      store.grants.replace(generation, ['g2'], [grant('g3')]),
      replica.grants.replace(generation, ['g2'], [grant('g4')]),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const ids = (await store.grants.load()).grants.map((g) => g.id);
    expect(ids.length).toBe(1);
    expect(['g3', 'g4']).toContain(ids[0]);
    expect(await store.grants.replace(generation, [], [grant('g5')])).toBe(false);
  });

  it('a revoke on one replica is in force on the other at its next decision', async () => {
    await store.grants.add(grant('g6'));
    const cache = new GrantCache(replica, access);
    expect((await cache.policy()).decide(support, asked, at(0)).allowed).toBe(true);
    for (const { id } of (await store.grants.load()).grants) await store.grants.revoke(id);
    expect((await cache.policy()).decide(support, asked, at(0)).allowed).toBe(false);
  });

  it('ends an elevation past its until once, with its audit row in the same transaction, whoever sweeps', async () => {
    const until = at(3_600_000);
    await store.grants.add(grant('g7', { until, requestId: 'req7', subject: { kind: 'user', id: 'u7' } }));
    // A plain grant with an until is not an elevation: it is left to its revoke.
    await store.grants.add(grant('g8', { until }));
    const entry: NewAuditEntry = {
      at: until,
      userId: 'u7',
      userName: 'u7',
      guildId: null,
      channelId: null,
      command: 'access',
      subcommand: 'request',
      target: 'g7',
      outcome: 'expired',
      detail: 'elevation ended',
      correlationId: 'cid7',
      durationMs: null,
      parameters: null,
      changeId: 'req7',
    };
    expect(await store.grants.endedElevations(new Date(until.getTime() - 1))).toEqual([]);
    expect((await store.grants.endedElevations(until)).map((g) => g.id)).toEqual(['g7']);
    const before = await store.grants.generation();
    const ended = await Promise.all([
      store.grants.endElevation('g7', until, entry),
      replica.grants.endElevation('g7', until, entry),
    ]);
    expect(ended.filter(Boolean)).toHaveLength(1);
    expect(await store.grants.generation()).toBe(before + 1);
    expect((await store.grants.load()).grants.map((g) => g.id)).toContain('g8');
    expect((await store.grants.load()).grants.map((g) => g.id)).not.toContain('g7');
    const { rows } = await store.audit.query({ target: 'g7' }, { limit: 10, offset: 0 });
    expect(rows.map((r) => [r.outcome, r.detail])).toEqual([['expired', 'elevation ended']]);
  });
});
