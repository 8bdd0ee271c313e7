// Issue 43 at the journal, on both engines: a replica's own `sending` rows that none of its sends holds
// are swept by itself (not only by others); what was never handed to the connection ends `failed`, never
// sent, and what was ends `unknown`; either way the target's sending slot is free again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { EndState } from '../../src/changes/ChangeEnds.js';
import { ChangeJournal, type JournalledChange, type Requester } from '../../src/changes/ChangeJournal.js';
import { SecretSeal } from '../../src/changes/SecretSeal.js';
import type { ChangeOperation } from '../../src/hosting/operations.js';
import { type ChangeRecord, openStore, type Store } from '../../src/store/index.js';
import { endedOf } from '../support/endedOf.js';
import { createDatabase } from '../support/startPostgres.js';

const tmp = mkdtempSync(join(tmpdir(), 'hostops-own-sweep-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const engines = [
  { engine: 'sqlite', url: async () => `sqlite:${join(tmp, 'own.db')}` },
  { engine: 'postgres', url: () => createDatabase(inject('postgresUrl'), 'own_sweep') },
] as const;

// Checked again before sending: one `sending` change per target at a time (the slot).
const SPEC: JournalledChange = { operation: 'submitDnsRecords' as ChangeOperation, recheck: true };
const PREVIEW = { title: 'DNS', fields: [] };
const REQUESTER: Requester = {
  id: '100000000000000001',
  name: 'alice',
  guildId: null,
  channelId: null,
  locale: 'en',
};

/** Each swept change's audit row, as the sweep writes it with the change's end. */
const ending = (record: ChangeRecord) => endedOf(record, record.state as EndState, 'swept');

describe.each(engines)('$engine: a replica sweeps its own stray sends', ({ url }) => {
  let store: Store;
  let journal: ChangeJournal;
  beforeAll(async () => {
    store = await openStore(await url());
    journal = new ChangeJournal(store, () => new Date(), 60_000, 'replica-a', new SecretSeal('token'));
  });
  afterAll(() => store.close());

  const open = (target: string) =>
    journal.open(
      '/domain dns',
      SPEC,
      { parameters: { target }, target, recorded: { en: PREVIEW, de: PREVIEW } },
      REQUESTER,
      `corr-${target}`,
    );

  it('held sends are left alone; released ones end failed (never handed over) or unknown (handed over)', async () => {
    const notHanded = await open('a.example');
    const handed = await open('b.example');
    const kept = await open('c.example');
    for (const record of [notHanded, handed, kept]) expect(await journal.claim(record, SPEC)).toBe('claimed');
    expect(await journal.handOver(handed)).toBe(true);
    // This replica is alive and holds all three: its sweep takes none.
    expect(await journal.ends.orphans(['replica-a'], ending)).toEqual([]);
    // The slot of a held send is taken.
    expect(await journal.claim(await open('a.example'), SPEC)).toBe('busy');
    // Two settles the store would not take (given up): the sweep of this same replica ends them.
    journal.release(notHanded.id);
    journal.release(handed.id);
    const swept = await journal.ends.orphans(['replica-a'], ending);
    expect(swept.map((r) => [r.target, r.state, r.result]).sort()).toEqual([
      ['a.example', 'failed', { reason: 'the replica sending it stopped', sent: false }],
      ['b.example', 'unknown', { reason: 'the replica sending it stopped' }],
    ]);
    expect((await store.changes.get(kept.id))?.state).toBe('sending');
    // Each end landed with its one audit row (one transaction).
    const { rows } = await store.audit.query({ command: 'domain' }, { limit: 50, offset: 0 });
    expect(
      rows
        .filter((row) => row.changeId === notHanded.id || row.changeId === handed.id)
        .map((row) => [row.target, row.outcome])
        .sort(),
    ).toEqual([
      ['a.example', 'failed'],
      ['b.example', 'unknown'],
    ]);
    // Once: a second sweep finds nothing; and the slot is free for the next change to the domain.
    expect(await journal.ends.orphans(['replica-a'], ending)).toEqual([]);
    expect(await journal.claim(await open('a.example'), SPEC)).toBe('claimed');
    // The one still held settles as it should.
    expect(await journal.ends.settle(kept, 'sending', 'done', {}, endedOf(kept, 'done'))).toBe(true);
  });

  it('a claim the store could not decide is not won (and, if it landed, the sweep frees its slot)', async () => {
    const record = await open('d.example');
    // The claim lands, its answer is lost: modelled by the store answering with an error after it.
    const failing: Store = {
      ...store,
      changes: {
        ...store.changes,
        transition: async (...args: Parameters<Store['changes']['transition']>) => {
          await store.changes.transition(...args);
          throw new Error('connection terminated');
        },
      },
    };
    const undecided = new ChangeJournal(
      failing,
      () => new Date(),
      60_000,
      'replica-b',
      new SecretSeal('token'),
    );
    expect(await undecided.claim(record, SPEC)).toBe('undecided');
    expect((await store.changes.get(record.id))?.state).toBe('sending');
    const swept = await undecided.ends.orphans(['replica-a', 'replica-b'], ending);
    expect(swept.map((r) => [r.id, r.state])).toEqual([[record.id, 'failed']]);
    expect(await journal.claim(await open('d.example'), SPEC)).toBe('claimed');
  });
});
