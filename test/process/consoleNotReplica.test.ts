// A console session on the bot's PostgreSQL store holds a lease for what it sends, but it answers no
// Discord interaction: a lone bot that is stopping must not leave new interactions to it (they would go
// unanswered), and must tell the user to come back instead.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startConsoleProcess } from '../support/consoleProcess.js';
import { postgresProcessSetup } from '../support/postgresProcessSetup.js';
import {
  callbackType,
  isEphemeral,
  logged,
  messageOf,
  nth,
  PROCESS_ROLES,
  spawnBot,
  textOf,
  until,
} from '../support/spawnBot.js';

const setup = postgresProcessSetup('console_not_replica');

describe('a console session beside one bot (PostgreSQL)', () => {
  it('is alive in the store as a console, and a draining bot still answers new commands itself', async () => {
    const { fakes, store, databaseUrl } = setup;
    const { discord, api } = fakes;
    const bot = await spawnBot({
      discord,
      api,
      env: { DATABASE_URL: databaseUrl, SHUTDOWN_GRACE_MS: '20000' },
    });
    await bot.waitForLog(logged('gateway ready'), 20_000);

    const console = startConsoleProcess(['--as', 'viewer'], {
      cwd: mkdtempSync(join(tmpdir(), 'hostops-console-not-replica-')),
      env: { HOSTING_API_URL: api.url, HOSTING_API_TOKEN: api.token, DATABASE_URL: databaseUrl },
    });
    try {
      const roles = await until(
        async () => {
          const live = await store.replicas.live({ withinMs: 15_000 });
          return live.some((replica) => replica.role === 'console')
            ? live.map((r) => r.role).sort()
            : undefined;
        },
        'the console session in the store',
        15_000,
      );
      expect(roles).toEqual(['bot', 'console']);

      // A slow read keeps the bot draining for a while after SIGTERM.
      api.enqueue('serverLog', { delayMs: 3_000, body: { id: 7, type: 'backup', status: 'done' } });
      const slow = discord.dispatchInteraction({
        commandName: 'server',
        subcommand: 'logs',
        options: { id: 7 },
        roles: [PROCESS_ROLES.viewer],
      });
      await until(() => api.requestsFor('serverLog')[0], 'the slow read to reach the API', 5_000);
      bot.kill('SIGTERM');
      await bot.waitForLog(logged('shutting down'));

      const late = discord.dispatchInteraction({
        commandName: 'domain',
        subcommand: 'info',
        options: { domain: 'example.com' },
        roles: [PROCESS_ROLES.viewer],
      });
      const reply = await nth(discord, late, 0, 5_000);
      expect(callbackType(reply)).toBe(4);
      expect(isEphemeral(messageOf(reply))).toBe(true);
      expect(textOf(messageOf(reply))).toContain('HostOps is restarting; try again in a minute.');
      await nth(discord, slow, 1, 10_000);
      expect((await bot.exitWithin(20_000)).code).toBe(0);
    } finally {
      console.child.kill('SIGTERM');
    }
  }, 120_000);
});
