// Everything that has to wait on a clock: prompt expiry (CONFIRM_TIMEOUT_S, at least 10 s per src/config.ts),
// the hosting API timeout (3 s in startTestBot) and a 5-second API delay. Each test has a bot of its own and
// they run concurrently, so this file takes about as long as its slowest test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  arr,
  CallbackType,
  callbackOf,
  confirmAndWait,
  deferredAnswer,
  dig,
  embedsOf,
  ephemeralReply,
  expectNoTokensLeaked,
  openPrompt,
  press,
  rec,
  settle,
  str,
  textOf,
  waitUntil,
} from '../support/e2eHelpers.js';
import { ROLES, startTestBot, type TestBot } from '../support/startTestBot.js';

const CONFIRM_TIMEOUT_S = 10;
const REFERENCE = /Reference: `[0-9a-f]{10}`/;

const bots: { expiring?: TestBot; slow?: TestBot; hanging?: TestBot } = {};
const bot = (name: keyof typeof bots): TestBot => {
  const found = bots[name];
  if (!found) throw new Error(`bot ${name} did not start`);
  return found;
};

beforeAll(async () => {
  [bots.expiring, bots.slow, bots.hanging] = await Promise.all([
    startTestBot({ CONFIRM_TIMEOUT_S: String(CONFIRM_TIMEOUT_S) }),
    startTestBot({ HOSTING_API_TIMEOUT_MS: '8000' }),
    startTestBot(),
  ]);
});
afterAll(async () => {
  await Promise.all(Object.values(bots).map((b) => b?.stop()));
});

describe.concurrent('timing', () => {
  it(
    'an unanswered prompt expires: edited with disabled buttons, nothing sent, a late Confirm is refused',
    async () => {
      const t = bot('expiring');
      const expiring = await openPrompt(t, {
        commandName: 'domain',
        subcommand: 'register',
        options: { domain: 'example.org', ns1: 'ns1.example.net', ns2: 'ns2.example.net' },
        roles: [ROLES.admin],
      });
      const openedAt = performance.now();
      // The prompt says when it expires.
      const expiresAt = Number(/<t:(\d+):R>/.exec(String(expiring.embed.description))?.[1]);
      expect(Math.abs(expiresAt * 1000 - (Date.now() + CONFIRM_TIMEOUT_S * 1000))).toBeLessThan(2_000);

      // Meanwhile another prompt is confirmed in time: the expiry must not touch it later.
      const confirmed = await openPrompt(t, {
        commandName: 'panel',
        subcommand: 'bind',
        options: { license: 'ABCD-1234', ip: '203.0.113.7' },
      });
      const done = await confirmAndWait(t, confirmed);
      expect(t.api.requestsFor('bindPanelLicense')).toHaveLength(1);

      const edit = await t.nth(expiring.interaction, 1, (CONFIRM_TIMEOUT_S + 5) * 1000);
      expect(performance.now() - openedAt).toBeGreaterThan(CONFIRM_TIMEOUT_S * 1000 - 500);
      expect(edit.method).toBe('PATCH');
      expect(edit.path).toBe(
        `/webhooks/${t.discord.applicationId}/${expiring.interaction.token}/messages/@original`,
      );
      const body = rec(edit.body);
      expect(textOf(body)).toMatch(/Expired — nothing was sent/);
      const buttons = arr(dig(body, 'components', 0, 'components')).map((b) => rec(b));
      expect(buttons.map((b) => b.label)).toEqual(['Confirm', 'Cancel']);
      expect(buttons.every((b) => b.disabled === true)).toBe(true);
      // What the channel shows now: the prompt message itself carries the disabled buttons.
      const message = t.discord.getMessage(expiring.messageId);
      expect(JSON.stringify(message?.components)).toContain('"disabled":true');
      expect(t.api.requestsFor('createDomain')).toHaveLength(0);

      const late = press(t, expiring, 'confirm');
      expect(await ephemeralReply(t, late)).toMatch(/no longer open/);
      const lateCancel = press(t, expiring, 'cancel');
      expect(await ephemeralReply(t, lateCancel)).toMatch(/no longer open/);
      await settle();
      expect(t.api.requestsFor('createDomain')).toHaveLength(0);

      // The confirmed prompt got its three answers and nothing more.
      expect(t.discord.requestsFor(done.click)).toHaveLength(3);
      expect(t.discord.requestsFor(confirmed.interaction)).toHaveLength(1);
      expect(t.api.requests).toHaveLength(1);
    },
    (CONFIRM_TIMEOUT_S + 10) * 1000,
  );

  it('a 5 s API delay is still acknowledged within Discord’s 3 s deadline, for a read and a Confirm', async () => {
    const t = bot('slow');
    const prompt = await openPrompt(t, {
      commandName: 'server',
      subcommand: 'rdns',
      options: { id: 1, ip: '203.0.113.7', hostname: 'host.example.com' },
    });
    t.api.latencyMs = 5_000;
    const read = t.command({ commandName: 'domain', subcommand: 'info', options: { domain: 'example.com' } });
    const click = press(t, prompt, 'confirm');

    const [ack, clickAck] = await Promise.all([t.nth(read, 0), t.nth(click, 0)]);
    expect(rec(ack.body).type).toBe(CallbackType.defer);
    expect(ack.at - read.dispatchedAt).toBeLessThan(3_000);
    expect(rec(clickAck.body).type).toBe(CallbackType.update);
    expect(clickAck.at - click.dispatchedAt).toBeLessThan(3_000);

    const [edit, outcome] = await Promise.all([t.nth(read, 1, 9_000), t.nth(click, 1, 9_000)]);
    expect(edit.at - read.dispatchedAt).toBeGreaterThanOrEqual(4_900);
    expect(embedsOf(rec(edit.body))[0]?.title).toBe('example.com');
    expect(textOf(rec(outcome.body))).toMatch(/Reverse DNS set/);
    await waitUntil(() => t.discord.requestsFor(click).length === 3, 'the public record');
    expect(t.api.requests).toHaveLength(2);
    expect(str(rec(t.discord.requestsFor(click)[2]?.body).content)).toContain('host.example.com');
  }, 15_000);

  it('a read that hangs past the 3 s timeout → "no answer within 3 s", deferred at once', async () => {
    const t = bot('hanging');
    t.api.enqueue('domainInfo', { hang: true });
    const i = t.command({ commandName: 'domain', subcommand: 'info', options: { domain: 'hang.example' } });
    const { ack, edit, body } = await deferredAnswer(t, i, 6_000);
    expect(ack.at - i.dispatchedAt).toBeLessThan(1_000);
    expect(edit.at - i.dispatchedAt).toBeGreaterThanOrEqual(2_900);
    expect(edit.at - i.dispatchedAt).toBeLessThan(4_500);
    expect(textOf(body)).toMatch(/No answer from the provider within 3 s/);
    expect(textOf(body)).toMatch(REFERENCE);
    expect(t.api.requestsFor('domainInfo').filter((r) => r.param === 'hang.example')).toHaveLength(1);
  });

  it('a POST that hangs past the timeout → outcome unknown, no answer within 3 s, one call', async () => {
    const t = bot('hanging');
    t.api.enqueue('bindPanelLicense', { hang: true });
    const prompt = await openPrompt(t, {
      commandName: 'panel',
      subcommand: 'bind',
      options: { license: 'ABCD-1234', ip: '203.0.113.7' },
    });
    const click = press(t, prompt, 'confirm');
    expect((await callbackOf(t, click)).type).toBe(CallbackType.update);
    const edit = await t.nth(click, 1, 6_000);
    const text = textOf(rec(edit.body));
    expect(text).toMatch(/\*\*Outcome unknown\*\* — no answer within 3 s/);
    expect(text).toMatch(/Check with the provider before trying again/);
    expect(text).toMatch(REFERENCE);
    await settle();
    expect(t.api.requestsFor('bindPanelLicense')).toHaveLength(1);
    // No public record for a change whose outcome is unknown.
    expect(t.discord.requestsFor(click)).toHaveLength(2);
  });
});

it('never puts a token in a log line or a Discord message', () => {
  for (const name of ['expiring', 'slow', 'hanging'] as const) {
    expect(bot(name).discord.requests.length).toBeGreaterThan(0);
    expectNoTokensLeaked(bot(name));
  }
});
