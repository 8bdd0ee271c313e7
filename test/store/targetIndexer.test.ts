// SQLite's trigram index of audit targets is filled in batches (migration 0013, targetIndexer.ts): an
// entry's insert no longer writes the index, a search still finds the entry at once, and entries a
// stopped process left unindexed are indexed by the next start.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { TARGET_INDEX_DELAY_MS } from '../../src/store/targetIndexer.js';

const entry = (target: string | null, n: number) => ({
  at: new Date(1_795_000_000_000 + n),
  userId: '100000000000000001',
  userName: 'ops',
  guildId: null,
  channelId: null,
  command: 'domain',
  subcommand: 'info',
  target,
  outcome: 'ok',
  detail: null,
  correlationId: `cid-${n}`,
  durationMs: 1,
  parameters: null,
  changeId: null,
});

function indexedIds(path: string): number[] {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db.prepare('select id from audit_target_search_docsize order by id').all() as {
      id: number;
    }[];
    return rows.map((row) => row.id);
  } finally {
    db.close();
  }
}

const found = async (store: Store, target: string) =>
  (await store.audit.query({ target }, { limit: 10, offset: 0 })).rows.map((row) => row.target);

describe('audit targets indexed in batches (SQLite)', () => {
  const stores: Store[] = [];
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });
  const open = async (path: string) => {
    const store = await openStore(`sqlite:${path}`);
    stores.push(store);
    return store;
  };

  it('an insert leaves the index alone; the entry is found at once, and indexed with the others later', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'hostops-index-')), 'hostops.db');
    const store = await open(path);
    const ids = [
      await store.audit.insert(entry('alpha.example.com', 1)),
      await store.audit.insert(entry(null, 2)),
      await store.audit.insert(entry('server 42 203.0.113.7', 3)),
    ];
    expect(indexedIds(path)).toEqual([]);
    expect(await found(store, 'ALPHA.exa')).toEqual(['alpha.example.com']);
    expect(await found(store, '203.0.113')).toEqual(['server 42 203.0.113.7']);

    await sleep(TARGET_INDEX_DELAY_MS + 500);
    // One batch: every entry with a target, none without.
    expect(indexedIds(path)).toEqual([ids[0], ids[2]]);
    expect(await found(store, 'alpha.example')).toEqual(['alpha.example.com']);
    expect(await found(store, 'example.org')).toEqual([]);
  });

  it('entries a stopped process left unindexed are indexed by the next start', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'hostops-index-')), 'hostops.db');
    await (await openStore(`sqlite:${path}`)).close();
    // As if a process had written them and died before its batch.
    const raw = new Database(path);
    raw
      .prepare(
        `insert into audit (at, user_id, user_name, command, subcommand, target, outcome, correlation_id, duration_ms)
         values (?, 'u', 'ops', 'domain', 'info', ?, 'ok', ?, 1)`,
      )
      .run(1_795_000_000_000, 'left.example.com', 'cid-left');
    raw.close();
    expect(indexedIds(path)).toEqual([]);

    const store = await open(path);
    expect(await found(store, 'left.example')).toEqual(['left.example.com']);
    await sleep(TARGET_INDEX_DELAY_MS + 500);
    expect(indexedIds(path)).toHaveLength(1);
  });

  it('closing indexes what is pending', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'hostops-index-')), 'hostops.db');
    const store = await openStore(`sqlite:${path}`);
    const id = await store.audit.insert(entry('closing.example.com', 1));
    await store.close();
    expect(indexedIds(path)).toEqual([id]);
  });
});
