import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ephemeralReply } from '../support/e2eHelpers.js';
import { ROLES, startTestBot, type TestBot } from '../support/startTestBot.js';

/**
 * Discord's clients keep options within a definition's limits; a raw API caller need not. The router
 * checks every limit the definition declares, before any handler, with no API call.
 */
let t: TestBot;
beforeAll(async () => {
  t = await startTestBot();
});
afterAll(async () => {
  await t?.stop();
});
beforeEach(() => {
  t.api.reset();
});

describe('option limits from the definitions', () => {
  it('/domain expiry within is 0–3650 days', async () => {
    const text = await ephemeralReply(
      t,
      t.command({
        commandName: 'domain',
        subcommand: 'expiry',
        options: { domains: 'example.com', within: 3651 },
      }),
    );
    expect(text).toBe('`within`: 3651 is out of range. Expected a whole number from 0 to 3650.');
    expect(t.api.requests).toHaveLength(0);
  });

  it('a server id below 1, and a music-bot count above 1000', async () => {
    const logs = await ephemeralReply(
      t,
      t.command({ commandName: 'server', subcommand: 'logs', options: { id: 0 } }),
    );
    expect(logs).toMatch(/^`id`: 0 is out of range\. Expected a whole number from 1 to 9007199254740991\.$/);
    const bots = await ephemeralReply(
      t,
      t.command({
        commandName: 'musicbot',
        subcommand: 'create',
        roles: [ROLES.operator],
        options: { username: 'dj', email: 'dj@example.com', storage: '10GiB', bots: 1001 },
      }),
    );
    expect(bots).toBe('`bots`: 1001 is out of range. Expected a whole number from 1 to 1000.');
    expect(t.api.requests).toHaveLength(0);
  });

  it('text longer than max_length, counted in characters', async () => {
    const domains = Array.from({ length: 660 }, (_, n) => `d${String(n).padStart(5, '0')}.de`).join(' ');
    expect([...domains].length).toBe(6599);
    const text = await ephemeralReply(
      t,
      t.command({ commandName: 'domain', subcommand: 'expiry', options: { domains } }),
    );
    expect(text).toBe('`domains`: is 6,599 characters long. Expected at most 6000 characters.');
    expect(t.api.requests).toHaveLength(0);
  });
});
