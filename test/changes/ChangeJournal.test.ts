// The change journal over a real store, on both engines: the overdue sweep's read reaches every change past
// its deadline, however many others wait.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ChangeJournal, type JournalledChange, type Requester } from '../../src/changes/ChangeJournal.js';
import { SecretSeal } from '../../src/changes/SecretSeal.js';
import type { ChangeOperation } from '../../src/hosting/operations.js';
import { type ChangeRecord, type NewChange, openStore, type Store } from '../../src/store/index.js';
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
    expect(await journal.close(await stored(prompt.id), SPEC, 'expired')).toBe(true);
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
      if (record.state === 'pending') await journal.close(record, SPEC, 'expired');
    }
    expect(read[0]).toBe(request.id);
    expect(read.slice(1).sort()).toEqual([...due].sort());
    expect(new Set(read).size).toBe(read.length);
  });
});
