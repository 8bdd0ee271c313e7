// Issue 50, raised on request for a while: /access request through the built bot and the fake Discord, on
// both engines. A night-shift viewer asks for `domain dns` on `*.acme.example` for an hour; the request is
// the change flow's approval card; a second admin approves it and the grant is in force (with `until` =
// the approval's store time + 1 h), works until its end and not a second after (the store's clock moved
// by the test: a wrapped store clock and the StoreClock's elapsed time, shifted together), and the sweep
// records its end. The requester cannot approve their own request, nor can someone without the rights;
// a reject stores nothing; an over-long request is refused with nothing stored; a revoke mid-elevation
// refuses the next Confirm; /access explain names the elevation's grant as the one allowing.
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import {
  arr,
  CallbackType,
  callbackOf,
  confirmAndWait,
  deferredAnswer,
  dig,
  ephemeralReply,
  expectNoTokensLeaked,
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
import { FakeDiscord, type InteractionOptions } from '../support/FakeDiscord.js';
import { FakeHostingApi } from '../support/FakeHostingApi.js';
import { createDatabase } from '../support/startPostgres.js';
import { ROLES, startTestBot, type TestBot } from '../support/startTestBot.js';

const NIGHT = '100000000000000061';
const ADMIN2 = '900000000000000061';
const VIEWER2 = '900000000000000062';
/** Holds `domain dns` on `*.acme.example` by a grant of their own, and no role. */
const HOLDER = '900000000000000064';
const HOUR = 3_600_000;

const engines = [
  { engine: 'sqlite', env: async () => ({}) },
  {
    engine: 'postgres',
    env: async () => ({ DATABASE_URL: await createDatabase(inject('postgresUrl'), 'access_request') }),
  },
] as const;

/** How far the test has moved the store's clock (as every part of the bot reads it). */
let shiftMs = 0;
function shifted(store: Store): Store {
  return {
    ...store,
    close: () => store.close(),
    importRows: store.importRows.bind(store),
    replicas: {
      ...store.replicas,
      clock: async () => new Date((await store.replicas.clock()).getTime() + shiftMs),
    },
  };
}

const asNight = (options: InteractionOptions) => ({ ...options, userId: NIGHT, roles: [ROLES.viewer] });
const dns = (domain: string): InteractionOptions => ({
  commandName: 'domain',
  subcommand: 'dns',
  options: { domain, records: 'www 3600 A 203.0.113.7' },
});
const requestOptions = (hours: number, on = '*.acme.example'): InteractionOptions =>
  asNight({
    commandName: 'access',
    subcommand: 'request',
    options: { what: 'domain dns', on, hours, why: 'night shift: customer outage' },
  });

describe.each(engines)('$engine: /access request', ({ env }) => {
  let t: TestBot;
  beforeAll(async () => {
    shiftMs = 0;
    t = await startTestBot(
      await env(),
      {},
      { wrapStore: shifted, monotonic: () => performance.now() + shiftMs },
    );
  });
  afterAll(() => t?.stop());
  beforeEach(() => {
    t.api.reset();
  });

  function approvalCards() {
    return t.discord
      .channelMessages()
      .filter(
        (m) => m.interaction_metadata === undefined && /^Approval needed/.test(m.embeds[0]?.title ?? ''),
      );
  }

  interface Card {
    prompt: Prompt;
    id: string;
    text: string;
    approveId: string;
    rejectId: string;
    changeId: string;
    grantId: string;
  }

  /** The requester's prompt, confirmed: the approval card the bot posts. */
  async function request(hours = 1, on?: string): Promise<Card> {
    const before = new Set(approvalCards().map((m) => m.id));
    const prompt = await openPrompt(t, requestOptions(hours, on));
    const grantId = /`(g[0-9a-f]{8})`/.exec(JSON.stringify(prompt.body))?.[1] ?? '';
    const click = press(t, prompt, 'confirm');
    expect((await callbackOf(t, click)).type).toBe(CallbackType.update);
    await waitUntil(() => approvalCards().some((m) => !before.has(m.id)), 'the approval card');
    const card = approvalCards().find((m) => !before.has(m.id));
    if (!card) throw new Error('no approval card');
    const buttons = arr(dig(card as unknown as Json, 'components', 0, 'components')).map((b) => rec(b));
    const approveId = str(buttons.find((b) => b.label === 'Approve')?.custom_id);
    return {
      prompt,
      id: card.id,
      text: textOf(card as unknown as Json),
      approveId,
      rejectId: str(buttons.find((b) => b.label === 'Reject')?.custom_id),
      changeId: approveId.split(':')[2] ?? '',
      grantId,
    };
  }

  const click = (card: Card, customId: string, userId: string, roles: string[]) =>
    t.discord.dispatchComponent({ customId, message: { id: card.id }, userId, roles });

  async function explain(target: string): Promise<string> {
    const i = t.command({
      commandName: 'access',
      subcommand: 'explain',
      options: { user: NIGHT, command: 'domain dns', target },
      roles: [ROLES.admin],
    });
    return textOf((await deferredAnswer(t, i)).body);
  }

  async function grants() {
    return (await t.bot.store.grants.load()).grants;
  }

  async function approve(card: Card): Promise<void> {
    const approval = click(card, card.approveId, ADMIN2, [ROLES.admin]);
    expect((await callbackOf(t, approval)).type).toBe(CallbackType.update);
    await waitUntil(() => t.discord.requestsFor(approval).length >= 3, 'the approval to be told');
    await idle(t);
  }

  async function auditOf(target: string) {
    const { rows } = await t.bot.store.audit.query({ target }, { limit: 50, offset: 0 });
    return rows.sort((a, b) => a.at.getTime() - b.at.getTime() || a.id - b.id);
  }

  it('a request longer than ACCESS_MAX_ELEVATION_H is refused, naming the limit, and nothing is stored', async () => {
    const text = await ephemeralReply(t, t.command(requestOptions(9)));
    expect(text).toMatch(/`hours`/);
    // The problem is shown as typed text (its markdown escaped).
    expect(text.replaceAll('\\', '')).toContain('at most 8 (ACCESS_MAX_ELEVATION_H)');
    await idle(t);
    expect(approvalCards()).toHaveLength(0);
    expect(await grants()).toEqual([]);
  });

  it('the card shows exactly what would be in force; the requester cannot approve it, nor can someone without the rights', async () => {
    const card = await request(2);
    expect(card.text).toContain('Approval needed: Access request');
    expect(card.text).toContain(`<@${NIGHT}>`);
    expect(card.text).toContain('`domain dns`');
    expect(card.text).toContain('`*.acme.example`');
    expect(card.text).toContain('2 h from the approval');
    expect(card.text).toContain('night shift: customer outage');
    expect(card.text).toContain(card.grantId);

    const self = click(card, card.approveId, NIGHT, [ROLES.admin]);
    expect(await ephemeralReply(t, self)).toMatch(/someone else has to approve it/);
    const viewer = click(card, card.approveId, VIEWER2, [ROLES.viewer]);
    const refused = await ephemeralReply(t, viewer);
    expect(refused).toMatch(/^Only someone who holds every right this request asks for may approve it: /);
    expect(refused).toContain('`/domain dns` needs the **operator** tier');
    await idle(t);
    expect(await grants()).toEqual([]);
    expect((await t.bot.store.changes.get(card.changeId))?.state).toBe('awaiting_approval');
    // Withdrawn, so it does not linger for the tests after.
    const withdraw = click(card, card.rejectId, NIGHT, [ROLES.viewer]);
    const modal = await callbackOf(t, withdraw);
    const withdrawn = t.discord.dispatchModalSubmit({
      customId: str(modal.data.custom_id),
      fields: { reason: '' },
      userId: NIGHT,
      roles: [ROLES.viewer],
    });
    expect(await ephemeralReply(t, withdrawn)).toMatch(/Withdrawn|withdrawn/);
    await idle(t);
  });

  it('rejected by an admin: nothing is in force, and the trail says requested then rejected', async () => {
    const card = await request(1);
    const rejecting = click(card, card.rejectId, ADMIN2, [ROLES.admin]);
    const modal = await callbackOf(t, rejecting);
    expect(modal.type).toBe(CallbackType.modal);
    const submit = t.discord.dispatchModalSubmit({
      customId: str(modal.data.custom_id),
      fields: { reason: 'not tonight' },
      userId: ADMIN2,
      roles: [ROLES.admin],
    });
    expect(await ephemeralReply(t, submit)).toMatch(/Rejected/);
    await idle(t);
    expect(await grants()).toEqual([]);
    expect(await ephemeralReply(t, t.command(asNight(dns('shop.acme.example'))))).toMatch(/operator/);
    expect(t.api.requests).toHaveLength(0);
    const trail = await auditOf(card.grantId);
    expect(trail.map((r) => [r.outcome, r.detail?.replace(/ by .*/, ' by')])).toEqual([
      ['ok', 'requested'],
      ['rejected', 'rejected by'],
    ]);
    expect(trail[1]?.actedById).toBe(ADMIN2);
  });

  it('revoked mid-elevation: the next Confirm of a prompt opened before is refused, with no API call', async () => {
    const card = await request(1);
    await approve(card);
    const prompt = await openPrompt(t, asNight(dns('rev.acme.example')));
    const revoke = await openPrompt(t, {
      commandName: 'access',
      subcommand: 'revoke',
      options: { id: card.grantId },
      roles: [ROLES.admin],
    });
    await confirmAndWait(t, revoke);
    await idle(t);
    t.api.reset();
    const confirm = press(t, prompt, 'confirm');
    expect(await ephemeralReply(t, confirm)).toMatch(/operator/);
    await idle(t);
    expect(t.api.requests).toHaveLength(0);
    expect(await grants()).toEqual([]);
    expect((await auditOf(card.grantId)).map((r) => r.detail)).toEqual(
      expect.arrayContaining(['requested', 'elevation ended (revoked)']),
    );
  });

  it('someone holding the rights by a grant (no role) approves a request inside it, and is refused outside it', async () => {
    const prompt = await openPrompt(t, {
      commandName: 'access',
      subcommand: 'grant',
      options: { who: `user:${HOLDER}`, what: 'domain dns', on: '*.acme.example' },
      roles: [ROLES.admin],
    });
    const holderGrant = /`(g[0-9a-f]{8})`/.exec(JSON.stringify(prompt.body))?.[1] ?? '';
    await confirmAndWait(t, prompt);

    const outside = await request(1, '*.other.example');
    const refused = await ephemeralReply(t, click(outside, outside.approveId, HOLDER, []));
    expect(refused).toMatch(/^Only someone who holds every right this request asks for may approve it: /);
    expect(refused).toContain('`*.other.example`');
    const inside = await request(1, '*.eu.acme.example');
    const approval = click(inside, inside.approveId, HOLDER, []);
    expect((await callbackOf(t, approval)).type).toBe(CallbackType.update);
    await waitUntil(() => t.discord.requestsFor(approval).length >= 3, 'the approval to be told');
    await idle(t);
    const elevation = (await grants()).find((g) => g.id === inside.grantId);
    expect(elevation).toMatchObject({ createdBy: HOLDER, patterns: ['*.eu.acme.example'] });
    expect((await grants()).map((g) => g.id)).not.toContain(outside.grantId);
    // Out of the way of the next test: both grants gone, the refused request withdrawn.
    for (const id of [holderGrant, inside.grantId]) await t.bot.store.grants.revoke(id);
    const withdraw = await callbackOf(t, click(outside, outside.rejectId, NIGHT, [ROLES.viewer]));
    const withdrawn = t.discord.dispatchModalSubmit({
      customId: str(withdraw.data.custom_id),
      fields: { reason: '' },
      userId: NIGHT,
      roles: [ROLES.viewer],
    });
    expect(await ephemeralReply(t, withdrawn)).toMatch(/Withdrawn/);
    await idle(t);
  });

  it('approved by a second admin: in force at once, explained, works until its end and not a second after, then recorded ended', async () => {
    const card = await request(1);
    await approve(card);
    const [grant] = await grants();
    expect(grant).toMatchObject({
      id: card.grantId,
      subject: { kind: 'user', id: NIGHT },
      what: ['domain dns'],
      patterns: ['*.acme.example'],
      createdBy: ADMIN2,
      requestId: card.changeId,
    });
    const until = grant?.until?.getTime() ?? 0;
    // `until` is the approval's store time plus the hours asked for.
    expect(until - (grant?.createdAt.getTime() ?? 0)).toBe(HOUR);

    // In force: a change inside goes through; outside is still refused; explain names the grant.
    await confirmAndWait(t, await openPrompt(t, asNight(dns('shop.acme.example'))));
    expect(t.api.requests).not.toHaveLength(0);
    t.api.reset();
    expect(await ephemeralReply(t, t.command(asNight(dns('shop.other.example'))))).toContain(
      '`shop.other.example`',
    );
    const explained = await explain('shop.acme.example');
    expect(explained).toContain('✅');
    expect(explained).toContain(card.grantId);

    // A minute before its end it still works.
    shiftMs = until - 60_000 - Date.now();
    const late = await openPrompt(t, asNight(dns('late.acme.example')));
    // A second after its end, the prompt opened before is refused at Confirm, and so is a new command.
    shiftMs += 61_000;
    t.api.reset();
    expect(await ephemeralReply(t, press(t, late, 'confirm'))).toMatch(/operator/);
    expect(await ephemeralReply(t, t.command(asNight(dns('new.acme.example'))))).toMatch(/operator/);
    await idle(t);
    expect(t.api.requests).toHaveLength(0);
    expect(await explain('shop.acme.example')).toContain('🚫');

    // The sweep records its end, once, and removes it.
    let trail = await auditOf(card.grantId);
    for (let tries = 0; !trail.some((r) => r.outcome === 'expired') && tries < 300; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      trail = await auditOf(card.grantId);
    }
    expect(trail.map((r) => [r.outcome, r.detail])).toEqual([
      ['ok', 'requested'],
      ['done', `approved by ${str(trail[1]?.actedByName)}`],
      ['ok', `in force until ${new Date(until).toISOString()}`],
      ['expired', `elevation ended at ${new Date(until).toISOString()}`],
    ]);
    expect(trail[1]?.actedById).toBe(ADMIN2);
    expect(await grants()).toEqual([]);
    // Neither token in the logs, in what Discord was sent, or in the rows the elevation left.
    expectNoTokensLeaked(t);
    const rows = JSON.stringify([trail, await t.bot.store.changes.get(card.changeId)]);
    for (const secret of [t.api.token, t.discord.token]) expect(rows).not.toContain(secret);
  });
});

// Two replicas on one PostgreSQL database behind one fake Discord that hands interactions to each in turn
// (`alternate`): two approvers pressing Approve at once — one on each replica — put one grant in force;
// both replicas let the requester through at once; a revoke on one is refused by the other at its next
// Confirm.
describe('postgres: /access request on two replicas', () => {
  const ADMIN3 = '900000000000000063';
  let discord: FakeDiscord;
  let api: FakeHostingApi;
  let a: TestBot;
  let b: TestBot;
  beforeAll(async () => {
    discord = await FakeDiscord.start({
      guilds: [{ roles: Object.entries(ROLES).map(([name, id]) => ({ id, name })) }],
      sessions: 'alternate',
    });
    api = await FakeHostingApi.start();
    const DATABASE_URL = await createDatabase(inject('postgresUrl'), 'access_request_replicas');
    a = await startTestBot({ DATABASE_URL }, { discord, api });
    b = await startTestBot({ DATABASE_URL }, { discord, api });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    await Promise.all([discord?.stop(), api?.stop()]);
  });

  it('two approvers on two replicas: one approval, one grant, in force on both; a revoke on one is refused by the other', async () => {
    const before = new Set(discord.channelMessages().map((m) => m.id));
    const prompt = await openPrompt(a, requestOptions(1));
    expect((await callbackOf(a, press(a, prompt, 'confirm'))).type).toBe(CallbackType.update);
    await waitUntil(
      () =>
        discord
          .channelMessages()
          .some((m) => !before.has(m.id) && /^Approval needed/.test(m.embeds[0]?.title ?? '')),
      'the approval card',
    );
    const card = discord
      .channelMessages()
      .find((m) => !before.has(m.id) && /^Approval needed/.test(m.embeds[0]?.title ?? ''));
    const buttons = arr(dig(card as unknown as Json, 'components', 0, 'components')).map((x) => rec(x));
    const approveId = str(buttons.find((x) => x.label === 'Approve')?.custom_id);
    const approvals = [ADMIN2, ADMIN3].map((userId) =>
      discord.dispatchComponent({
        customId: approveId,
        message: { id: card?.id ?? '' },
        userId,
        roles: [ROLES.admin],
      }),
    );
    const answers = await Promise.all(approvals.map((i) => callbackOf(a, i)));
    expect(new Set(approvals.map((i) => discord.deliveredTo(i)[0])).size, 'one press on each replica').toBe(
      2,
    );
    expect(answers.map((x) => x.type).sort()).toEqual([CallbackType.update, CallbackType.reply].sort());
    const loser = answers.find((x) => x.type === CallbackType.reply);
    expect(textOf(loser?.data ?? {})).toBe('This change was already approved.');
    await idle(a);
    await idle(b);
    const { grants } = await a.bot.store.grants.load();
    expect(grants).toHaveLength(1);
    const grantId = grants[0]?.id ?? '';
    const done = await a.bot.store.audit.query(
      { target: grantId, outcome: 'done' },
      { limit: 10, offset: 0 },
    );
    expect(done.rows).toHaveLength(1);

    // In force on both replicas: the requester's prompts open on each (one command each, in turn).
    const first = await openPrompt(a, asNight(dns('one.acme.example')));
    const second = await openPrompt(a, asNight(dns('two.acme.example')));
    expect(discord.deliveredTo(first.interaction)[0]).not.toBe(discord.deliveredTo(second.interaction)[0]);

    // Revoked (its Confirm handled by one replica), the next Confirm is refused whichever replica takes it.
    const revoke = await openPrompt(a, {
      commandName: 'access',
      subcommand: 'revoke',
      options: { id: grantId },
      roles: [ROLES.admin],
    });
    await confirmAndWait(a, revoke);
    api.reset();
    const confirms = [first, second].map((pending) => press(a, pending, 'confirm'));
    for (const confirm of confirms) expect(await ephemeralReply(a, confirm)).toMatch(/operator/);
    expect(new Set(confirms.map((i) => discord.deliveredTo(i)[0])).size, 'one on each replica').toBe(2);
    await idle(a);
    await idle(b);
    expect(api.requests).toHaveLength(0);
  });
});
