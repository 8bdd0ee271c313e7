// Deadlines other processes rely on, through the fake Discord on both engines: a prompt past its deadline
// is expired by the sweep however many approval requests wait before it, and a form stays open for its
// time by the store's clock, whatever the local clock of the replica that takes its submit says.
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { type ChangeRecord, type NewChange, openStore, type Store } from '../../src/store/index.js';
import { CallbackType, callbackOf, idle, openPrompt, promptOf, str, textOf } from '../support/e2eHelpers.js';
import { createDatabase } from '../support/startPostgres.js';
import { ROLES, startTestBot, type TestBot, tempDatabaseUrl } from '../support/startTestBot.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const LICENSE = 'SECRETLICENSE-4321';

const engines = [
  { engine: 'sqlite', url: async (_label: string) => tempDatabaseUrl() },
  { engine: 'postgres', url: (label: string) => createDatabase(inject('postgresUrl'), label) },
] as const;

async function recordOf(store: Store, id: string): Promise<ChangeRecord> {
  const record = await store.changes.get(id);
  if (!record) throw new Error(`no change record ${id}`);
  return record;
}

/** An approval request someone made earlier, waiting out its seven days. */
function waitingApproval(n: number, now: number): NewChange {
  return {
    id: `waiting-approval-${n}`,
    operation: 'setReverseDns',
    command: '/server rdns',
    target: '203.0.113.7',
    parameters: { id: 42, ip: '203.0.113.7', hostname: `host-${n}.example.com` },
    preview: {},
    requestedById: '100000000000000001',
    requestedByName: 'alice',
    guildId: null,
    channelId: null,
    state: 'awaiting_approval',
    correlationId: `waiting-${n}`,
    createdAt: new Date(now - DAY + n),
    expiresAt: new Date(now + 7 * DAY),
    locale: 'en',
  };
}

describe.each(engines)('$engine', ({ engine, url }) => {
  it('a prompt past its deadline expires at the next sweep, behind 600 approval requests opened before it', async () => {
    const database = await url(`overdue_${engine}`);
    const before = await startTestBot({ DATABASE_URL: database });
    let after: TestBot | undefined;
    try {
      const prompt = await openPrompt(before, {
        commandName: 'panel',
        subcommand: 'bind',
        options: { license: LICENSE, ip: '203.0.113.9' },
      });
      const id = str(prompt.confirmId.split(':')[2]);
      await before.bot.stop(1_000);
      const offline = await openStore(database);
      try {
        const now = Date.now();
        for (let n = 0; n < 600; n++) await offline.changes.insert(waitingApproval(n, now));
        expect(
          await offline.changes.transition(id, 'pending', 'pending', { expiresAt: new Date(now - 1_000) }),
        ).toBe(true);
        expect(JSON.stringify((await recordOf(offline, id)).parameters)).toContain('"sealed"');
      } finally {
        await offline.close();
      }

      // Starting, a bot sweeps what ran out while none was running.
      after = await startTestBot({ DATABASE_URL: database }, { discord: before.discord, api: before.api });
      await idle(after);
      const expired = await recordOf(after.bot.store, id);
      expect(expired.state).toBe('expired');
      // Its sealed key went with it: only the mask is left.
      expect(expired.parameters.license).toBe('…4321');
      const { rows } = await after.bot.store.audit.query({ outcome: 'expired' }, { limit: 10, offset: 0 });
      expect(rows.map((row) => row.changeId)).toEqual([id]);
      // The approval requests, whose deadlines are days away, still wait.
      expect((await recordOf(after.bot.store, 'waiting-approval-599')).state).toBe('awaiting_approval');
      expect(after.api.requests).toHaveLength(0);
    } finally {
      await after?.stop();
      await Promise.all([before.discord.stop(), before.api.stop()]);
    }
  }, 120_000);

  describe('a form opened on one replica and submitted on another whose clock runs ahead', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('is still open: its 14 minutes are counted by the store clock', async () => {
      const t = await startTestBot({ DATABASE_URL: await url(`form_clock_${engine}`) });
      try {
        const command = t.command({
          commandName: 'domain',
          subcommand: 'dns',
          options: { domain: 'clock.example' },
        });
        const modal = await callbackOf(t, command);
        expect(modal.type).toBe(CallbackType.modal);
        await idle(t);
        // A minute after it opened by the store's clock, 15 by this replica's (Date only: timers run on).
        vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 15 * MINUTE, shouldAdvanceTime: true });
        const submit = t.discord.dispatchModalSubmit({
          customId: str(modal.data.custom_id),
          fields: { records: 'www 3600 A 203.0.113.7' },
          roles: [ROLES.operator],
        });
        expect(textOf((await callbackOf(t, submit)).data)).not.toMatch(/no longer open|closed/);
        const prompt = await promptOf(t, submit);
        expect(textOf(prompt.body)).toContain('www 3600 A 203.0.113.7');
        await idle(t);
        expect(t.api.requests).toHaveLength(0);
      } finally {
        vi.useRealTimers();
        await t.stop();
      }
    }, 120_000);
  });
});
