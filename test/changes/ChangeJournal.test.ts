// The change journal over a real store, on both engines: sealed secrets open only in the record and field
// they were typed for, and the overdue sweep's read reaches every change past its deadline, however many
// others wait.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ChangeJournal, type JournalledChange, type Requester } from '../../src/changes/ChangeJournal.js';
import { isSealed, SecretSeal } from '../../src/changes/SecretSeal.js';
import type { ChangeOperation } from '../../src/hosting/operations.js';
import { UserError } from '../../src/replies/UserError.js';
import { type ChangeRecord, type NewChange, openStore, type Store } from '../../src/store/index.js';
import { endedOf } from '../support/endedOf.js';
import { createDatabase } from '../support/startPostgres.js';

const tmp = mkdtempSync(join(tmpdir(), 'hostops-journal-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const engines = [
  { engine: 'sqlite', url: async () => `sqlite:${join(tmp, 'journal.db')}` },
  { engine: 'postgres', url: () => createDatabase(inject('postgresUrl'), 'journal') },
] as const;

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const TOKEN = 'the hosting api token';
const SPEC: JournalledChange = {
  operation: 'bindPanelLicense' as ChangeOperation,
  secrets: ['license', 'spare'],
};
const PREVIEW = { title: 'Bind the panel license', fields: [] };
const REQUESTER: Requester = {
  id: '100000000000000001',
  name: 'alice',
  guildId: '300000000000000001',
  channelId: '400000000000000001',
  locale: 'en',
};

describe.each(engines)('$engine ChangeJournal', ({ url }) => {
  let store: Store;
  let journal: ChangeJournal;
  beforeAll(async () => {
    store = await openStore(await url());
    journal = new ChangeJournal(store, () => new Date(), 15 * MINUTE, 'replica-a', new SecretSeal(TOKEN));
  });
  afterAll(() => store.close());

  const open = (parameters: Record<string, unknown>) =>
    journal.open(
      '/panel bind',
      SPEC,
      { parameters, target: 'panel', recorded: { en: PREVIEW, de: PREVIEW } },
      REQUESTER,
      'corr',
    );
  const stored = async (id: string): Promise<ChangeRecord> => {
    const record = await store.changes.get(id);
    if (!record) throw new Error(`no record ${id}`);
    return record;
  };
  /** Rewrites a pending record's parameters, as whoever can write the store could. */
  const rewrite = async (id: string, parameters: Record<string, unknown>) => {
    expect(await store.changes.transition(id, 'pending', 'pending', { parameters })).toBe(true);
    return stored(id);
  };
  const unreadable = (record: ChangeRecord, option: string) => {
    let thrown: unknown;
    try {
      journal.sendable(record, SPEC);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UserError);
    expect((thrown as UserError).text).toEqual({ key: 'changes.secret_unreadable', params: { option } });
  };

  it('keeps a secret sealed in its record and opens it there for the send', async () => {
    const record = await stored((await open({ license: 'LICENSE-AAAA-1111', ip: '203.0.113.9' })).id);
    expect(JSON.stringify(record)).not.toContain('LICENSE-AAAA');
    expect(record.parameters.license).toMatchObject({
      mask: '…1111',
      sealed: expect.stringMatching(/^v2\./),
    });
    expect(journal.sendable(record, SPEC)).toEqual({ license: 'LICENSE-AAAA-1111', ip: '203.0.113.9' });
  });

  it('a sealed secret moved to another record does not open there: nothing can be sent with it', async () => {
    const mine = await stored((await open({ license: 'LICENSE-MINE-2222', ip: '203.0.113.9' })).id);
    const theirs = await open({ license: 'LICENSE-THEIRS-3333', ip: '198.51.100.66' });
    const moved = await rewrite(theirs.id, { ...theirs.parameters, license: mine.parameters.license });
    unreadable(moved, 'license');
    // Where it belongs it still opens.
    expect(journal.sendable(mine, SPEC).license).toBe('LICENSE-MINE-2222');
  });

  it('a sealed secret moved to another field of its own record does not open there', async () => {
    const record = await stored((await open({ license: 'LICENSE-FIELD-4444', spare: 'SPARE-5555' })).id);
    const moved = await rewrite(record.id, {
      license: record.parameters.spare,
      spare: record.parameters.spare,
    });
    unreadable(moved, 'license');
    const swapped = await rewrite(record.id, {
      license: record.parameters.spare,
      spare: record.parameters.license,
    });
    unreadable(swapped, 'license');
  });

  it('a secret sealed before the binding (v1) fails the send, saying so', async () => {
    const record = await stored((await open({ license: 'LICENSE-OLD0-6666' })).id);
    const sealed = record.parameters.license;
    if (!isSealed(sealed)) throw new Error('not sealed');
    const legacy = await rewrite(record.id, {
      license: { ...sealed, sealed: sealed.sealed.replace(/^v2/, 'v1') },
    });
    unreadable(legacy, 'license');
  });

  it('overdue: a prompt past its deadline is found behind 600 open approvals created before it', async () => {
    const now = Date.now();
    const approval = (n: number): NewChange => ({
      id: `approval-${n}`,
      operation: 'bindPanelLicense',
      command: '/panel bind',
      target: 'panel',
      parameters: { ip: '203.0.113.9' },
      preview: {},
      requestedById: REQUESTER.id,
      requestedByName: REQUESTER.name,
      guildId: REQUESTER.guildId,
      channelId: REQUESTER.channelId,
      state: 'awaiting_approval',
      correlationId: `approval-${n}`,
      createdAt: new Date(now - DAY + n),
      expiresAt: new Date(now + 7 * DAY),
      locale: 'en',
    });
    for (let n = 0; n < 600; n++) await store.changes.insert(approval(n));
    const prompt = await open({ license: 'LICENSE-LATE-7777' });
    await store.changes.transition(prompt.id, 'pending', 'pending', { expiresAt: new Date(now - 1_000) });

    const overdue: string[] = [];
    for await (const record of journal.overdue()) overdue.push(record.id);
    expect(overdue).toEqual([prompt.id]);
    const due = await stored(prompt.id);
    expect(await journal.ends.close(due, SPEC, 'expired', endedOf(due, 'expired'))).toBe(true);
    const expired = await stored(prompt.id);
    expect(expired.state).toBe('expired');
    // Its secret went with it.
    expect(expired.parameters.license).toBe('…7777');
  });

  it('overdue: pages through every due change, each once, while the caller ends them', async () => {
    // More than two pages, all with one deadline, so pages end between equal deadlines.
    const deadline = new Date(Date.now() - MINUTE);
    const due: string[] = [];
    for (let n = 0; n < 205; n++) {
      const record = await open({ license: `LICENSE-PAGE-${1000 + n}` });
      await store.changes.transition(record.id, 'pending', 'pending', { expiresAt: deadline });
      due.push(record.id);
    }
    // One that ran out of time earlier, already an approval request.
    const request = await open({ license: 'LICENSE-REQU-8888' });
    await store.changes.transition(request.id, 'pending', 'awaiting_approval', {
      expiresAt: new Date(deadline.getTime() - MINUTE),
    });

    const read: string[] = [];
    for await (const record of journal.overdue()) {
      read.push(record.id);
      if (record.state === 'pending')
        await journal.ends.close(record, SPEC, 'expired', endedOf(record, 'expired'));
    }
    expect(read[0]).toBe(request.id);
    expect(read.slice(1).sort()).toEqual([...due].sort());
    expect(new Set(read).size).toBe(read.length);
  });
});
