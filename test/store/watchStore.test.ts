// The watch's tables and the journal's recent targets, checked against both engines: a SQLite file and a
// real PostgreSQL server (the same pattern as Store.test.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  type NewAuditEntry,
  openStore,
  type Store,
  type WatchedDomain,
  type WatchFindings,
} from '../../src/store/index.js';
import { createDatabase } from '../support/startPostgres.js';

const tmp = mkdtempSync(join(tmpdir(), 'hostops-watch-store-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let files = 0;
const engines = [
  { engine: 'sqlite', freshUrl: async (label: string) => `sqlite:${join(tmp, `${label}-${++files}.db`)}` },
  { engine: 'postgres', freshUrl: (label: string) => createDatabase(inject('postgresUrl'), label) },
] as const;

const T0 = Date.parse('2030-01-01T12:00:00.000Z');
const at = (offsetMs: number) => new Date(T0 + offsetMs);
const USER = '100000000000000001';

const d = (domain: string, unicode = domain) => ({ domain, unicode });

const okFindings = (expiryDate: string | null, overrides: Partial<WatchFindings> = {}): WatchFindings => ({
  status: 'ok',
  failures: 0,
  expiryDate,
  active: true,
  expired: false,
  transferredAway: false,
  ...overrides,
});

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

describe.each(engines)('$engine watch store', ({ engine, freshUrl }) => {
  const opened: Store[] = [];
  async function fresh(label: string): Promise<Store> {
    const store = await openStore(await freshUrl(label));
    opened.push(store);
    return store;
  }
  afterAll(async () => {
    await Promise.all(opened.map((store) => store.close()));
  });

  /** The row as a run would read it. */
  async function row(store: Store, domain: string): Promise<WatchedDomain> {
    const found = (await store.watch.all()).find((r) => r.domain === domain);
    if (!found) throw new Error(`${domain} is not watched`);
    return found;
  }

  it('runs on its engine', async () => {
    expect((await fresh('engine')).engine).toBe(engine);
  });

  describe('the cap, get and expiries', () => {
    it('an add past the limit adds none and says how full the list is; two adds at once never pass it', async () => {
      const store = await fresh('cap');
      expect(await store.watch.add([d('one.example'), d('two.example')], USER, at(0), 3)).toEqual({
        added: ['one.example', 'two.example'],
        already: [],
      });
      // Names already watched do not count against the limit.
      expect(
        await store.watch.add([d('two.example'), d('x.example'), d('y.example')], USER, at(1), 3),
      ).toEqual({
        added: [],
        already: ['two.example'],
        full: { watched: 2, adding: 2, limit: 3 },
      });
      expect(await store.watch.count()).toBe(2);
      // The last free place, raced by two adds: exactly one gets it (PostgreSQL queues them on a lock).
      const raced = await Promise.all([
        store.watch.add([d('race-a.example')], USER, at(2), 3),
        store.watch.add([d('race-b.example')], USER, at(2), 3),
      ]);
      expect(raced.map((r) => r.added.length).sort()).toEqual([0, 1]);
      expect(await store.watch.count()).toBe(3);
    });

    it('get reads the given domains by name; expiries lists the known expiry dates', async () => {
      const store = await fresh('get');
      await store.watch.add([d('b.example'), d('a.example'), d('c.example')], USER, at(0));
      const [b] = await store.watch.get(['b.example']);
      if (!b) throw new Error('b.example is not watched');
      expect(await store.watch.record(b, okFindings('2031-05-17'), at(1))).toBe(true);
      expect(
        (await store.watch.get(['c.example', 'b.example', 'nope.example'])).map((r) => r.domain),
      ).toEqual(['b.example', 'c.example']);
      expect(await store.watch.expiries(undefined, 10)).toEqual([
        { domain: 'b.example', expiryDate: '2031-05-17' },
      ]);
    });

    it('expiries reads a page at a time, by name from where the last page ended, skipping unknown dates', async () => {
      const store = await fresh('expiry-pages');
      const names = ['e.example', 'b.example', 'unchecked.example', 'a.example', 'd.example', 'c.example'];
      await store.watch.add(
        names.map((name) => d(name)),
        USER,
        at(0),
      );
      for (const [n, name] of ['a', 'b', 'c', 'd', 'e'].entries()) {
        expect(
          await store.watch.record(await row(store, `${name}.example`), okFindings(`2031-05-1${n}`), at(1)),
        ).toBe(true);
      }
      const pages: { domain: string; expiryDate: string }[][] = [];
      let after: string | undefined;
      // Bounded: a store that ignored the page would otherwise be read forever.
      for (let n = 0; n < 5; n++) {
        const page = await store.watch.expiries(after, 2);
        pages.push(page);
        if (page.length < 2) break;
        after = page.at(-1)?.domain;
      }
      expect(pages.map((page) => page.map((r) => `${r.domain} ${r.expiryDate}`))).toEqual([
        ['a.example 2031-05-10', 'b.example 2031-05-11'],
        ['c.example 2031-05-12', 'd.example 2031-05-13'],
        ['e.example 2031-05-14'],
      ]);
      // A page after the last name is empty rather than the first page again.
      expect(await store.watch.expiries('e.example', 2)).toEqual([]);
    });
  });

  describe('add and remove', () => {
    let store: Store;
    beforeAll(async () => {
      store = await fresh('add');
    });

    it('adds new domains and reports the ones already watched', async () => {
      expect(
        await store.watch.add([d('a.example'), d('xn--bcher-kva.de', 'bücher.de')], USER, at(0)),
      ).toEqual({
        added: ['a.example', 'xn--bcher-kva.de'],
        already: [],
      });
      expect(
        await store.watch.add(
          [d('b.example'), d('a.example'), d('xn--bcher-kva.de', 'bücher.de')],
          'other',
          at(1),
        ),
      ).toEqual({ added: ['b.example'], already: ['a.example', 'xn--bcher-kva.de'] });
      expect(await store.watch.count()).toBe(3);
      // A new row: never checked, nothing known; adding again changed nothing about it.
      expect(await row(store, 'xn--bcher-kva.de')).toEqual({
        domain: 'xn--bcher-kva.de',
        unicode: 'bücher.de',
        addedById: USER,
        addedAt: at(0),
        checkedAt: null,
        status: 'new',
        failures: 0,
        expiryDate: null,
        active: null,
        expired: null,
        transferredAway: null,
      });
    });

    it('adds thousands at once (in chunks), in the order given', async () => {
      const many = Array.from({ length: 1234 }, (_, n) => d(`bulk-${String(n).padStart(4, '0')}.example`));
      const result = await store.watch.add(many, USER, at(2));
      expect(result.added).toEqual(many.map((m) => m.domain));
      expect(result.already).toEqual([]);
      const again = await store.watch.add([...many.slice(0, 600), d('late.example')], USER, at(3));
      expect(again.added).toEqual(['late.example']);
      expect(again.already).toHaveLength(600);
      expect(await store.watch.count()).toBe(3 + 1234 + 1);
    });

    it('removes watched domains and reports the ones not watched', async () => {
      expect(await store.watch.remove(['b.example', 'never.example', 'late.example'])).toEqual({
        removed: expect.arrayContaining(['b.example', 'late.example']),
        notWatched: ['never.example'],
      });
      expect(await store.watch.remove(['b.example'])).toEqual({ removed: [], notWatched: ['b.example'] });
      const bulk = Array.from({ length: 1234 }, (_, n) => `bulk-${String(n).padStart(4, '0')}.example`);
      const removed = await store.watch.remove(bulk);
      expect(removed.removed).toHaveLength(1234);
      expect(removed.notWatched).toEqual([]);
      expect((await store.watch.all()).map((r) => r.domain)).toEqual(['a.example', 'xn--bcher-kva.de']);
    });
  });

  describe('list', () => {
    let store: Store;
    beforeAll(async () => {
      store = await fresh('list');
      const expiries: Record<string, string | null> = {
        'zeta.example': '2030-02-01',
        'alpha.example': '2030-03-01',
        'beta.example': '2030-02-01',
        'gamma.example': null,
        'delta.example': '2031-01-01',
        'aaa.example': null,
      };
      await store.watch.add(
        [...Object.keys(expiries), 'unchecked.example'].map((name) => d(name)),
        USER,
        at(0),
      );
      for (const [domain, expiryDate] of Object.entries(expiries)) {
        expect(await store.watch.record(await row(store, domain), okFindings(expiryDate), at(1))).toBe(true);
      }
    });

    it('soonest expiry first, unknown expiry last, then by name', async () => {
      const { rows, total } = await store.watch.list({ limit: 50, offset: 0 });
      expect(total).toBe(7);
      expect(rows.map((r) => [r.domain, r.expiryDate])).toEqual([
        ['beta.example', '2030-02-01'],
        ['zeta.example', '2030-02-01'],
        ['alpha.example', '2030-03-01'],
        ['delta.example', '2031-01-01'],
        ['aaa.example', null],
        ['gamma.example', null],
        ['unchecked.example', null],
      ]);
      expect(rows[0]).toMatchObject({ status: 'ok', checkedAt: at(1), active: true, expired: false });
    });

    it('pages, with the total of every row', async () => {
      const pages = [];
      for (let offset = 0; offset < 7; offset += 3) pages.push(await store.watch.list({ limit: 3, offset }));
      expect(pages.map((p) => p.total)).toEqual([7, 7, 7]);
      expect(pages.map((p) => p.rows.map((r) => r.domain))).toEqual([
        ['beta.example', 'zeta.example', 'alpha.example'],
        ['delta.example', 'aaa.example', 'gamma.example'],
        ['unchecked.example'],
      ]);
      expect(await store.watch.list({ limit: 3, offset: 9 })).toEqual({ rows: [], total: 7 });
    });
  });

  describe('search', () => {
    let store: Store;
    beforeAll(async () => {
      store = await fresh('search');
      await store.watch.add(
        [
          d('xn--bcher-kva.de', 'bücher.de'),
          d('buecher.de'),
          d('shop_1.example'),
          d('shopx1.example'),
          d('100percent.example'),
          d('back\\slash.example'),
          d('example.com'),
        ],
        USER,
        at(0),
      );
    });

    it('finds the ASCII form and the Unicode form, case-insensitively, by name', async () => {
      expect(await store.watch.search('buech', 10)).toEqual(['buecher.de']);
      expect(await store.watch.search('cher', 10)).toEqual(['buecher.de', 'xn--bcher-kva.de']);
      expect(await store.watch.search('büch', 10)).toEqual(['xn--bcher-kva.de']);
      expect(await store.watch.search('BÜCH', 10)).toEqual(['xn--bcher-kva.de']);
      expect(await store.watch.search('xn--b', 10)).toEqual(['xn--bcher-kva.de']);
      expect(await store.watch.search('EXAMPLE', 10)).toEqual([
        '100percent.example',
        'back\\slash.example',
        'example.com',
        'shop_1.example',
        'shopx1.example',
      ]);
      expect(await store.watch.search('', 3)).toHaveLength(3);
      expect(await store.watch.search('nothing', 10)).toEqual([]);
    });

    it('treats LIKE wildcards and the escape character literally', async () => {
      expect(await store.watch.search('_', 10)).toEqual(['shop_1.example']);
      expect(await store.watch.search('p_1', 10)).toEqual(['shop_1.example']);
      expect(await store.watch.search('%', 10)).toEqual([]);
      expect(await store.watch.search('100%', 10)).toEqual([]);
      expect(await store.watch.search('\\', 10)).toEqual(['back\\slash.example']);
      expect(await store.watch.search("'", 10)).toEqual([]);
    });

    it('respects the limit', async () => {
      expect(await store.watch.search('.', 2)).toEqual(['100percent.example', 'back\\slash.example']);
    });
  });

  describe('record is a compare-and-set', () => {
    let store: Store;
    beforeAll(async () => {
      store = await fresh('record');
    });

    it('applies when the row still holds what was read, and stores every finding', async () => {
      await store.watch.add([d('one.example')], USER, at(0));
      const seen = await row(store, 'one.example');
      const findings = okFindings('2030-05-01', { active: false, transferredAway: true });
      expect(await store.watch.record(seen, findings, at(5))).toBe(true);
      expect(await row(store, 'one.example')).toMatchObject({ ...findings, checkedAt: at(5) });
      // The stale read now loses.
      expect(await store.watch.record(seen, okFindings('2030-06-01'), at(6))).toBe(false);
      expect((await row(store, 'one.example')).expiryDate).toBe('2030-05-01');
      // Nothing changed since the last read: applies (only checkedAt moves).
      const current = await row(store, 'one.example');
      expect(await store.watch.record(current, findings, at(7))).toBe(true);
      expect((await row(store, 'one.example')).checkedAt).toEqual(at(7));
    });

    it.each<[string, Partial<WatchFindings>]>([
      ['status', { status: 'not_found' }],
      ['failures', { failures: 1 }],
      ['expiry date', { expiryDate: '2030-05-02' }],
      ['expiry date to null', { expiryDate: null }],
      ['active', { active: false }],
      ['expired', { expired: true }],
      ['transferredAway', { transferredAway: true }],
    ])('a read that differs in %s is stale', async (field, change) => {
      const domain = `stale-${field.replace(/\W/g, '-')}.example`;
      await store.watch.add([d(domain)], USER, at(0));
      await store.watch.record(await row(store, domain), okFindings('2030-05-01'), at(1));
      const seen = await row(store, domain);
      // Another run changed the row in between.
      expect(await store.watch.record(seen, { ...okFindings('2030-05-01'), ...change }, at(2))).toBe(true);
      expect(await store.watch.record(seen, okFindings('2030-07-01'), at(3))).toBe(false);
    });

    it('null findings compare as null: a row never checked is not one with values', async () => {
      await store.watch.add([d('nulls.example')], USER, at(0));
      const fresh = await row(store, 'nulls.example');
      const pretend: WatchedDomain = { ...fresh, expiryDate: '2030-01-01' };
      expect(await store.watch.record(pretend, okFindings('2031-01-01'), at(1))).toBe(false);
      expect(await store.watch.record({ ...fresh, active: false }, okFindings(null), at(1))).toBe(false);
      expect(await store.watch.record(fresh, okFindings(null), at(1))).toBe(true);
    });

    it('a domain removed in between is not recorded', async () => {
      await store.watch.add([d('gone.example')], USER, at(0));
      const seen = await row(store, 'gone.example');
      await store.watch.remove(['gone.example']);
      expect(await store.watch.record(seen, okFindings('2030-05-01'), at(1))).toBe(false);
      expect(await store.watch.count()).toBe((await store.watch.all()).length);
    });

    it('two concurrent records from the same read: exactly one applies, every time', async () => {
      const domains = Array.from({ length: 25 }, (_, n) => `race-${n}.example`);
      await store.watch.add(
        domains.map((name) => d(name)),
        USER,
        at(0),
      );
      const reads = await Promise.all(domains.map((name) => row(store, name)));
      const results = await Promise.all(
        reads.map((seen) =>
          Promise.all([
            store.watch.record(seen, okFindings('2030-05-01'), at(1)),
            store.watch.record(seen, okFindings('2030-05-01', { active: false }), at(1)),
          ]),
        ),
      );
      for (const pair of results) expect(pair.filter(Boolean)).toHaveLength(1);
      // A failure streak read by two overlapping runs counts once.
      const failing = await row(store, 'race-0.example');
      const failed = { ...failing, failures: failing.failures + 1 };
      const outcomes = await Promise.all(
        Array.from({ length: 5 }, () => store.watch.record(failing, failed, at(2))),
      );
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      expect((await row(store, 'race-0.example')).failures).toBe(1);
    });
  });

  describe('claimAlert', () => {
    let store: Store;
    beforeAll(async () => {
      store = await fresh('claim');
    });

    it('claims a key once per domain', async () => {
      expect(await store.watch.claimAlert('a.example', 'expiry:2030-05-01:30', at(0))).toBe(true);
      expect(await store.watch.claimAlert('a.example', 'expiry:2030-05-01:30', at(1))).toBe(false);
      expect(await store.watch.claimAlert('a.example', 'expiry:2030-05-01:14', at(1))).toBe(true);
      expect(await store.watch.claimAlert('a.example', 'expiry:2031-05-01:30', at(1))).toBe(true);
      expect(await store.watch.claimAlert('b.example', 'expiry:2030-05-01:30', at(1))).toBe(true);
    });

    it('of concurrent claims of one key, exactly one wins', async () => {
      for (let round = 0; round < 10; round++) {
        const key = `expiry:2030-05-01:${round}`;
        const outcomes = await Promise.all(
          Array.from({ length: 6 }, () => store.watch.claimAlert('race.example', key, at(round))),
        );
        expect(outcomes.filter(Boolean)).toHaveLength(1);
      }
    });

    it('survives a reopen (the key lives in the database)', async () => {
      const url = await freshUrl('claim-reopen');
      const first = await openStore(url);
      expect(await first.watch.claimAlert('a.example', 'k', at(0))).toBe(true);
      await first.close();
      const second = await openStore(url);
      try {
        expect(await second.watch.claimAlert('a.example', 'k', at(1))).toBe(false);
      } finally {
        await second.close();
      }
    });
  });

  describe('audit.recentTargets', () => {
    let store: Store;
    const DOMAIN_COMMANDS = [
      { command: 'domain', subcommand: 'info', outcomes: ['ok'] },
      { command: 'domain', subcommand: 'dns', outcomes: ['ok'] },
    ];
    const SERVER_LOGS = { command: 'server', subcommand: 'logs', outcomes: ['ok'] };
    const SERVER_RDNS = { command: 'server', subcommand: 'rdns', outcomes: ['ok'] };
    beforeAll(async () => {
      store = await fresh('recent');
      const entries: Partial<NewAuditEntry>[] = [
        { at: at(1), target: 'old.example' },
        { at: at(2), target: 'shop.example', subcommand: 'dns' },
        { at: at(3), target: 'Mixed.Example' },
        { at: at(4), target: 'old.example' },
        { at: at(5), target: 'ignored.example', subcommand: 'expiry' },
        { at: at(6), target: 'server.example', command: 'server', subcommand: 'logs' },
        { at: at(7), target: null },
        { at: at(8), target: 'under_score.example' },
        { at: at(9), target: 'underxscore.example' },
        { at: at(10), target: '4711', command: 'server', subcommand: 'logs' },
        { at: at(11), target: '4712', command: 'server', subcommand: 'rdns' },
        { at: at(12), target: '4711', command: 'server', subcommand: 'rdns' },
        { at: at(13), target: 'cancelled.example', subcommand: 'dns', outcome: 'cancelled' },
        { at: at(14), target: 'refused.example', outcome: 'refused' },
      ];
      for (const entry of entries) await store.audit.insert(auditEntry(entry));
    });

    it('distinct targets of those commands, most recent use first', async () => {
      expect(await store.audit.recentTargets(DOMAIN_COMMANDS, '', 25)).toEqual([
        'underxscore.example',
        'under_score.example',
        'old.example',
        'Mixed.Example',
        'shop.example',
      ]);
      expect(await store.audit.recentTargets([SERVER_LOGS, SERVER_RDNS], '47', 25)).toEqual(['4711', '4712']);
      expect(await store.audit.recentTargets([SERVER_LOGS], '', 25)).toEqual(['4711', 'server.example']);
    });

    it('filters by a case-insensitive substring, wildcards literal, and limits', async () => {
      expect(await store.audit.recentTargets(DOMAIN_COMMANDS, 'MIXED', 25)).toEqual(['Mixed.Example']);
      expect(await store.audit.recentTargets(DOMAIN_COMMANDS, 'r_s', 25)).toEqual(['under_score.example']);
      expect(await store.audit.recentTargets(DOMAIN_COMMANDS, '%', 25)).toEqual([]);
      expect(await store.audit.recentTargets(DOMAIN_COMMANDS, 'example', 2)).toEqual([
        'underxscore.example',
        'under_score.example',
      ]);
      expect(await store.audit.recentTargets([], '', 25)).toEqual([]);
    });

    it('only the outcomes asked for', async () => {
      const dns = { command: 'domain', subcommand: 'dns', outcomes: ['cancelled'] };
      expect(await store.audit.recentTargets([dns], '', 25)).toEqual(['cancelled.example']);
      expect(await store.audit.recentTargets(DOMAIN_COMMANDS, 'cancelled', 25)).toEqual([]);
      expect(await store.audit.recentTargets(DOMAIN_COMMANDS, 'refused', 25)).toEqual([]);
      const both = { command: 'domain', subcommand: 'info', outcomes: ['ok', 'refused'] };
      expect(await store.audit.recentTargets([both], '', 2)).toEqual([
        'refused.example',
        'underxscore.example',
      ]);
    });
  });
});
