import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  confirmAndWait,
  deferredAnswer,
  embedsOf,
  fieldValue,
  idle,
  openPrompt,
} from '../support/e2eHelpers.js';
import { ROLES, startTestBot, type TestBot, tempDatabaseUrl } from '../support/startTestBot.js';

// The bot's clock is pinned to 2026-11-22T10:00:00Z; the sandbox it starts runs on the same clock.
const unix = (iso: string) => Date.parse(iso) / 1000;
const discordDate = (isoDate: string) => `<t:${unix(`${isoDate}T12:00:00Z`)}:D>`;

let t: TestBot;
// What the team's .env names: on the sandbox it is not used.
const databaseUrl = tempDatabaseUrl();
beforeAll(async () => {
  // A Discord token but no API credentials: HOSTING_API_TOKEN blank is unset.
  t = await startTestBot({ HOSTING_API_URL: 'sandbox', HOSTING_API_TOKEN: '', DATABASE_URL: databaseUrl });
});
afterAll(async () => {
  await t?.stop();
});

describe('the bot on HOSTING_API_URL=sandbox', () => {
  it('says once, as a warning, that the hosting API is the sandbox and the store a throwaway one', () => {
    expect(t.bot.router).toBeDefined();
    const warnings = t.logs
      .entries()
      .filter(
        (entry) =>
          entry.msg ===
          'hosting API: SANDBOX (no real changes); store: a throwaway one in memory (DATABASE_URL is not used)',
      );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.level).toBe(40);
  });

  it('answers /domain info for a sandbox domain with an embed, without the fake API', async () => {
    const i = t.command({
      commandName: 'domain',
      subcommand: 'info',
      options: { domain: 'bücher.example' },
      roles: [ROLES.viewer],
    });
    const { body } = await deferredAnswer(t, i);
    const [embed] = embedsOf(body);
    if (!embed) throw new Error('no embed');
    expect(embed.title).toBe('bücher.example');
    // Seeded 96 days after the pinned day.
    expect(fieldValue(embed, 'Expires')).toBe(`${discordDate('2027-02-26')} (in 96 days)`);
    expect(fieldValue(embed, 'Active')).toMatch(/yes/);
    // Said visibly, before anything else.
    expect(String(body.content)).toMatch(/^🧪 \*\*SANDBOX\*\* — made-up data/);
    expect(t.api.requests).toEqual([]);
  });

  it('a change on the sandbox says so in the prompt, the private outcome and the public record', async () => {
    const prompt = await openPrompt(t, {
      commandName: 'server',
      subcommand: 'rdns',
      options: { id: 42, ip: '203.0.113.7', hostname: 'host.example.com', validate: false },
    });
    expect(String(prompt.body.content)).toContain('**SANDBOX**');
    const done = await confirmAndWait(t, prompt);
    expect(String(done.privateEdit.content)).toContain('**SANDBOX**');
    expect(String(done.publicRecord.content)).toMatch(/^🧪 \*\*SANDBOX\*\*/);
    expect(String(done.publicRecord.content)).toContain('kept in a throwaway store of its own');
    expect(t.api.requests).toEqual([]);
  });

  it('keeps its records in a store of its own: the one DATABASE_URL names is never even created', async () => {
    await idle(t);
    expect(t.bot.store.engine).toBe('sqlite');
    expect(await t.bot.store.changes.listByState(['done'])).toHaveLength(1);
    expect(existsSync(databaseUrl.replace(/^sqlite:/, ''))).toBe(false);
  });
});
