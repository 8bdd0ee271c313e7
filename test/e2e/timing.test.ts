// Everything that has to wait on a clock: prompt expiry (CONFIRM_TIMEOUT_S, at least 10 s per src/config.ts),
// the hosting API timeout (3 s in startTestBot) and a 5-second API delay. The tests run concurrently (the
// two expiry tests share a bot), so this file takes about as long as its slowest test. Times are checked
// from below against the configured timeouts (nothing ends early) and Discord's deadline by order (the
// acknowledgement before the provider's answer) — never against wall-clock limits a loaded machine could
// miss.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeRecord } from '../../src/store/index.js';
import {
  arr,
  CallbackType,
  callbackOf,
  confirmAndWait,
  dig,
  embedsOf,
  ephemeralReply,
  expectNoTokensLeaked,
  idle,
  openPrompt,
  press,
  publicAnswer,
  rec,
  str,
  textOf,
  waitUntil,
} from '../support/e2eHelpers.js';
import { ROLES, startTestBot, type TestBot } from '../support/startTestBot.js';

const CONFIRM_TIMEOUT_S = 10;
/** HOSTING_API_TIMEOUT_MS of startTestBot. */
const API_TIMEOUT_MS = 3_000;
const REFERENCE = /Reference: `[0-9a-f]{10}`/;
const AUDIT_CHANNEL = '500000000000000043';
const LEFT_ALONE_LICENSE = 'SECRETLICENSE-5555';

const bots: { expiring?: TestBot; slow?: TestBot; hanging?: TestBot } = {};
const bot = (name: keyof typeof bots): TestBot => {
  const found = bots[name];
  if (!found) throw new Error(`bot ${name} did not start`);
  return found;
};

beforeAll(async () => {
  [bots.expiring, bots.slow, bots.hanging] = await Promise.all([
    startTestBot({ CONFIRM_TIMEOUT_S: String(CONFIRM_TIMEOUT_S), AUDIT_CHANNEL_ID: AUDIT_CHANNEL }),
    startTestBot({ HOSTING_API_TIMEOUT_MS: '8000' }),
    startTestBot(),
  ]);
  bots.expiring.discord.addChannel({ id: AUDIT_CHANNEL });
});
afterAll(async () => {
  await Promise.all(Object.values(bots).map((b) => b?.stop()));
});

describe.concurrent('timing', () => {
  it('an unanswered prompt expires: edited with disabled buttons, nothing sent, a late Confirm is refused', async () => {
    const t = bot('expiring');
    const before = Date.now();
    const expiring = await openPrompt(t, {
      commandName: 'domain',
      subcommand: 'register',
      options: { domain: 'example.org', ns1: 'ns1.example.net', ns2: 'ns2.example.net' },
      roles: [ROLES.admin],
    });
    // The prompt's record, and its expiry, began after this (the bot got the command then).
    const openedAt = expiring.interaction.dispatchedAt;
    // The prompt says when it expires: CONFIRM_TIMEOUT_S after it was opened (in whole seconds).
    const expiresAt = Number(/<t:(\d+):R>/.exec(String(expiring.embed.description))?.[1]);
    expect(expiresAt * 1000).toBeGreaterThan(before + CONFIRM_TIMEOUT_S * 1000 - 1_000);
    expect(expiresAt * 1000).toBeLessThanOrEqual(Date.now() + CONFIRM_TIMEOUT_S * 1000);

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
    await idle(t);
    expect(t.api.requestsFor('createDomain')).toHaveLength(0);

    // The confirmed prompt got its three answers and nothing more.
    expect(t.discord.requestsFor(done.click)).toHaveLength(3);
    expect(t.discord.requestsFor(confirmed.interaction)).toHaveLength(1);
    expect(t.api.requests).toHaveLength(1);

    // Counted as expired, with how long it was open.
    const metrics = await t.bot.metrics.registry.metrics();
    expect(metrics).toContain('hostops_commands_total{command="/domain register",outcome="expired"} 1');
    const labels = 'command="/domain register",outcome="expired"';
    expect(metrics).toContain(`hostops_command_duration_seconds_count{${labels}} 1`);
    const seconds = Number(
      new RegExp(`^hostops_command_duration_seconds_sum\\{${labels}\\} (\\S+)$`, 'm').exec(metrics)?.[1],
    );
    expect(seconds).toBeGreaterThan(CONFIRM_TIMEOUT_S - 0.5);
  }, 120_000);

  it('a prompt left alone: its record ends expired with the license masked, one audit row and one audit line', async () => {
    const t = bot('expiring');
    const userId = '700000000000009901';
    const prompt = await openPrompt(t, {
      commandName: 'panel',
      subcommand: 'bind',
      options: { license: LEFT_ALONE_LICENSE, ip: '203.0.113.9' },
      userId,
    });
    // Before the prompt's record (and its expiry's count) began: the command's dispatch.
    const opened = prompt.interaction.dispatchedAt;
    const edit = await t.nth(prompt.interaction, 1, (CONFIRM_TIMEOUT_S + 5) * 1000);
    expect(edit.method).toBe('PATCH');
    expect(edit.path).toBe(
      `/webhooks/${t.discord.applicationId}/${prompt.interaction.token}/messages/@original`,
    );
    expect(edit.at - opened).toBeGreaterThan(CONFIRM_TIMEOUT_S * 1000 - 500);
    const body = rec(edit.body);
    expect(textOf(body)).toContain('Expired — nothing was sent. Run the command again.');
    expect(textOf(body)).toContain('…5555');
    expect(JSON.stringify(body)).not.toContain(LEFT_ALONE_LICENSE);
    await idle(t);

    const id = str(prompt.confirmId.split(':')[2]);
    const record = (await t.bot.store.changes.get(id)) as ChangeRecord;
    expect(record.state).toBe('expired');
    expect(record.expiresAt.getTime() - record.createdAt.getTime()).toBe(CONFIRM_TIMEOUT_S * 1000);
    expect(record.parameters).toEqual({ license: '…5555', ip: '203.0.113.9' });
    expect(JSON.stringify(record)).not.toContain(LEFT_ALONE_LICENSE);
    const { rows } = await t.bot.store.audit.query({}, { limit: 100, offset: 0 });
    const mine = rows.filter((row) => row.changeId === id);
    expect(mine.map((row) => row.outcome)).toEqual(['expired']);
    expect(mine[0]?.userId).toBe(userId);
    expect(JSON.stringify(mine)).not.toContain(LEFT_ALONE_LICENSE);
    const lines = t.discord.requests.filter(
      (r) =>
        r.method === 'POST' &&
        r.path === `/channels/${AUDIT_CHANNEL}/messages` &&
        str(rec(r.body).content).includes(`<@${userId}>`),
    );
    expect(lines).toHaveLength(1);
    const line = rec(lines[0]?.body);
    expect(line.allowed_mentions).toEqual({ parse: [] });
    expect(str(line.content)).toContain('**expired**');
    expect(str(line.content)).toContain('`/panel bind`');
    expect(str(line.content)).not.toContain(LEFT_ALONE_LICENSE);
    expect(t.discord.requestsFor(prompt.interaction)).toHaveLength(2);
    expect(t.logs.text).not.toContain(LEFT_ALONE_LICENSE);
  }, 120_000);

  it('a 5 s API delay is still acknowledged before the provider answers, for a read and a Confirm', async () => {
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
    expect(ack.status).toBe(204);
    expect(rec(clickAck.body).type).toBe(CallbackType.update);
    expect(clickAck.status).toBe(204);
    // Within Discord's 3 s whatever the provider takes: each acknowledgement went out before the provider
    // answered (it holds every answer 5 s), judged by order rather than by a loaded machine's clock.
    const asked = () => [t.api.requestsFor('domainInfo')[0], t.api.requestsFor('setReverseDns')[0]] as const;
    await waitUntil(() => asked().every((call) => call !== undefined), 'both calls to reach the provider');
    const [infoCall, rdnsCall] = asked();
    if (!infoCall || !rdnsCall) throw new Error('the provider was not asked');
    expect(ack.at).toBeLessThan(infoCall.at + 5_000);
    expect(clickAck.at).toBeLessThan(rdnsCall.at + 5_000);

    const [edit, outcome] = await Promise.all([t.nth(read, 1, 9_000), t.nth(click, 1, 9_000)]);
    expect(edit.at - read.dispatchedAt).toBeGreaterThanOrEqual(4_900);
    expect(embedsOf(rec(edit.body))[0]?.title).toBe('example.com');
    expect(textOf(rec(outcome.body))).toMatch(/Reverse DNS set/);
    await waitUntil(() => t.discord.requestsFor(click).length === 3, 'the public record');
    expect(t.api.requests).toHaveLength(2);
    expect(str(rec(t.discord.requestsFor(click)[2]?.body).content)).toContain('host.example.com');
  }, 120_000);

  it('a read that hangs past the 3 s timeout → "no answer within 3 s", deferred at once', async () => {
    const t = bot('hanging');
    t.api.enqueue('domainInfo', { hang: true });
    const i = t.command({ commandName: 'domain', subcommand: 'info', options: { domain: 'hang.example' } });
    const { ack, edit, body } = await publicAnswer(t, i, 3 * API_TIMEOUT_MS);
    // Deferred at once (accepted within Discord's 3 s), answered once the API timeout ran out.
    expect(ack.status).toBe(204);
    expect(ack.at).toBeLessThan(edit.at);
    // The budget starts once the bot has the command, after it was dispatched.
    expect(edit.at - i.dispatchedAt).toBeGreaterThanOrEqual(API_TIMEOUT_MS - 50);
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
    const edit = await t.nth(click, 1, 3 * API_TIMEOUT_MS);
    const text = textOf(rec(edit.body));
    expect(text).toMatch(/\*\*Outcome unknown\*\* — no answer within 3 s/);
    expect(text).toMatch(/Check with the provider before trying again/);
    expect(text).toMatch(REFERENCE);
    await idle(t);
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
