// Two-person approval through the fake Discord: a confirmed change waits for someone else with the
// command's tier, the request is a bot message that is edited to show the outcome, and exactly one
// approval sends it.
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SecretSeal } from '../../src/changes/SecretSeal.js';
import { openStore, type Store } from '../../src/store/index.js';
import {
  arr,
  CallbackType,
  callbackOf,
  dig,
  idle,
  type Json,
  openPrompt,
  type Prompt,
  press,
  rec,
  str,
  textOf,
  waitUntil,
} from '../support/e2eHelpers.js';
import type { DispatchedInteraction } from '../support/FakeDiscord.js';
import {
  FIXED_PASSWORD,
  ROLES,
  startTestBot,
  type TestBot,
  tempDatabaseUrl,
} from '../support/startTestBot.js';

const APPROVER = '900000000000000001';
const SECOND_APPROVER = '900000000000000002';

let t: TestBot;
let store: Store;
const databaseUrl = tempDatabaseUrl();
/** Every byte SQLite keeps for this store: the database file and its write-ahead log. */
function databaseBytes(): string {
  const path = databaseUrl.replace(/^sqlite:/, '');
  return [path, `${path}-wal`]
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file).toString('latin1'))
    .join('');
}

beforeAll(async () => {
  t = await startTestBot({
    DATABASE_URL: databaseUrl,
    APPROVAL_REQUIRED: 'domain register,musicbot create,panel bind',
  });
  store = await openStore(databaseUrl);
});
afterAll(async () => {
  await store?.close();
  await t?.stop();
});
beforeEach(() => {
  t.api.reset();
});

interface Request {
  prompt: Prompt;
  /** The public approval request the bot posted. */
  message: { id: string; body: Json };
  approveId: string;
  rejectId: string;
  changeId: string;
}

/** Opens a prompt, confirms it, and returns the approval request the bot posts in the channel. */
async function requestApproval(options: Parameters<typeof openPrompt>[1]): Promise<Request> {
  const before = new Set(approvalRequests().map((m) => m.id));
  const prompt = await openPrompt(t, options);
  const click = press(t, prompt, 'confirm');
  expect((await callbackOf(t, click)).type).toBe(CallbackType.update);
  await waitUntil(() => approvalRequests().some((m) => !before.has(m.id)), 'the approval request');
  const message = approvalRequests().find((m) => !before.has(m.id));
  if (!message) throw new Error('no approval request');
  const body = message as unknown as Json;
  const buttons = arr(dig(body, 'components', 0, 'components')).map((b) => rec(b));
  const approveId = str(buttons.find((b) => b.label === 'Approve')?.custom_id);
  const rejectId = str(buttons.find((b) => b.label === 'Reject')?.custom_id);
  // The invoker is told approval is pending, and where.
  const pending = textOf(rec((await t.nth(click, 1)).body));
  expect(pending).toMatch(/\*\*Approval pending\*\* — nothing is sent until someone else/);
  expect(pending).toContain(`/channels/${t.discord.guildId}/${message.channel_id}/${message.id}`);
  return {
    prompt,
    message: { id: message.id, body },
    approveId,
    rejectId,
    changeId: approveId.split(':')[2] ?? '',
  };
}

function click(request: Request, customId: string, userId: string, roles: string[] = [ROLES.operator]) {
  return t.discord.dispatchComponent({ customId, message: { id: request.message.id }, userId, roles });
}

async function ephemeralText(i: DispatchedInteraction): Promise<string> {
  const cb = await callbackOf(t, i);
  expect(cb.type).toBe(CallbackType.reply);
  expect(Number(cb.data.flags) & 64).toBe(64);
  return textOf(cb.data);
}

const REGISTER = {
  commandName: 'domain',
  subcommand: 'register',
  options: { domain: 'example.org', ns1: 'ns1.example.net', ns2: 'ns2.example.net' },
  roles: [ROLES.admin],
};

describe('two-person approval', () => {
  it('posts a public request showing what will be sent and who asked; nothing is sent yet', async () => {
    const request = await requestApproval(REGISTER);
    const text = textOf(request.message.body);
    expect(text).toContain('Approval needed: Register domain');
    expect(text).toContain('`example.org`');
    expect(text).toContain(`Requested by <@${t.discord.userId}>`);
    expect(dig(request.message.body, 'allowed_mentions')).toBeUndefined();
    await idle(t);
    expect(t.api.requests).toHaveLength(0);
    expect((await store.changes.get(request.changeId))?.state).toBe('awaiting_approval');
  });

  it('the requester cannot approve their own change', async () => {
    const request = await requestApproval(REGISTER);
    const self = click(request, request.approveId, t.discord.userId, [ROLES.admin]);
    expect(await ephemeralText(self)).toMatch(/someone else has to approve it\. Nothing was sent\./);
    await idle(t);
    expect(t.api.requests).toHaveLength(0);
  });

  it('an approver without the tier is refused; the gates are checked at approval time', async () => {
    const request = await requestApproval(REGISTER);
    // Operator is not enough for /domain register (admin tier).
    const weak = click(request, request.approveId, APPROVER, [ROLES.operator]);
    expect(await ephemeralText(weak)).toMatch(/needs the \*\*admin\*\* tier/);
    await idle(t);
    expect(t.api.requests).toHaveLength(0);
    expect((await store.changes.get(request.changeId))?.state).toBe('awaiting_approval');
  });

  it('two approvers pressing at once send it once; the request shows the outcome and both names', async () => {
    const request = await requestApproval(REGISTER);
    const first = click(request, request.approveId, APPROVER, [ROLES.admin]);
    const second = click(request, request.approveId, SECOND_APPROVER, [ROLES.admin]);
    await callbackOf(t, first);
    await callbackOf(t, second);
    await waitUntil(() => t.api.requestsFor('createDomain').length === 1, 'the one call');
    const record = await waitForState(request.changeId, 'done');
    expect(t.api.requestsFor('createDomain')).toHaveLength(1);
    const approver = str(record.approval?.approvedById);
    expect([APPROVER, SECOND_APPROVER]).toContain(approver);
    const loser = approver === APPROVER ? second : first;
    expect(await ephemeralText(loser)).toMatch(/already approved/);
    // The request message itself now shows the outcome (edited through the interaction).
    await waitUntil(
      () =>
        /\*\*Done\*\* — requested by/.test(
          textOf(t.discord.getMessage(request.message.id) as unknown as Json),
        ),
      'the request to show the outcome',
    );
    const shown = textOf(t.discord.getMessage(request.message.id) as unknown as Json);
    expect(shown).toContain(`approved by <@${approver}>`);
    expect(JSON.stringify(t.discord.getMessage(request.message.id)?.components ?? [])).not.toContain(
      'Approve',
    );
    // The audit trail names both (written once the answers are out).
    const auditRow = async () =>
      (await store.audit.query({ outcome: 'done', command: 'domain' }, { limit: 50, offset: 0 })).rows.find(
        (r) => r.changeId === request.changeId,
      );
    let row = await auditRow();
    for (let tries = 0; row === undefined && tries < 500; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      row = await auditRow();
    }
    expect(row?.userId).toBe(t.discord.userId);
    expect(row?.detail).toMatch(/^approved by /);
    expect(row?.actedById).toBe(approver);
    // `/audit user:@approver` shows what that person approved.
    const byApprover = await store.audit.query({ userId: approver }, { limit: 50, offset: 0 });
    expect(byApprover.rows.map((r) => r.changeId)).toContain(request.changeId);
    const asked = t.command({
      commandName: 'audit',
      options: { user: approver },
      userId: SECOND_APPROVER === approver ? APPROVER : SECOND_APPROVER,
      roles: [ROLES.admin],
    });
    await callbackOf(t, asked);
    const answer = rec((await t.nth(asked, 1)).body);
    expect(textOf(answer)).toContain(`→ <@${approver}>`);
    expect(textOf(answer)).toContain('approved by');
  });

  it('a music-bot password reaches the API and the approver only, never the channel or the store', async () => {
    const request = await requestApproval({
      commandName: 'musicbot',
      subcommand: 'create',
      options: { username: 'alice', email: 'alice@example.com', storage: '1 GiB', bots: 1 },
    });
    const approve = click(request, request.approveId, APPROVER);
    await waitForState(request.changeId, 'done');
    expect(t.api.requestsFor('createMusicBotUser')[0]?.query.get('password')).toBe(FIXED_PASSWORD);
    const followUps = await waitForRequests(approve, 4);
    const privateOne = followUps.find((r) => isEphemeralBody(r.body));
    expect(textOf(rec(privateOne?.body))).toContain(FIXED_PASSWORD);
    for (const r of followUps.filter((r) => !isEphemeralBody(r.body))) {
      expect(JSON.stringify(r.body)).not.toContain(FIXED_PASSWORD);
    }
    // Every message the whole channel can see (ephemeral ones are seen by their one user only).
    for (const message of t.discord.channelMessages().filter((m) => (Number(m.flags) & 64) === 0)) {
      expect(JSON.stringify(message)).not.toContain(FIXED_PASSWORD);
    }
    expect(JSON.stringify(await store.changes.get(request.changeId))).not.toContain(FIXED_PASSWORD);
    expect(t.logs.text).not.toContain(FIXED_PASSWORD);
  });

  it('a license key is kept while awaiting approval, masked once decided, and never shown publicly', async () => {
    const request = await requestApproval({
      commandName: 'panel',
      subcommand: 'bind',
      options: { license: 'SECRETLICENSE-9876', ip: '203.0.113.7' },
    });
    expect(JSON.stringify(request.message.body)).not.toContain('SECRETLICENSE');
    expect(textOf(request.message.body)).toContain('…9876');
    // Waiting up to 7 days for approval, the key is kept only sealed: not in the record, not anywhere
    // in the database's files.
    const waiting = await store.changes.get(request.changeId);
    expect(waiting?.state).toBe('awaiting_approval');
    expect(JSON.stringify(waiting)).not.toContain('SECRETLICENSE');
    expect(waiting?.parameters.license).toMatchObject({
      mask: '…9876',
      sealed: expect.stringMatching(/^v2\./),
    });
    expect(databaseBytes()).not.toContain('SECRETLICENSE');
    click(request, request.approveId, APPROVER);
    const record = await waitForState(request.changeId, 'done');
    expect(t.api.requestsFor('bindPanelLicense')[0]?.query.get('license')).toBe('SECRETLICENSE-9876');
    expect(JSON.stringify(record)).not.toContain('SECRETLICENSE');
    expect(record.parameters.license).toBe('…9876');
  });

  it('a key sealed under another HOSTING_API_TOKEN is not sent: the approval fails, saying why', async () => {
    const request = await requestApproval({
      commandName: 'panel',
      subcommand: 'bind',
      options: { license: 'ROTATEDLICENSE-1234', ip: '203.0.113.8' },
    });
    // As if the bot had been restarted with a new token while the change waited.
    const other = new SecretSeal('a token since rotated').seal('ROTATEDLICENSE-1234', {
      record: request.changeId,
      field: 'license',
    });
    const waiting = await store.changes.get(request.changeId);
    await store.changes.transition(request.changeId, 'awaiting_approval', 'awaiting_approval', {
      parameters: { ...waiting?.parameters, license: other },
    });
    click(request, request.approveId, APPROVER);
    const record = await waitForState(request.changeId, 'failed');
    expect(record.parameters.license).toBe('…1234');
    await waitUntil(
      () => textOf(t.discord.getMessage(request.message.id) as unknown as Json).includes('HOSTING_API_TOKEN'),
      'the request to say the key cannot be read',
    );
    expect(textOf(t.discord.getMessage(request.message.id) as unknown as Json)).toContain(
      'can no longer be read (HOSTING_API_TOKEN changed since it was typed, or it was not sealed for this change by this version of HostOps). Nothing was sent',
    );
    await idle(t);
    expect(t.api.requestsFor('bindPanelLicense')).toHaveLength(0);
  });

  it('reject with a reason (modal): nothing is sent, the request says who rejected and why', async () => {
    const request = await requestApproval(REGISTER);
    const press = click(request, request.rejectId, APPROVER, [ROLES.admin]);
    const modal = await callbackOf(t, press);
    expect(modal.type).toBe(CallbackType.modal);
    const submit = t.discord.dispatchModalSubmit({
      customId: str(modal.data.custom_id),
      fields: { reason: 'not our customer' },
      userId: APPROVER,
      roles: [ROLES.admin],
    });
    expect(await ephemeralText(submit)).toMatch(/Rejected\. Nothing was sent\./);
    await waitForState(request.changeId, 'rejected');
    await waitUntil(
      () => textOf(t.discord.getMessage(request.message.id) as unknown as Json).includes('not our customer'),
      'the request to show the rejection',
    );
    expect(textOf(t.discord.getMessage(request.message.id) as unknown as Json)).toContain(
      `**Rejected** by <@${APPROVER}>: not our customer. Nothing was sent.`,
    );
    await idle(t);
    expect(t.api.requests).toHaveLength(0);
    const rejectedBy = await store.audit.query(
      { userId: APPROVER, outcome: 'rejected' },
      { limit: 50, offset: 0 },
    );
    expect(rejectedBy.rows.find((r) => r.changeId === request.changeId)?.actedById).toBe(APPROVER);
    // A late approval changes nothing.
    const late = click(request, request.approveId, SECOND_APPROVER, [ROLES.admin]);
    expect(await ephemeralText(late)).toMatch(/rejected or withdrawn/);
    await idle(t);
    expect(t.api.requests).toHaveLength(0);
  });

  it('the requester may withdraw their own request', async () => {
    const request = await requestApproval(REGISTER);
    const withdraw = click(request, request.rejectId, t.discord.userId, [ROLES.admin]);
    const modal = await callbackOf(t, withdraw);
    const submit = t.discord.dispatchModalSubmit({
      customId: str(modal.data.custom_id),
      fields: { reason: '' },
      roles: [ROLES.admin],
    });
    expect(await ephemeralText(submit)).toMatch(/Withdrawn\. Nothing was sent\./);
    await waitForState(request.changeId, 'rejected');
  });

  it('an expired request can no longer be approved and shows expired', async () => {
    const request = await requestApproval(REGISTER);
    // Its deadline passes (moved in the store, rather than waiting an hour).
    await store.changes.transition(request.changeId, 'awaiting_approval', 'awaiting_approval', {
      expiresAt: new Date(Date.now() - 1000),
    });
    const late = click(request, request.approveId, APPROVER, [ROLES.admin]);
    expect(await ephemeralText(late)).toMatch(/expired; nothing was sent/);
    await waitForState(request.changeId, 'expired');
    await waitUntil(
      () => textOf(t.discord.getMessage(request.message.id) as unknown as Json).includes('**Expired**'),
      'the request to show expired',
    );
    await idle(t);
    expect(t.api.requests).toHaveLength(0);
  });
});

/** Messages the bot posted as itself (not as an interaction answer) that ask for approval. */
function approvalRequests() {
  return t.discord
    .channelMessages()
    .filter((m) => m.interaction_metadata === undefined && /^Approval needed/.test(m.embeds[0]?.title ?? ''));
}

async function waitForState(id: string, state: string) {
  let record = await store.changes.get(id);
  const deadline = Date.now() + 5_000;
  while (record?.state !== state) {
    if (Date.now() > deadline) throw new Error(`change ${id} is ${record?.state}, expected ${state}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
    record = await store.changes.get(id);
  }
  return record;
}

async function waitForRequests(i: DispatchedInteraction, count: number) {
  await waitUntil(() => t.discord.requestsFor(i).length >= count, `${count} requests for the approval`);
  return t.discord.requestsFor(i).slice(1);
}

function isEphemeralBody(body: unknown): boolean {
  return (Number(dig(body, 'flags')) & 64) === 64;
}
