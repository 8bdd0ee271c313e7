// The memory of DNS record sets, on both engines: a set is written with its change's move to `sending`
// and remembered exactly while that change is `done` or `unknown` — however it got there (its sender,
// the orphan sweep, a shutdown) — ordered by when it was sent, not when its answer came.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NewChange, openStore, type Store } from '../../src/store/index.js';
import { at, MINUTE, newChange, rawDatabase, STORE_ENGINES } from '../support/storeEngines.js';

let domains = 0;
const newDomain = () => `set-${++domains}.example`;

const dnsChange = (domain: string, overrides: Partial<NewChange> = {}): NewChange =>
  newChange({
    operation: 'submitDnsRecords',
    command: '/domain dns',
    target: domain,
    parameters: { domain: { ascii: domain, unicode: domain }, records: [] },
    preview: { title: 'DNS records' },
    expiresAt: at(60 * MINUTE),
    ...overrides,
  });

const recordsOf = (n: number) =>
  JSON.stringify([{ name: '@', type: 'A', content: `192.0.2.${n}`, ttl: 3600 }]);

describe.each(STORE_ENGINES)('$engine: DNS sets remembered however their change settles', ({ freshUrl }) => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore(await freshUrl('dns_sets'));
  });
  afterAll(async () => {
    await store?.close();
  });

  /** A DNS change of `domain` opened and claimed for sending at `sentAt` by `replicaId`; its id. */
  async function send(domain: string, n: number, sentAt: Date, replicaId = 'replica-a'): Promise<string> {
    const change = dnsChange(domain);
    await store.changes.insert(change);
    const sends = { domain, records: recordsOf(n) };
    expect(
      await store.changes.transition(
        change.id,
        'pending',
        'sending',
        { replicaId, sends },
        { now: sentAt, notExpiredAt: sentAt },
      ),
    ).toBe(true);
    return change.id;
  }
  const settle = (id: string, to: 'done' | 'failed' | 'unknown', now: Date, heldBy = 'replica-a') =>
    store.changes.transition(id, 'sending', to, { result: {} }, { now, heldBy });

  it('written as the change is sent, by its requester; remembered once it ends done, with when it was sent', async () => {
    const domain = newDomain();
    const id = await send(domain, 1, at(MINUTE));
    // In flight: not (yet) the domain's set.
    expect(await store.dnsSets.latest(domain)).toBeUndefined();
    expect(await store.dnsSets.get(id)).toBeUndefined();
    expect(await settle(id, 'done', at(2 * MINUTE))).toBe(true);
    const remembered = await store.dnsSets.latest(domain);
    expect(remembered).toEqual({
      changeId: id,
      domain,
      records: recordsOf(1),
      outcome: 'done',
      sentById: '100000000000000001',
      sentByName: 'alice',
      sentAt: at(MINUTE),
      correlationId: expect.stringMatching(/^corr-/),
    });
    expect(await store.dnsSets.get(id)).toEqual(remembered);
  });

  it('a send settled by the orphan sweep is remembered as unknown; a failed one is not remembered', async () => {
    const domain = newDomain();
    const orphaned = await send(domain, 1, at(MINUTE), 'replica-gone');
    const swept = await store.changes.orphanSending(['replica-a'], { reason: 'stopped' }, at(3 * MINUTE));
    expect(swept.map((change) => change.id)).toContain(orphaned);
    expect(await store.dnsSets.latest(domain)).toMatchObject({
      changeId: orphaned,
      outcome: 'unknown',
      sentAt: at(MINUTE),
    });
    // The sender wakes with the provider's `done`: refused (it lost the lease); the set stays remembered.
    expect(await settle(orphaned, 'done', at(4 * MINUTE), 'replica-gone')).toBe(false);
    expect(await store.dnsSets.get(orphaned)).toMatchObject({ outcome: 'unknown' });

    const failed = await send(domain, 2, at(5 * MINUTE));
    expect(await settle(failed, 'failed', at(6 * MINUTE))).toBe(true);
    expect(await store.dnsSets.get(failed)).toBeUndefined();
    expect((await store.dnsSets.latest(domain))?.changeId).toBe(orphaned);
  });

  it('two sends in flight for one domain: ordered as they were sent, not as they were answered', async () => {
    const domain = newDomain();
    const first = await send(domain, 1, at(MINUTE));
    const second = await send(domain, 2, at(MINUTE + 10));
    // The second is answered first.
    expect(await settle(second, 'done', at(2 * MINUTE))).toBe(true);
    expect(await settle(first, 'done', at(3 * MINUTE))).toBe(true);
    const latest = await store.dnsSets.latest(domain);
    expect(latest?.changeId).toBe(second);
    expect(latest && (await store.dnsSets.latest(domain, latest))?.changeId).toBe(first);
  });

  it('a refused move to sending writes no set; a resend of the same change is sent again, later', async () => {
    const domain = newDomain();
    const id = await send(domain, 1, at(MINUTE));
    // A second claim (a double click, another replica) is refused and changes nothing.
    expect(
      await store.changes.transition(
        id,
        'pending',
        'sending',
        { sends: { domain, records: recordsOf(9) } },
        { now: at(2 * MINUTE) },
      ),
    ).toBe(false);
    expect(await settle(id, 'unknown', at(3 * MINUTE))).toBe(true);
    expect(await store.dnsSets.get(id)).toMatchObject({ records: recordsOf(1), sentAt: at(MINUTE) });

    const other = await send(domain, 2, at(4 * MINUTE));
    expect(await settle(other, 'done', at(5 * MINUTE))).toBe(true);
    expect((await store.dnsSets.latest(domain))?.changeId).toBe(other);
    // Sent again (unknown → sending): it is the newest send now.
    const sends = { domain, records: recordsOf(1) };
    expect(await store.changes.transition(id, 'unknown', 'sending', { sends }, { now: at(6 * MINUTE) })).toBe(
      true,
    );
    expect(await store.changes.transition(id, 'sending', 'done', {}, { now: at(7 * MINUTE) })).toBe(true);
    expect(await store.dnsSets.latest(domain)).toMatchObject({ changeId: id, sentAt: at(6 * MINUTE) });
  });

  it('the set and the move to sending are one transaction: a set that cannot be written leaves the change pending', async () => {
    const domain = newDomain();
    const change = dnsChange(domain);
    await store.changes.insert(change);
    const broken = { domain: null as unknown as string, records: recordsOf(1) };
    await expect(
      store.changes.transition(change.id, 'pending', 'sending', { sends: broken }, { now: at(MINUTE) }),
    ).rejects.toThrow();
    expect((await store.changes.get(change.id))?.state).toBe('pending');
  });

  it('migration 0015 keeps the sets of changes that settled without their sender, sent when they settled', async () => {
    const url = await freshUrl('dns_sets_backfill');
    const before = await openStore(url);
    const domain = newDomain();
    const parameters = {
      domain: { ascii: domain, unicode: domain },
      records: [{ name: 'www', type: 'A', content: '192.0.2.7', ttl: 300 }],
    };
    const settled = dnsChange(domain, { parameters, state: 'unknown' });
    const failed = dnsChange(domain, { parameters, state: 'failed' });
    for (const change of [settled, failed]) await before.changes.insert(change);
    await before.changes.transition(settled.id, 'unknown', 'unknown', {}, { now: at(5 * MINUTE) });
    await before.close();
    // As before 0015: its column back, no set kept for either change, and nothing of the migrations after it.
    const { sql } = await import('kysely');
    const raw = await rawDatabase(url);
    await sql`alter table dns_sets add column outcome text`.execute(raw);
    await sql`drop index changes_one_sending_per_key`.execute(raw);
    await sql`alter table changes drop column serial_key`.execute(raw);
    await sql`delete from kysely_migration where name >= '0015'`.execute(raw);
    await raw.destroy();

    const after = await openStore(url);
    try {
      expect(await after.dnsSets.latest(domain)).toEqual({
        changeId: settled.id,
        domain,
        records: JSON.stringify(parameters.records),
        outcome: 'unknown',
        sentById: settled.requestedById,
        sentByName: settled.requestedByName,
        sentAt: at(5 * MINUTE),
        correlationId: settled.correlationId,
      });
      expect((await after.dnsSets.all()).map((set) => set.changeId)).toEqual([settled.id]);
    } finally {
      await after.close();
    }
  });
});
