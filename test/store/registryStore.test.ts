// The registry's answers (RDAP, migration 0018) on both engines: a SQLite file and a real PostgreSQL
// server. One conditional write per answer decides which of two overlapping look-ups reports a change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NewRegistryRecord, openStore, type Store } from '../../src/store/index.js';
import { at, MINUTE, STORE_ENGINES } from '../support/storeEngines.js';

const answer = (domain: string, overrides: Partial<NewRegistryRecord> = {}): NewRegistryRecord => ({
  domain,
  readAt: at(0),
  outcome: 'ok',
  server: 'https://rdap.example',
  expiresAt: '2031-08-13T04:00:00.000Z',
  statuses: ['active', 'client transfer prohibited'],
  nameservers: ['ns1.example.net', 'ns2.example.net'],
  delegationSigned: true,
  flags: [],
  watched: true,
  ...overrides,
});

describe.each(STORE_ENGINES)('registry answers on $engine', ({ freshUrl }) => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore(await freshUrl('registry'));
    await store.watch.add(
      ['a.example', 'b.example', 'c.example'].map((domain) => ({ domain, unicode: domain })),
      '100000000000000001',
      at(0),
    );
  });
  afterAll(() => store?.close());

  it('an operator’s re-ask: claimed once per window, whoever asks (migration 0023)', async () => {
    const window = 5 * MINUTE;
    expect(await store.registry.claimReask('a.example', at(0), window)).toEqual({ claimed: true });
    // Two presses at once (another replica's included): one wins, the other is told when the last one was.
    const [x, y] = await Promise.all([
      store.registry.claimReask('a.example', at(MINUTE), window),
      store.registry.claimReask('a.example', at(MINUTE), window),
    ]);
    expect([x, y]).toEqual([
      { claimed: false, at: at(0) },
      { claimed: false, at: at(0) },
    ]);
    // Another domain is its own.
    expect(await store.registry.claimReask('b.example', at(MINUTE), window)).toEqual({ claimed: true });
    // Once the window is over: claimed again, and of two at once only one.
    const later = await Promise.all([
      store.registry.claimReask('a.example', at(window), window),
      store.registry.claimReask('a.example', at(window), window),
    ]);
    expect(later.filter((c) => c.claimed)).toHaveLength(1);
    expect(later.find((c) => !c.claimed)).toEqual({ claimed: false, at: at(window) });
  });

  it('stores an answer once; of two writers from the same version only one applies', async () => {
    expect(await store.registry.record(answer('a.example'), undefined)).toBe(true);
    // A second first write (another replica's run) finds the row there.
    expect(await store.registry.record(answer('a.example', { flags: ['held'] }), undefined)).toBe(false);
    const [first] = await store.registry.get(['a.example']);
    expect(first).toEqual({ ...answer('a.example'), version: 1 });
    const next = answer('a.example', {
      readAt: at(86_400_000),
      flags: ['transfer_lock_off'],
      statuses: ['active'],
    });
    const results = await Promise.all([store.registry.record(next, 1), store.registry.record(next, 1)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const [second] = await store.registry.get(['a.example']);
    expect(second).toMatchObject({ version: 2, flags: ['transfer_lock_off'], statuses: ['active'] });
    expect(second?.readAt.toISOString()).toBe(at(86_400_000).toISOString());
  });

  it('keeps what no answer gave as null, and reads flags and expiries of watched domains only', async () => {
    await store.registry.record(
      answer('b.example', {
        outcome: 'no_rdap',
        server: null,
        expiresAt: null,
        statuses: null,
        nameservers: null,
        delegationSigned: null,
        watched: false,
      }),
      undefined,
    );
    await store.registry.record(answer('c.example', { flags: ['held', 'unreadable'] }), undefined);
    await store.registry.record(answer('unwatched.example', { flags: ['held'] }), undefined);
    const [none] = await store.registry.get(['b.example']);
    expect(none).toMatchObject({
      outcome: 'no_rdap',
      expiresAt: null,
      statuses: null,
      delegationSigned: null,
      watched: false,
    });
    expect((await store.registry.flagged()).sort((x, y) => x.domain.localeCompare(y.domain))).toEqual([
      { domain: 'a.example', flags: ['transfer_lock_off'] },
      { domain: 'c.example', flags: ['held', 'unreadable'] },
    ]);
    expect(await store.registry.expiries('a.example', 10)).toEqual([
      { domain: 'c.example', expiresAt: '2031-08-13T04:00:00.000Z' },
    ]);
    expect(await store.registry.expiries(undefined, 10)).toEqual([
      { domain: 'a.example', expiresAt: '2031-08-13T04:00:00.000Z' },
      { domain: 'c.example', expiresAt: '2031-08-13T04:00:00.000Z' },
    ]);
  });
});
