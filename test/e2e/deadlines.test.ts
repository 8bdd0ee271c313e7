// Deadlines other processes rely on, through the fake Discord on both engines: a form stays open for its
// time by the store's clock, whatever the local clock of the replica that takes its submit says.
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { CallbackType, callbackOf, idle, promptOf, str, textOf } from '../support/e2eHelpers.js';
import { createDatabase } from '../support/startPostgres.js';
import { ROLES, startTestBot, tempDatabaseUrl } from '../support/startTestBot.js';

const MINUTE = 60_000;

const engines = [
  { engine: 'sqlite', url: async (_label: string) => tempDatabaseUrl() },
  { engine: 'postgres', url: (label: string) => createDatabase(inject('postgresUrl'), label) },
] as const;

describe.each(engines)('$engine', ({ engine, url }) => {
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
          fields: { text: 'www 3600 A 203.0.113.7' },
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
    }, 30_000);
  });
});
