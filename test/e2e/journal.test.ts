// Change records end to end: prompts that outlive a restart, double clicks, secrets at rest, the audit
// channel, other guilds, unknown outcomes (read-back, send again, try again) and expiry. In-process bots
// through the fake Discord, each on a real SQLite file that the test reads back through its own store.
// (A prompt left to run out on its own timer is in timing.test.ts, with the other tests that wait.)
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ChangeRecord, openStore, type Store } from '../../src/store/index.js';
import { ALL_STATES } from '../support/changeStates.js';
import {
  arr,
  CallbackType,
  callbackOf,
  confirmAndWait,
  deferredAnswer,
  dig,
  ephemeralReply,
  idle,
  isEphemeral,
  openPrompt,
  type Prompt,
  press,
  promptOf,
  queryOf,
  rec,
  str,
  textOf,
} from '../support/e2eHelpers.js';
import type { DispatchedInteraction, InteractionOptions, RecordedRequest } from '../support/FakeDiscord.js';
import {
  FIXED_PASSWORD,
  ROLES,
  startTestBot,
  type TestBot,
  tempDatabaseUrl,
} from '../support/startTestBot.js';

const AUDIT_CHANNEL = '500000000000000042';
const OTHER_GUILD = '990000000000000001';
const OTHER_GUILD_TEXT = 'HostOps serves only the server it was set up for.';
const LICENSE = 'SECRETLICENSE-9876';

// A fresh member per case, so audit rows and audit-channel lines can be told apart by who they name.
let users = 0;
const newUser = () => `7000000000000${String(++users).padStart(5, '0')}`;

const rdns = (hostname: string, userId?: string): InteractionOptions => ({
  commandName: 'server',
  subcommand: 'rdns',
  options: { id: 42, ip: '203.0.113.7', hostname },
  ...(userId === undefined ? {} : { userId }),
});
const panelBind = (license: string, userId: string): InteractionOptions => ({
  commandName: 'panel',
  subcommand: 'bind',
  options: { license, ip: '203.0.113.9' },
  userId,
});
const register = (domain: string, userId: string): InteractionOptions => ({
  commandName: 'domain',
  subcommand: 'register',
  options: { domain, ns1: 'ns1.example.net', ns2: 'ns2.example.net' },
  userId,
  roles: [ROLES.admin],
});

const recordIdOf = (customId: string) => str(customId.split(':')[2], `record id in ${customId}`);

async function recordOf(store: Store, id: string): Promise<ChangeRecord> {
  const record = await store.changes.get(id);
  if (!record) throw new Error(`no change record ${id}`);
  return record;
}

const allAudit = async (store: Store) => {
  const { rows, total } = await store.audit.query({}, { limit: 1000, offset: 0 });
  expect(total).toBe(rows.length);
  return rows;
};

/** The buttons of a message body, by label. */
function buttonsOf(body: Record<string, unknown>): Record<string, unknown>[] {
  const rows = Array.isArray(body.components) ? body.components : [];
  return rows.flatMap((row) => arr(dig(row, 'components'), 'row components').map((b) => rec(b)));
}

function buttonId(body: Record<string, unknown>, label: string): string {
  const button = buttonsOf(body).find((b) => b.label === label);
  if (!button) throw new Error(`no "${label}" button in ${JSON.stringify(body.components)}`);
  return str(button.custom_id);
}

/** Presses a button of a change's message (Send again, Try again) as the prompt's owner. */
const pressButton = (t: TestBot, prompt: Prompt, customId: string): DispatchedInteraction =>
  t.discord.dispatchComponent({
    customId,
    message: { id: prompt.messageId },
    userId: prompt.ownerId,
    roles: prompt.ownerRoles,
    channelId: prompt.channelId,
  });

/** Forces a pending change's deadline into the past, as if its time had run out. */
async function overdue(store: Store, id: string): Promise<void> {
  const past = new Date(Date.now() - 1_000);
  expect(await store.changes.transition(id, 'pending', 'pending', { expiresAt: past })).toBe(true);
}

// ---------------------------------------------------------------------------------------------------
// One bot for most cases: an audit channel and a reader of its store.

let t: TestBot;
let store: Store;

const auditPosts = () =>
  t.discord.requests.filter((r) => r.method === 'POST' && r.path === `/channels/${AUDIT_CHANNEL}/messages`);
const auditLinesFor = (userId: string): RecordedRequest[] =>
  auditPosts().filter((r) => str(rec(r.body).content).includes(`<@${userId}>`));

function expectOneAuditLine(userId: string, outcome: string, command: string): string {
  const lines = auditLinesFor(userId);
  expect(lines, JSON.stringify(lines.map((l) => l.body))).toHaveLength(1);
  const body = rec(lines[0]?.body);
  expect(body.allowed_mentions).toEqual({ parse: [] });
  const content = str(body.content);
  expect(content).toContain(`**${outcome}**`);
  expect(content).toContain(`\`${command}\``);
  return content;
}

beforeAll(async () => {
  const url = tempDatabaseUrl();
  t = await startTestBot({ DATABASE_URL: url, AUDIT_CHANNEL_ID: AUDIT_CHANNEL });
  t.discord.addChannel({ id: AUDIT_CHANNEL });
  store = await openStore(url);
});
afterAll(async () => {
  await store?.close();
  await t?.stop();
});

describe('double click', () => {
  beforeEach(() => t.api.reset());

  it('two Confirm presses back to back send once; the other press is told privately it is no longer open', async () => {
    const prompt = await openPrompt(t, rdns('double.example.com', newUser()));
    const first = press(t, prompt, 'confirm');
    const second = press(t, prompt, 'confirm');
    const callbacks = await Promise.all([callbackOf(t, first), callbackOf(t, second)]);
    expect(callbacks.map((c) => c.type).sort()).toEqual([CallbackType.reply, CallbackType.update]);
    const winner = callbacks[0]?.type === CallbackType.update ? first : second;
    const loser = callbacks.find((c) => c.type === CallbackType.reply);
    if (!loser) throw new Error('no refusal');
    expect(isEphemeral(loser.data)).toBe(true);
    expect(textOf(loser.data)).toBe('This confirmation is no longer open: the change was already confirmed.');

    await t.nth(winner, 2); // the public record
    await idle(t);
    expect(t.api.requestsFor('setReverseDns')).toHaveLength(1);
    expect(t.discord.requestsFor(loser === callbacks[0] ? first : second)).toHaveLength(1);
    expect((await recordOf(store, recordIdOf(prompt.confirmId))).state).toBe('done');
  });
});

describe('secrets at rest', () => {
  beforeEach(() => t.api.reset());

  it('a panel license is stored and audited only as its last four characters once confirmed, cancelled or expired', async () => {
    // Confirmed.
    const confirmedBy = newUser();
    const confirmed = await openPrompt(t, panelBind(LICENSE, confirmedBy));
    const sent = await confirmAndWait(t, confirmed);
    // Cancelled.
    const cancelled = await openPrompt(t, panelBind(LICENSE, newUser()));
    const cancel = press(t, cancelled, 'cancel');
    expect((await callbackOf(t, cancel)).type).toBe(CallbackType.update);
    // Expired (its deadline passed; the next press ends it).
    const expired = await openPrompt(t, panelBind(LICENSE, newUser()));
    await overdue(store, recordIdOf(expired.confirmId));
    const late = press(t, expired, 'confirm');
    expect(await ephemeralReply(t, late)).toContain('expired');
    await idle(t);

    // Sent to the provider whole, exactly once.
    expect(queryOf(t, 'bindPanelLicense')).toEqual([{ license: LICENSE, ip_address: '203.0.113.9' }]);
    // The public record shows only the tail.
    expect(textOf(sent.publicRecord)).toContain('…9876');
    expect(JSON.stringify(sent.publicRecord)).not.toContain(LICENSE);

    const ids = [confirmed, cancelled, expired].map((p) => recordIdOf(p.confirmId));
    const records = await store.changes.listByState(ALL_STATES);
    for (const record of records) expect(JSON.stringify(record)).not.toContain(LICENSE);
    const mine = ids.map((id) => records.find((r) => r.id === id));
    expect(mine.map((r) => r?.state)).toEqual(['done', 'cancelled', 'expired']);
    for (const record of mine) {
      expect(record?.parameters).toEqual({ license: '…9876', ip: '203.0.113.9' });
      expect(JSON.stringify(record?.preview)).toContain('…9876');
    }

    const audit = await allAudit(store);
    for (const row of audit) expect(JSON.stringify(row)).not.toContain(LICENSE);
    const rows = audit.filter((row) => row.changeId !== null && ids.includes(row.changeId));
    expect(rows.map((row) => row.outcome).sort()).toEqual(['cancelled', 'done', 'expired']);
    for (const row of rows) expect(row.parameters).toEqual({ license: '…9876', ip: '203.0.113.9' });

    // Nor in the audit channel or any log line.
    for (const line of auditPosts()) expect(JSON.stringify(line.body)).not.toContain(LICENSE);
    expect(t.logs.text).not.toContain(LICENSE);
    expect(t.logs.text).toContain('…9876');
  });

  it('the generated music-bot password reaches the API and the private answer only', async () => {
    const prompt = await openPrompt(t, {
      commandName: 'musicbot',
      subcommand: 'create',
      options: { username: 'djsecret', email: 'dj@example.com', storage: '512MB', bots: 2 },
      userId: newUser(),
    });
    const { click, privateEdit, publicRecord } = await confirmAndWait(t, prompt);
    await idle(t);

    expect(queryOf(t, 'createMusicBotUser').map((q) => q.password)).toEqual([FIXED_PASSWORD]);
    expect(textOf(privateEdit)).toContain(FIXED_PASSWORD);
    // That answer is the edit of the invoker's ephemeral prompt; nothing else sent to Discord has it.
    const carrying = t.discord.requests.filter((r) => JSON.stringify(r.body ?? '').includes(FIXED_PASSWORD));
    expect(carrying.map((r) => `${r.method} ${r.path}`)).toEqual([
      `PATCH /webhooks/${t.discord.applicationId}/${click.token}/messages/@original`,
    ]);
    expect((t.discord.getMessage(prompt.messageId)?.flags ?? 0) & 64).toBe(64);
    expect(JSON.stringify(publicRecord)).not.toContain(FIXED_PASSWORD);

    const records = await store.changes.listByState(ALL_STATES);
    expect(records.some((r) => r.id === recordIdOf(prompt.confirmId) && r.state === 'done')).toBe(true);
    for (const record of records) expect(JSON.stringify(record)).not.toContain(FIXED_PASSWORD);
    for (const row of await allAudit(store)) expect(JSON.stringify(row)).not.toContain(FIXED_PASSWORD);
    expect(t.logs.text).not.toContain(FIXED_PASSWORD);
  });
});

describe('audit channel', () => {
  beforeEach(() => t.api.reset());

  it('a confirmed change posts exactly one line naming its outcome and command, pinging nobody', async () => {
    const userId = newUser();
    await confirmAndWait(t, await openPrompt(t, rdns('audit-done.example.com', userId)));
    await idle(t);
    const line = expectOneAuditLine(userId, 'done', '/server rdns');
    expect(line).toContain('server 42 203.0.113.7');
  });

  it('a cancelled change posts exactly one line', async () => {
    const userId = newUser();
    const prompt = await openPrompt(t, rdns('audit-cancel.example.com', userId));
    expect((await callbackOf(t, press(t, prompt, 'cancel'))).type).toBe(CallbackType.update);
    await idle(t);
    expectOneAuditLine(userId, 'cancelled', '/server rdns');
    expect(t.api.requests).toHaveLength(0);
  });

  it('an expired change posts exactly one line', async () => {
    const userId = newUser();
    const prompt = await openPrompt(t, rdns('audit-expired.example.com', userId));
    await overdue(store, recordIdOf(prompt.confirmId));
    expect(await ephemeralReply(t, press(t, prompt, 'confirm'))).toContain('expired');
    await idle(t);
    expectOneAuditLine(userId, 'expired', '/server rdns');
    expect(t.api.requests).toHaveLength(0);
  });

  it('a failed change (provider 500) posts exactly one line', async () => {
    const userId = newUser();
    t.api.enqueue('setReverseDns', { status: 500, body: { error: 'boom' } });
    const prompt = await openPrompt(t, rdns('audit-failed.example.com', userId));
    const click = press(t, prompt, 'confirm');
    expect(textOf(rec((await t.nth(click, 1)).body))).toContain('The provider returned an error (500)');
    await idle(t);
    expectOneAuditLine(userId, 'failed', '/server rdns');
    expect(t.api.requestsFor('setReverseDns')).toHaveLength(1);
    expect((await recordOf(store, recordIdOf(prompt.confirmId))).state).toBe('failed');
  });

  it('a refused changing command (a viewer runs /server rdns) posts exactly one line', async () => {
    const userId = newUser();
    const i = t.command({ ...rdns('audit-refused.example.com', userId), roles: [ROLES.viewer] });
    expect(await ephemeralReply(t, i)).not.toBe('');
    await idle(t);
    expectOneAuditLine(userId, 'refused', '/server rdns');
    expect(t.api.requests).toHaveLength(0);
  });

  it('a read command posts nothing there', async () => {
    const userId = newUser();
    const i = t.command({
      commandName: 'domain',
      subcommand: 'info',
      options: { domain: 'example.com' },
      userId,
      roles: [ROLES.viewer],
    });
    await deferredAnswer(t, i);
    await idle(t);
    const rows = (await allAudit(store)).filter((row) => row.userId === userId);
    expect(rows.map((row) => row.outcome)).toEqual(['ok']);
    expect(auditLinesFor(userId)).toHaveLength(0);
  });
});

describe('interactions from another guild', () => {
  beforeEach(() => t.api.reset());

  const elsewhere = { guildId: OTHER_GUILD, roles: [] as string[] };

  it('commands, a Confirm press, a modal submit and an autocomplete are refused with no API call and no audit row', async () => {
    const ownerId = newUser();
    // A real prompt and a real open form, in the home guild.
    const prompt = await openPrompt(t, rdns('elsewhere.example.com', ownerId));
    const dns = t.command({
      commandName: 'domain',
      subcommand: 'dns',
      options: { domain: 'example.com' },
      userId: ownerId,
    });
    const modal = await callbackOf(t, dns);
    expect(modal.type).toBe(CallbackType.modal);
    const modalId = str(modal.data.custom_id);

    const read = t.discord.dispatchInteraction({
      commandName: 'domain',
      subcommand: 'info',
      options: { domain: 'example.com' },
      userId: ownerId,
      ...elsewhere,
    });
    const change = t.discord.dispatchInteraction({ ...rdns('other.example.com', ownerId), ...elsewhere });
    const confirm = t.discord.dispatchComponent({
      customId: prompt.confirmId,
      message: { id: prompt.messageId },
      userId: ownerId,
      ...elsewhere,
    });
    const submit = t.discord.dispatchModalSubmit({
      customId: modalId,
      fields: { records: 'www 3600 A 203.0.113.7' },
      userId: ownerId,
      ...elsewhere,
    });
    for (const i of [read, change, confirm, submit]) {
      expect(await ephemeralReply(t, i)).toBe(OTHER_GUILD_TEXT);
    }
    const complete = t.discord.dispatchAutocomplete({
      commandName: 'domain',
      subcommand: 'info',
      options: { domain: 'exa' },
      userId: ownerId,
      ...elsewhere,
    });
    const completion = await callbackOf(t, complete);
    expect(completion.type).toBe(8);
    expect(completion.data).toEqual({ choices: [] });
    await idle(t);

    expect(t.api.requests).toHaveLength(0);
    for (const i of [read, change, confirm, submit, complete])
      expect(t.discord.requestsFor(i)).toHaveLength(1);
    expect((await allAudit(store)).filter((row) => row.guildId === OTHER_GUILD)).toEqual([]);
    expect(auditLinesFor(ownerId)).toHaveLength(0);
    expect((await recordOf(store, recordIdOf(prompt.confirmId))).state).toBe('pending');

    // Neither the prompt nor the form was used up: at home both still work.
    const home = await confirmAndWait(t, prompt);
    expect(textOf(home.privateEdit)).toContain('Reverse DNS set');
    const form = t.discord.dispatchModalSubmit({
      customId: modalId,
      fields: { records: 'www 3600 A 203.0.113.7' },
      userId: ownerId,
      roles: [ROLES.operator],
    });
    const dnsPrompt = await promptOf(t, form, { userId: ownerId });
    expect((await callbackOf(t, press(t, dnsPrompt, 'cancel'))).type).toBe(CallbackType.update);
    await idle(t);
    expect(t.api.requests.map((r) => r.operation)).toEqual(['setReverseDns']);
  });
});

describe('/domain register with an unknown outcome: read-back', () => {
  beforeEach(() => t.api.reset());

  it('the POST is reset and /domain/info answers 200: registered after all, done, a public line, one call', async () => {
    t.api.enqueue('createDomain', { destroy: true });
    const prompt = await openPrompt(t, register('readback-yes.example', newUser()));
    const click = press(t, prompt, 'confirm');
    expect((await callbackOf(t, click)).type).toBe(CallbackType.update);
    expect(textOf(rec((await t.nth(click, 1)).body))).toContain('Outcome unknown');
    const resolved = await t.nth(click, 2);
    expect(resolved.method).toBe('PATCH');
    expect(resolved.path).toBe(`/webhooks/${t.discord.applicationId}/${click.token}/messages/@original`);
    expect(textOf(rec(resolved.body))).toContain('`readback-yes.example` is registered after all.');
    expect(buttonsOf(rec(resolved.body))).toEqual([]);
    const publicLine = await t.nth(click, 3);
    expect(publicLine.method).toBe('POST');
    expect(isEphemeral(rec(publicLine.body))).toBe(false);
    expect(textOf(rec(publicLine.body))).toContain('took effect after all');
    await idle(t);

    expect(t.discord.requestsFor(click)).toHaveLength(4);
    expect(t.api.requestsFor('createDomain')).toHaveLength(1);
    expect(t.api.requestsFor('domainInfo')).toHaveLength(1);
    const record = await recordOf(store, recordIdOf(prompt.confirmId));
    expect(record.state).toBe('done');
    expect(record.result).toEqual({ readBack: 'applied' });
  });

  it('the POST is reset and /domain/info answers 404 to every read of the window: not registered, Try again opens a new prompt that sends once more', async () => {
    t.api.enqueue('createDomain', { destroy: true });
    t.api.respond('domainInfo', () => ({ status: 404, body: { error: 'not found' } }));
    const prompt = await openPrompt(t, register('readback-no.example', newUser()));
    const click = press(t, prompt, 'confirm');
    const resolved = rec((await t.nth(click, 2)).body);
    expect(textOf(resolved)).toContain('`readback-no.example` is not registered: it is safe to try again.');
    // Settled only when the window was over: every read of it was made.
    expect(t.api.requestsFor('domainInfo')).toHaveLength(3);
    const retryId = buttonId(resolved, 'Try again');
    await idle(t);
    expect(t.discord.requestsFor(click)).toHaveLength(3); // no public line
    const first = await recordOf(store, recordIdOf(prompt.confirmId));
    expect(first.state).toBe('failed');
    expect(first.result).toEqual({ readBack: 'not applied' });
    expect(recordIdOf(retryId)).toBe(first.id);

    const retry = pressButton(t, prompt, retryId);
    const again = await promptOf(t, retry, { userId: prompt.ownerId, roles: prompt.ownerRoles });
    const secondId = recordIdOf(again.confirmId);
    expect(secondId).not.toBe(first.id);
    expect(again.embed.fields).toEqual(prompt.embed.fields);
    expect(t.api.requestsFor('createDomain')).toHaveLength(1);
    await confirmAndWait(t, again);
    await idle(t);

    const [sentFirst, sentSecond] = queryOf(t, 'createDomain');
    expect(queryOf(t, 'createDomain')).toHaveLength(2);
    expect(sentSecond).toEqual(sentFirst);
    expect(sentFirst).toMatchObject({ domain: 'readback-no.example', ns1: 'ns1.example.net' });
    const second = await recordOf(store, secondId);
    expect(second.state).toBe('done');
    expect(second.parameters).toEqual(first.parameters);
    expect((await recordOf(store, first.id)).state).toBe('failed');
  });

  it('a registry that shows the domain late: 404, 404, then 200 is registered after all, never "safe to try again"', async () => {
    t.api.enqueue('createDomain', { destroy: true });
    t.api.enqueue(
      'domainInfo',
      { status: 404, body: { error: 'not found' } },
      { status: 404, body: { error: 'not found' } },
    );
    const prompt = await openPrompt(t, register('readback-late.example', newUser()));
    const click = press(t, prompt, 'confirm');
    const resolved = rec((await t.nth(click, 2)).body);
    expect(textOf(resolved)).toContain('`readback-late.example` is registered after all.');
    expect(buttonsOf(resolved)).toEqual([]);
    await idle(t);
    expect(t.api.requestsFor('domainInfo')).toHaveLength(3);
    expect(t.api.requestsFor('createDomain')).toHaveLength(1);
    const record = await recordOf(store, recordIdOf(prompt.confirmId));
    expect(record.state).toBe('done');
    expect(record.result).toEqual({ readBack: 'applied' });
  });

  it.each([
    ['not JSON', { status: 200, body: '<html>OK</html>' }],
    ['JSON cut off', { status: 201, body: '{"created":' }],
    ['JSON that is not an object', { status: 200, body: '"ok"' }],
  ] as const)('a 2xx with %s to the POST is unknown and read back, not failed', async (_label, reply) => {
    t.api.enqueue('createDomain', reply);
    const prompt = await openPrompt(t, register(`readback-2xx-${newUser()}.example`, newUser()));
    const click = press(t, prompt, 'confirm');
    const told = textOf(rec((await t.nth(click, 1)).body));
    expect(told).toContain('Outcome unknown');
    expect(told).toContain(`answered ${reply.status} but its answer could not be read`);
    expect(told).not.toMatch(/try again\.?$/im);
    const resolved = rec((await t.nth(click, 2)).body);
    expect(textOf(resolved)).toContain('is registered after all.');
    await idle(t);
    expect(t.api.requestsFor('createDomain')).toHaveLength(1);
    const record = await recordOf(store, recordIdOf(prompt.confirmId));
    expect(record.state).toBe('done');
    expect(record.result).toEqual({ readBack: 'applied' });
  });

  it('a 2xx with an unreadable body to /musicbot create is unknown, no Try again: the password may exist at the provider', async () => {
    t.api.enqueue('createMusicBotUser', { status: 200, body: 'not json' });
    const prompt = await openPrompt(t, {
      commandName: 'musicbot',
      subcommand: 'create',
      options: { username: 'djunread', email: 'dj@example.com', storage: '512MB', bots: 1 },
      userId: newUser(),
    });
    const click = press(t, prompt, 'confirm');
    const told = rec((await t.nth(click, 1)).body);
    expect(textOf(told)).toContain('Outcome unknown');
    expect(textOf(told)).toContain('Check with the provider before trying again');
    expect(buttonsOf(told)).toEqual([]);
    await idle(t);
    expect(t.api.requestsFor('createMusicBotUser')).toHaveLength(1);
    expect((await recordOf(store, recordIdOf(prompt.confirmId))).state).toBe('unknown');
  });

  it('/domain/info keeps failing: after the read-backs the outcome is still unknown', async () => {
    t.api.enqueue('createDomain', { destroy: true });
    t.api.respond('domainInfo', () => ({ status: 500, body: { error: 'down' } }));
    const prompt = await openPrompt(t, register('readback-maybe.example', newUser()));
    const click = press(t, prompt, 'confirm');
    const last = rec((await t.nth(click, 2)).body);
    expect(textOf(last)).toContain('Outcome still unknown');
    expect(textOf(last)).toContain('after 3 checks');
    expect(buttonsOf(last)).toEqual([]);
    await idle(t);
    expect(t.discord.requestsFor(click)).toHaveLength(3);
    expect(t.api.requestsFor('createDomain')).toHaveLength(1);
    expect(t.api.requestsFor('domainInfo')).toHaveLength(3);
    expect((await recordOf(store, recordIdOf(prompt.confirmId))).state).toBe('unknown');
  });
});

// ---------------------------------------------------------------------------------------------------
// Bots of their own.

describe('a prompt outlives a restart', () => {
  it('Confirm pressed after a restart is sent once by the new bot; a second press is no longer open', async () => {
    const url = tempDatabaseUrl();
    const before = await startTestBot({ DATABASE_URL: url });
    let after: TestBot | undefined;
    try {
      const prompt = await openPrompt(before, rdns('restart.example.com'));
      await before.bot.stop(1_000);
      after = await startTestBot({ DATABASE_URL: url }, { discord: before.discord, api: before.api });

      const sent = await confirmAndWait(after, prompt);
      expect(textOf(sent.privateEdit)).toContain('Reverse DNS set');
      expect(queryOf(after, 'setReverseDns')).toEqual([
        { serverid: '42', ip: '203.0.113.7', rdns: 'restart.example.com', validate: 'true' },
      ]);
      const twice = press(after, prompt, 'confirm');
      expect(await ephemeralReply(after, twice)).toBe(
        'This confirmation is no longer open: the change was already confirmed.',
      );
      await idle(after);
      expect(after.api.requestsFor('setReverseDns')).toHaveLength(1);
      expect((await recordOf(after.bot.store, recordIdOf(prompt.confirmId))).state).toBe('done');
    } finally {
      await after?.stop();
      await Promise.all([before.discord.stop(), before.api.stop()]);
    }
  });

  it('a prompt whose deadline passed while no bot ran is refused as expired, and nothing is sent', async () => {
    const url = tempDatabaseUrl();
    const before = await startTestBot({ DATABASE_URL: url });
    let after: TestBot | undefined;
    try {
      const prompt = await openPrompt(before, rdns('expired-offline.example.com'));
      const id = recordIdOf(prompt.confirmId);
      await before.bot.stop(1_000);
      const offline = await openStore(url);
      try {
        await overdue(offline, id);
      } finally {
        await offline.close();
      }
      after = await startTestBot({ DATABASE_URL: url }, { discord: before.discord, api: before.api });

      const late = press(after, prompt, 'confirm');
      expect(await ephemeralReply(after, late)).toBe(
        'This confirmation is no longer open: it expired; nothing was sent. Run the command again.',
      );
      await idle(after);
      expect(after.api.requests).toHaveLength(0);
      expect((await recordOf(after.bot.store, id)).state).toBe('expired');
      const { rows } = await after.bot.store.audit.query({}, { limit: 100, offset: 0 });
      expect(rows.filter((row) => row.changeId === id).map((row) => row.outcome)).toEqual(['expired']);
    } finally {
      await after?.stop();
      await Promise.all([before.discord.stop(), before.api.stop()]);
    }
  });
});

describe('/server rdns none of whose attempts succeeded, one of which may have reached the provider', () => {
  const again = { headers: { 'retry-after': '0' }, body: {} };
  it.each([
    [
      'lost its connection once sent, on every attempt',
      [{ destroy: true }, { destroy: true }, { destroy: true }],
      'connection lost before the provider answered',
    ],
    [
      'lost its connection once sent, then 503 on every retry',
      [{ destroy: true }, { status: 503, ...again }, { status: 503, ...again }],
      'connection lost before the provider answered',
    ],
    [
      'lost its connection once sent, then 429 on every retry',
      [{ destroy: true }, { status: 429, ...again }, { status: 429, ...again }],
      'connection lost before the provider answered',
    ],
    [
      'got a gateway 502 on every attempt',
      [
        { status: 502, ...again },
        { status: 502, ...again },
        { status: 502, ...again },
      ],
      'provider gateway answered 502',
    ],
    [
      'got a gateway 504 on every attempt',
      [
        { status: 504, ...again },
        { status: 504, ...again },
        { status: 504, ...again },
      ],
      'provider gateway answered 504',
    ],
  ] as const)('%s: unknown with Send again, never "failed"', async (_case, replies, reason) => {
    const t = await startTestBot();
    try {
      t.api.enqueue('setReverseDns', ...replies);
      const prompt = await openPrompt(t, rdns('gateway.example.com'));
      const click = press(t, prompt, 'confirm');
      const unknown = rec((await t.nth(click, 1)).body);
      expect(textOf(unknown)).toContain(`**Outcome unknown** — ${reason}`);
      expect(textOf(unknown)).toContain('This change is safe to send again.');
      expect(textOf(unknown)).not.toMatch(/failed|provider error/i);
      const againId = buttonId(unknown, 'Send again');
      await idle(t);
      const id = recordIdOf(prompt.confirmId);
      expect((await recordOf(t.bot.store, id)).state).toBe('unknown');
      const { rows } = await t.bot.store.audit.query({}, { limit: 100, offset: 0 });
      expect(rows.filter((row) => row.changeId === id).map((row) => row.outcome)).toEqual(['unknown']);
      expect(t.api.requestsFor('setReverseDns')).toHaveLength(3);

      // Send again: the PUT once more, done this time.
      const resend = pressButton(t, prompt, againId);
      expect(textOf(rec((await t.nth(resend, 1)).body))).toContain('Reverse DNS set');
      await idle(t);
      expect((await recordOf(t.bot.store, id)).state).toBe('done');
      expect(t.api.requestsFor('setReverseDns')).toHaveLength(4);
    } finally {
      await t.stop();
    }
  });
});

describe('/server rdns whose PUT times out', () => {
  it('is reported as unknown with Send again, which sends the PUT once more and ends done', async () => {
    const timed = await startTestBot({ HOSTING_API_TIMEOUT_MS: '300' });
    try {
      timed.api.enqueue('setReverseDns', { hang: true });
      const prompt = await openPrompt(timed, rdns('timeout.example.com'));
      const click = press(timed, prompt, 'confirm');
      const unknown = rec((await timed.nth(click, 1)).body);
      expect(textOf(unknown)).toContain('**Outcome unknown** — no answer from the provider within 0.3 s.');
      expect(textOf(unknown)).toContain('This change is safe to send again.');
      const againId = buttonId(unknown, 'Send again');
      await idle(timed);
      const id = recordIdOf(prompt.confirmId);
      expect(recordIdOf(againId)).toBe(id);
      expect((await recordOf(timed.bot.store, id)).state).toBe('unknown');
      expect(timed.api.requestsFor('setReverseDns')).toHaveLength(1);

      const again = pressButton(timed, prompt, againId);
      expect((await callbackOf(timed, again)).type).toBe(CallbackType.update);
      expect(textOf(rec((await timed.nth(again, 1)).body))).toContain('Reverse DNS set');
      const publicLine = rec((await timed.nth(again, 2)).body);
      expect(textOf(publicLine)).toContain('set the reverse DNS');
      await idle(timed);
      expect(queryOf(timed, 'setReverseDns')).toEqual([
        { serverid: '42', ip: '203.0.113.7', rdns: 'timeout.example.com', validate: 'true' },
        { serverid: '42', ip: '203.0.113.7', rdns: 'timeout.example.com', validate: 'true' },
      ]);
      expect((await recordOf(timed.bot.store, id)).state).toBe('done');
    } finally {
      await timed.stop();
    }
  });
});
