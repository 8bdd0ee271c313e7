// Revert under approval: with APPROVAL_REQUIRED listing `domain dns`, Revert on the public record of a DNS
// change opens an ordinary prompt for the previous set; Confirm turns it into an approval request, and
// only a second person's approval sends the previous set — exactly it, once.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/store/index.js';
import {
  arr,
  CallbackType,
  callbackOf,
  dig,
  embedsOf,
  fieldValue,
  idle,
  isEphemeral,
  type Json,
  openPrompt,
  type Prompt,
  press,
  queryOf,
  rec,
  str,
  textOf,
  waitUntil,
} from '../support/e2eHelpers.js';
import type { DispatchedInteraction } from '../support/FakeDiscord.js';
import { ROLES, startTestBot, type TestBot, tempDatabaseUrl } from '../support/startTestBot.js';

const APPROVER = '900000000000000011';
const REVERTER = '900000000000000012';
const SECOND_APPROVER = '900000000000000013';
const DOMAIN = 'revert-approval.example';
const COMPARED = 'Compared with the last set sent through HostOps';

const FIRST = 'www 3600 A 203.0.113.7\n@ MX 10 mail.example.com.\nold 3600 A 198.51.100.1';
const SECOND = 'www 3600 A 203.0.113.8\n@ MX 10 mail.example.com.\nnew 300 TXT "hello"';
const FIRST_SENT = [
  { name: 'www', type: 'A', content: '203.0.113.7', ttl: 3600 },
  { name: '@', type: 'MX', content: 'mail.example.com', ttl: 3600, prio: 10 },
  { name: 'old', type: 'A', content: '198.51.100.1', ttl: 3600 },
];

let t: TestBot;
beforeAll(async () => {
  t = await startTestBot({ DATABASE_URL: tempDatabaseUrl(), APPROVAL_REQUIRED: 'domain dns' });
});
afterAll(() => t?.stop());

const sent = () => queryOf(t, 'submitDnsRecords');

function buttonId(body: Json, label: string): string {
  const buttons = arr(dig(body, 'components', 0, 'components'), 'buttons').map((b) => rec(b));
  return str(buttons.find((b) => b.label === label)?.custom_id, `${label} button`);
}

function approvalRequests() {
  return t.discord
    .channelMessages()
    .filter((m) => m.interaction_metadata === undefined && /^Approval needed/.test(m.embeds[0]?.title ?? ''));
}

/** Presses Confirm on a prompt; returns the approval request the bot posted (and the click). */
async function confirmIntoApproval(prompt: Prompt) {
  const before = new Set(approvalRequests().map((m) => m.id));
  const click = press(t, prompt, 'confirm');
  expect((await callbackOf(t, click)).type).toBe(CallbackType.update);
  const pending = textOf(rec((await t.nth(click, 1)).body));
  expect(pending).toMatch(/\*\*Approval pending\*\* — nothing is sent until someone else/);
  await waitUntil(() => approvalRequests().some((m) => !before.has(m.id)), 'the approval request');
  const message = approvalRequests().find((m) => !before.has(m.id));
  if (!message) throw new Error('no approval request');
  const body = message as unknown as Json;
  return { click, message: { id: message.id, body }, approveId: buttonId(body, 'Approve') };
}

function approve(request: { message: { id: string }; approveId: string }, userId = APPROVER) {
  return t.discord.dispatchComponent({
    customId: request.approveId,
    message: { id: request.message.id },
    userId,
    roles: [ROLES.operator],
  });
}

/** An approved change's public record: the fourth request of the Approve click (after the private one). */
async function publicRecordOf(approval: DispatchedInteraction) {
  const record = await t.nth(approval, 3);
  expect(record.method).toBe('POST');
  expect(isEphemeral(rec(record.body))).toBe(false);
  return { body: rec(record.body), messageId: record.message?.id ?? '' };
}

/** Sends a set the approved way: prompt, Confirm, someone else approves. */
async function sendApproved(records: string) {
  const prompt = await openPrompt(t, {
    commandName: 'domain',
    subcommand: 'dns',
    options: { domain: DOMAIN, records },
  });
  const request = await confirmIntoApproval(prompt);
  const approval = approve(request);
  expect((await callbackOf(t, approval)).type).toBe(CallbackType.update);
  return publicRecordOf(approval);
}

async function auditRowsOf(changeId: string): Promise<AuditEntry[]> {
  const { rows } = await t.bot.store.audit.query({ command: 'domain' }, { limit: 100, offset: 0 });
  return rows.filter((row) => row.changeId === changeId);
}

it('Revert under approval: an ordinary prompt for the previous set, Confirm asks for approval, and only a second person’s approval sends exactly that set, once', async () => {
  await sendApproved(FIRST);
  const second = await sendApproved(SECOND);
  await idle(t);
  expect(sent()).toHaveLength(2);
  expect(textOf(second.body)).toContain(`(approved by <@${APPROVER}>)`);

  // Another operator presses Revert on the public record: an ordinary, private prompt for the previous
  // set, compared with the set it replaces. Nothing is sent and nothing waits for approval yet.
  const revert = t.discord.dispatchComponent({
    customId: buttonId(second.body, 'Revert'),
    message: { id: second.messageId },
    userId: REVERTER,
    roles: [ROLES.operator],
  });
  const cb = await callbackOf(t, revert);
  expect([CallbackType.reply, CallbackType.defer]).toContain(cb.type);
  expect(isEphemeral(cb.data)).toBe(true);
  const promptBody = cb.type === CallbackType.defer ? rec((await t.nth(revert, 1)).body) : cb.data;
  const [embed = {}] = embedsOf(promptBody);
  expect(textOf(promptBody)).toContain('old 3600 A 198.51.100.1');
  const compared = fieldValue(embed, COMPARED);
  expect(compared).toContain('1 added, 1 removed, 1 changed, 1 unchanged');
  expect(compared).toContain('+ old 3600 A 198.51.100.1');
  expect(compared).toContain('- new 300 TXT "hello"');
  expect(compared).toContain('~ www 3600 A 203.0.113.8\n→ www 3600 A 203.0.113.7');
  const promptMessage = t.discord.originalMessage(revert);
  if (!promptMessage) throw new Error('no revert prompt message');
  const prompt: Prompt = {
    interaction: revert,
    body: promptBody,
    embed,
    messageId: promptMessage.id,
    confirmId: buttonId(promptBody, 'Confirm'),
    cancelId: buttonId(promptBody, 'Cancel'),
    ownerId: REVERTER,
    ownerRoles: [ROLES.operator],
    channelId: t.discord.channelId,
  };
  const revertId = prompt.confirmId.split(':')[2] ?? '';
  await idle(t);
  expect(sent()).toHaveLength(2);
  expect((await t.bot.store.changes.get(revertId))?.state).toBe('pending');

  // Confirm: an approval request showing the previous set, naming the reverter; still nothing sent.
  const request = await confirmIntoApproval(prompt);
  expect(textOf(request.message.body)).toContain('old 3600 A 198.51.100.1');
  expect(textOf(request.message.body)).toContain(`<@${REVERTER}>`);
  await idle(t);
  expect(sent()).toHaveLength(2);
  expect((await t.bot.store.changes.get(revertId))?.state).toBe('awaiting_approval');

  // The reverter cannot approve their own revert.
  const own = approve(request, REVERTER);
  const ownReply = await callbackOf(t, own);
  expect(ownReply.type).toBe(CallbackType.reply);
  expect(textOf(ownReply.data)).toMatch(/someone else has to approve it\. Nothing was sent\./);
  await idle(t);
  expect(sent()).toHaveLength(2);

  // A second person approves: exactly the previous set goes out, once.
  const approval = approve(request);
  expect((await callbackOf(t, approval)).type).toBe(CallbackType.update);
  const reverted = await publicRecordOf(approval);
  await idle(t);
  expect(sent()).toHaveLength(3);
  const last = sent()[2] ?? {};
  expect(last.domain).toBe(DOMAIN);
  expect(JSON.parse(last.records ?? '')).toEqual(FIRST_SENT);
  expect(textOf(reverted.body)).toContain(`<@${REVERTER}> submitted 3 records`);
  expect(textOf(reverted.body)).toContain(`(approved by <@${APPROVER}>)`);
  // A revert is a change like any other: it can be reverted in turn.
  expect(buttonId(reverted.body, 'Revert')).toMatch(/revert/);

  // A late second approval sends nothing more.
  const late = approve(request, SECOND_APPROVER);
  const lateReply = await callbackOf(t, late);
  expect(lateReply.type).toBe(CallbackType.reply);
  expect(textOf(lateReply.data)).toMatch(/already approved/);
  await idle(t);
  expect(sent()).toHaveLength(3);

  // The journal and the store's memory: done, and the previous set is now the latest one.
  expect((await t.bot.store.changes.get(revertId))?.state).toBe('done');
  const latest = await t.bot.store.dnsSets.latest(DOMAIN);
  expect(latest?.changeId).toBe(revertId);
  // Kept exactly as it was encoded for the provider.
  expect(latest?.records).toBe(last.records);

  // The audit trail: the revert's one ending, the reverter as requester and the approver as who acted.
  let rows = await auditRowsOf(revertId);
  for (let tries = 0; rows.length === 0 && tries < 500; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    rows = await auditRowsOf(revertId);
  }
  expect(
    rows.map((row) => ({
      userId: row.userId,
      subcommand: row.subcommand,
      target: row.target,
      outcome: row.outcome,
      detail: row.detail,
      actedById: row.actedById,
    })),
  ).toEqual([
    {
      userId: REVERTER,
      subcommand: 'dns',
      target: DOMAIN,
      outcome: 'done',
      detail: expect.stringMatching(/^approved by /),
      actedById: APPROVER,
    },
  ]);
});
