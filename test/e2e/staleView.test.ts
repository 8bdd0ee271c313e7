// A change is never sent on a view that is no longer true (issue 33, point 1). The provider replaces a
// domain's whole record set, so a /domain dns prompt whose difference was made against an older set would
// drop whatever was sent since. At Confirm and at Approve the set is compared again with the domain's
// latest one: if another was sent in between, nothing is sent and the change comes back as a new prompt
// (or an updated approval request) against the latest set, naming who sent it and what would now go. Two
// changes of one domain are never sent at once. On both engines: the one-at-a-time rule is the store's.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AuditEntry } from '../../src/store/index.js';
import {
  arr,
  CallbackType,
  callbackOf,
  confirmAndWait,
  dig,
  embedsOf,
  ephemeralReply,
  fieldValue,
  idle,
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
import { createDatabase } from '../support/startPostgres.js';
import { ROLES, startTestBot, type TestBot, tempDatabaseUrl } from '../support/startTestBot.js';

const ALICE = '900000000000000031';
const BOB = '900000000000000032';
const APPROVER = '900000000000000033';
const COMPARED = 'Compared with the last set sent through HostOps';

const BASE = 'www 3600 A 203.0.113.7\n@ MX 10 mail.example.com.';
// Alice adds a host; Bob, who looked at the same base set, adds a TXT record.
const ALICES = `${BASE}\nalice 3600 A 198.51.100.10`;
const BOBS = `${BASE}\nbob 300 TXT "bob"`;
const BOBS_SENT = [
  { name: 'www', type: 'A', content: '203.0.113.7', ttl: 3600 },
  { name: '@', type: 'MX', content: 'mail.example.com', ttl: 3600, prio: 10 },
  { name: 'bob', type: 'TXT', content: 'bob', ttl: 300 },
];

const engines = [
  { engine: 'sqlite', databaseUrl: async (_label: string) => tempDatabaseUrl() },
  { engine: 'postgres', databaseUrl: (label: string) => createDatabase(inject('postgresUrl'), label) },
] as const;

const dns = (domain: string, records: string, userId: string) => ({
  commandName: 'domain',
  subcommand: 'dns',
  options: { domain, records },
  userId,
});

function buttonId(body: Json, label: string): string {
  const buttons = arr(dig(body, 'components', 0, 'components'), 'buttons').map((b) => rec(b));
  return str(buttons.find((b) => b.label === label)?.custom_id, `${label} button`);
}

const changeIdOf = (customId: string) => customId.split(':')[2] ?? '';

/** The prompt a Confirm turned into (the message it was on, edited): its text and its new buttons. */
async function renewedPrompt(t: TestBot, click: DispatchedInteraction, of: Prompt): Promise<Prompt> {
  const edit = await t.nth(click, 1);
  expect(edit.method).toBe('PATCH');
  expect(edit.path).toBe(`/webhooks/${t.discord.applicationId}/${click.token}/messages/@original`);
  const body = rec(edit.body);
  const [embed = {}] = embedsOf(body);
  return {
    ...of,
    interaction: click,
    body,
    embed,
    confirmId: buttonId(body, 'Confirm'),
    cancelId: buttonId(body, 'Cancel'),
  };
}

async function auditRowsOf(t: TestBot, changeId: string, count = 1): Promise<AuditEntry[]> {
  const rows = async () =>
    (await t.bot.store.audit.query({ command: 'domain' }, { limit: 200, offset: 0 })).rows.filter(
      (row) => row.changeId === changeId,
    );
  let found = await rows();
  for (let tries = 0; found.length < count && tries < 500; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    found = await rows();
  }
  return found;
}

describe.each(engines)('$engine store', ({ databaseUrl }) => {
  describe('Confirm', () => {
    let t: TestBot;
    beforeAll(async () => {
      t = await startTestBot({ DATABASE_URL: await databaseUrl('stale_confirm') });
    });
    afterAll(() => t?.stop());

    /** What the provider received for one domain. */
    const sentTo = (domain: string) => queryOf(t, 'submitDnsRecords').filter((q) => q.domain === domain);

    /** The base set sent, then Alice's and Bob's prompts, both made against it. */
    async function bothOnTheBase(domain: string): Promise<{ alice: Prompt; bob: Prompt }> {
      await confirmAndWait(t, await openPrompt(t, dns(domain, BASE, ALICE)));
      await idle(t);
      const alice = await openPrompt(t, dns(domain, ALICES, ALICE));
      const bob = await openPrompt(t, dns(domain, BOBS, BOB));
      return { alice, bob };
    }

    it('a prompt made against a set that another one replaced sends nothing: a new prompt names who sent it and what would go; its Confirm sends', async () => {
      const domain = 'stale-confirm.example';
      const sent = () => sentTo(domain);
      const { alice, bob } = await bothOnTheBase(domain);
      expect(fieldValue(bob.embed, COMPARED)).toContain('1 added, 0 removed, 0 changed, 2 unchanged');
      await confirmAndWait(t, alice);
      await idle(t);
      expect(sent()).toHaveLength(2);

      // Bob confirms: sent as shown, it would remove Alice's host. Nothing goes to the provider.
      const click = press(t, bob, 'confirm');
      expect((await callbackOf(t, click)).type).toBe(CallbackType.update);
      const renewed = await renewedPrompt(t, click, bob);
      await idle(t);
      expect(sent()).toHaveLength(2);
      const why = str(renewed.embed.description);
      expect(why).toContain(`**Not sent:** <@${ALICE}> sent another set for \`${domain}\``);
      expect(why).toContain('it would remove 1 record: `alice 3600 A 198.51.100.10`');
      expect(why).toContain('Nothing is sent until you press **Confirm**');
      // The new prompt compares with Alice's set, and is a change of its own.
      const compared = fieldValue(renewed.embed, COMPARED);
      expect(compared).toContain(`The set <@${ALICE}> sent`);
      expect(compared).toContain('1 added, 1 removed, 0 changed, 2 unchanged');
      expect(compared).toContain('- alice 3600 A 198.51.100.10');
      expect(compared).toContain('+ bob 300 TXT "bob"');
      const oldId = changeIdOf(bob.confirmId);
      const newId = changeIdOf(renewed.confirmId);
      expect(newId).not.toBe(oldId);
      expect(await t.bot.store.changes.get(oldId)).toMatchObject({
        state: 'failed',
        result: { reason: 'outdated', sent: false },
      });
      expect(await t.bot.store.changes.get(newId)).toMatchObject({ state: 'pending', requestedById: BOB });
      const [ended] = await auditRowsOf(t, oldId);
      expect(ended).toMatchObject({ userId: BOB, outcome: 'failed', detail: 'outdated' });

      // The old Confirm does nothing more; the new one sends exactly Bob's set, once.
      const again = press(t, bob, 'confirm');
      expect(await ephemeralReply(t, again)).toContain('already confirmed');
      await confirmAndWait(t, renewed);
      await idle(t);
      expect(sent()).toHaveLength(3);
      expect(JSON.parse(sent()[2]?.records ?? '')).toEqual(BOBS_SENT);
      expect((await t.bot.store.dnsSets.latest(domain))?.changeId).toBe(newId);
      expect((await auditRowsOf(t, newId))[0]).toMatchObject({ userId: BOB, outcome: 'done' });
    });

    it('two changes of one domain are never sent at once: the second Confirm waits, then is compared with the first', async () => {
      const domain = 'stale-race.example';
      const sent = () => sentTo(domain);
      const { alice, bob } = await bothOnTheBase(domain);
      // The provider holds Alice's set until told to answer.
      let answer = () => {};
      const held = new Promise<void>((resolve) => {
        answer = resolve;
      });
      t.api.respond('submitDnsRecords', async () => {
        await held;
        return { body: {} };
      });
      try {
        const aliceClick = press(t, alice, 'confirm');
        const bobClick = press(t, bob, 'confirm');
        await callbackOf(t, aliceClick);
        await callbackOf(t, bobClick);
        await waitUntil(() => sent().length === 2, "Alice's set to reach the provider");
        // Whichever claimed first is being sent; the other is told to press again, and stays pending.
        const busy = t.discord.requestsFor(bobClick)[0];
        const bobFirst = dig(busy?.body, 'type') === CallbackType.update;
        const [waiting, waitingPrompt, sending] = bobFirst
          ? ([aliceClick, alice, bob] as const)
          : ([bobClick, bob, alice] as const);
        expect(await ephemeralReply(t, waiting)).toContain(
          `Not sent yet: another change to \`${domain}\` is being sent right now. Press **Confirm** again`,
        );
        expect((await t.bot.store.changes.get(changeIdOf(waitingPrompt.confirmId)))?.state).toBe('pending');
        expect(sent()).toHaveLength(2);
        answer();
        await idle(t);
        expect(sent()).toHaveLength(2);
        expect((await t.bot.store.changes.get(changeIdOf(sending.confirmId)))?.state).toBe('done');

        // Pressed again, the waiting change is compared with the one just sent: a new prompt, nothing sent.
        const retry = press(t, waitingPrompt, 'confirm');
        expect((await callbackOf(t, retry)).type).toBe(CallbackType.update);
        const renewed = await renewedPrompt(t, retry, waitingPrompt);
        await idle(t);
        expect(sent()).toHaveLength(2);
        expect(str(renewed.embed.description)).toContain(`<@${sending.ownerId}> sent another set`);
      } finally {
        answer();
        t.api.reset();
      }
    });
  });

  describe('Approve (APPROVAL_REQUIRED=domain dns)', () => {
    let t: TestBot;
    beforeAll(async () => {
      t = await startTestBot({
        DATABASE_URL: await databaseUrl('stale_approve'),
        APPROVAL_REQUIRED: 'domain dns',
      });
    });
    afterAll(() => t?.stop());

    /** What the provider received for one domain. */
    const sentTo = (domain: string) => queryOf(t, 'submitDnsRecords').filter((q) => q.domain === domain);

    function approvalRequests() {
      return t.discord
        .channelMessages()
        .filter(
          (m) => m.interaction_metadata === undefined && /^Approval needed/.test(m.embeds[0]?.title ?? ''),
        );
    }

    /** Confirm on a prompt, and the approval request it posted. */
    async function requestApproval(prompt: Prompt): Promise<{ messageId: string; approveId: string }> {
      const before = new Set(approvalRequests().map((m) => m.id));
      const click = press(t, prompt, 'confirm');
      expect((await callbackOf(t, click)).type).toBe(CallbackType.update);
      await waitUntil(() => approvalRequests().some((m) => !before.has(m.id)), 'the approval request');
      const message = approvalRequests().find((m) => !before.has(m.id));
      if (!message) throw new Error('no approval request');
      return { messageId: message.id, approveId: buttonId(message as unknown as Json, 'Approve') };
    }

    const approve = (request: { messageId: string; approveId: string }) =>
      t.discord.dispatchComponent({
        customId: request.approveId,
        message: { id: request.messageId },
        userId: APPROVER,
        roles: [ROLES.operator],
      });

    const requestText = (messageId: string) => textOf(t.discord.getMessage(messageId) as unknown as Json);

    it('a request approved after another set was sent sends nothing: the request shows the difference to the latest set, and approving that sends it', async () => {
      const domain = 'stale-approve.example';
      const sent = () => sentTo(domain);
      const bobs = await requestApproval(await openPrompt(t, dns(domain, BOBS, BOB)));
      expect(requestText(bobs.messageId)).toContain('No earlier set was sent through HostOps');
      // Meanwhile Alice's set is requested, approved and sent.
      const alices = await requestApproval(await openPrompt(t, dns(domain, ALICES, ALICE)));
      await callbackOf(t, approve(alices));
      await waitUntil(() => sent().length === 1, "Alice's set to be sent");
      await idle(t);

      // Bob's request is approved days later: it would now remove Alice's records. Nothing is sent.
      const stale = approve(bobs);
      expect((await callbackOf(t, stale)).type).toBe(CallbackType.update);
      await waitUntil(() => requestText(bobs.messageId).includes('Not sent'), 'the request to be updated');
      await idle(t);
      expect(sent()).toHaveLength(1);
      const shown = requestText(bobs.messageId);
      expect(shown).toContain(`**Not sent:** <@${ALICE}> sent another set for \`${domain}\``);
      expect(shown).toContain('it would remove 1 record: `alice 3600 A 198.51.100.10`');
      expect(shown).toContain(`The set <@${ALICE}> sent`);
      expect(shown).toContain('- alice 3600 A 198.51.100.10');
      expect(shown).toContain(`Requested by <@${BOB}>`);
      // The same message, with buttons of a new change waiting for approval.
      const renewed = {
        messageId: bobs.messageId,
        approveId: buttonId(t.discord.getMessage(bobs.messageId) as unknown as Json, 'Approve'),
      };
      const oldId = changeIdOf(bobs.approveId);
      const newId = changeIdOf(renewed.approveId);
      expect(newId).not.toBe(oldId);
      expect(await t.bot.store.changes.get(oldId)).toMatchObject({
        state: 'failed',
        result: { reason: 'outdated', sent: false },
      });
      expect(await t.bot.store.changes.get(newId)).toMatchObject({
        state: 'awaiting_approval',
        requestedById: BOB,
        approval: { messageId: bobs.messageId },
      });
      const [ended] = await auditRowsOf(t, oldId);
      expect(ended).toMatchObject({
        userId: BOB,
        outcome: 'failed',
        detail: 'outdated',
        actedById: APPROVER,
      });

      // Approving what it shows now sends exactly Bob's set, once.
      expect((await callbackOf(t, approve(renewed))).type).toBe(CallbackType.update);
      await waitUntil(() => sent().length === 2, "Bob's set to be sent");
      await idle(t);
      expect(sent()).toHaveLength(2);
      expect(JSON.parse(sent()[1]?.records ?? '')).toEqual(BOBS_SENT);
      expect(await t.bot.store.changes.get(newId)).toMatchObject({ state: 'done' });
    });
  });
});
