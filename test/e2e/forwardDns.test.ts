// /server rdns checks forward-confirmed reverse DNS before its prompt: the host name's A records, asked of
// a local DNS server (DNS_SERVERS), after the acknowledgement.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/store/index.js';
import {
  arr,
  CallbackType,
  callbackOf,
  confirmAndWait,
  dig,
  fieldValue,
  idle,
  isEphemeral,
  type Json,
  openPrompt,
  press,
  rec,
  str,
  textOf,
  waitUntil,
} from '../support/e2eHelpers.js';
import type { InteractionOptions } from '../support/FakeDiscord.js';
import { FakeDnsServer } from '../support/FakeDnsServer.js';
import { ROLES, startTestBot, type TestBot } from '../support/startTestBot.js';

const IP = '203.0.113.7';
let dns: FakeDnsServer;

const rdns = (hostname: string): InteractionOptions => ({
  commandName: 'server',
  subcommand: 'rdns',
  options: { id: 42, ip: IP, hostname },
});

beforeAll(async () => {
  dns = await FakeDnsServer.start();
  dns.set('mail.example.com', { a: [IP] });
  dns.set('typo.example.com', { a: ['198.51.100.9', '198.51.100.1'] });
  dns.set('v6only.example.com', 'nodata');
  dns.set('silent.example.com', 'silent');
});
afterAll(() => dns.stop());

/**
 * The change behind a button, kept from being sent by the forward check made again: `failed` with nothing
 * sent, in the journal and in the audit trail alike (`forward_dns`).
 */
async function expectRefusedUnsent(t: TestBot, customId: string, audited: Partial<AuditEntry> = {}) {
  const id = customId.split(':')[2] ?? '';
  expect(await t.bot.store.changes.get(id)).toMatchObject({
    state: 'failed',
    result: { reason: 'forward_dns', sent: false },
  });
  const { rows } = await t.bot.store.audit.query({ command: 'server' }, { limit: 10, offset: 0 });
  expect(rows.find((row) => row.changeId === id)).toMatchObject({
    outcome: 'failed',
    detail: 'forward_dns',
    ...audited,
  });
}

describe('RDNS_FORWARD_CHECK=warn (the default)', () => {
  let t: TestBot;
  beforeAll(async () => {
    t = await startTestBot({ DNS_SERVERS: dns.address, RDNS_FORWARD_CHECK: 'warn' });
  });
  afterAll(() => t.stop());

  it('the prompt says the host name resolves to the IP; Confirm sends once', async () => {
    const prompt = await openPrompt(t, rdns('mail.example.com'));
    // Even a resolver that answers at once is never waited for: an ephemeral deferral, then the prompt.
    const ack = rec((await t.nth(prompt.interaction, 0)).body);
    expect(ack.type).toBe(CallbackType.defer);
    expect(isEphemeral(rec(ack.data))).toBe(true);
    expect(fieldValue(prompt.embed, 'Forward DNS')).toContain('✅');
    expect(fieldValue(prompt.embed, 'Forward DNS')).toContain('resolves to `203.0.113.7`');
    expect(dns.queries).toContainEqual({ name: 'mail.example.com', type: 1 });
    await confirmAndWait(t, prompt);
    await idle(t);
    expect(t.api.requestsFor('setReverseDns')).toHaveLength(1);
    // What is sent is what was typed: the check is shown, never sent.
    expect([...(t.api.requestsFor('setReverseDns')[0]?.query.keys() ?? [])]).not.toContain('forward');
  });

  it('other addresses: a warning naming them, and Confirm stays', async () => {
    const prompt = await openPrompt(t, rdns('typo.example.com'));
    const shown = fieldValue(prompt.embed, 'Forward DNS');
    expect(shown).toContain('⚠️');
    expect(shown).toContain('`198.51.100.1`, `198.51.100.9`');
    expect(shown).toContain('not to `203.0.113.7`');
    expect(prompt.confirmId).toMatch(/confirm/);
  });

  it('no address, and a resolver that stays silent: said plainly, Confirm stays', async () => {
    const none = await openPrompt(t, rdns('v6only.example.com'));
    expect(fieldValue(none.embed, 'Forward DNS')).toContain('has no IPv4 address');
    const silent = await openPrompt(t, rdns('silent.example.com'));
    expect(fieldValue(silent.embed, 'Forward DNS')).toContain(
      'not checked: the resolver did not answer within 2 s',
    );
    // A slow look-up never holds up the acknowledgement: an ephemeral deferral first, then the prompt.
    const ack = rec((await t.nth(silent.interaction, 0)).body);
    expect(ack.type).toBe(CallbackType.defer);
    expect(isEphemeral(rec(ack.data))).toBe(true);
    expect(t.api.requestsFor('setReverseDns')).toHaveLength(1);
  });
});

describe('RDNS_FORWARD_CHECK=require', () => {
  let t: TestBot;
  beforeAll(async () => {
    t = await startTestBot({ DNS_SERVERS: dns.address, RDNS_FORWARD_CHECK: 'require' });
  });
  afterAll(() => t.stop());

  it('anything but a match is refused privately, naming what was found, with no API call and no record', async () => {
    const i = t.command(rdns('typo.example.com'));
    // Acknowledged first (ephemerally); the refusal follows in the same private answer.
    const ack = rec((await t.nth(i, 0)).body);
    expect(ack.type).toBe(CallbackType.defer);
    expect(isEphemeral(rec(ack.data))).toBe(true);
    const text = textOf(rec((await t.nth(i, 1)).body));
    expect(text).toContain('RDNS_FORWARD_CHECK=require');
    expect(text).toContain('`198.51.100.1`, `198.51.100.9`');
    await idle(t);
    expect(t.api.requestsFor('setReverseDns')).toHaveLength(0);
    expect(await t.bot.store.changes.listByState(['pending'])).toEqual([]);
    const { rows } = await t.bot.store.audit.query({ command: 'server' }, { limit: 10, offset: 0 });
    expect(rows.map((row) => [row.outcome, row.detail])).toEqual([['refused', 'forward_dns']]);
  });

  it('a match gets the ordinary prompt', async () => {
    const prompt = await openPrompt(t, rdns('mail.example.com'));
    expect(fieldValue(prompt.embed, 'Forward DNS')).toContain('✅');
    await confirmAndWait(t, prompt);
    await idle(t);
    expect(t.api.requestsFor('setReverseDns')).toHaveLength(1);
  });

  it('checked again at Confirm: a host name that no longer resolves to the IP is not sent', async () => {
    dns.set('moved.example.com', { a: [IP] });
    const prompt = await openPrompt(t, rdns('moved.example.com'));
    expect(fieldValue(prompt.embed, 'Forward DNS')).toContain('✅');
    dns.set('moved.example.com', { a: ['198.51.100.99'] });
    const click = press(t, prompt, 'confirm');
    expect((await callbackOf(t, click)).type).toBe(CallbackType.update);
    const text = textOf(rec((await t.nth(click, 1)).body));
    expect(text).toContain(
      'Not sent: checked again before sending, `moved.example.com` no longer resolves to `203.0.113.7`',
    );
    expect(text).toContain('resolves to `198.51.100.99`');
    await idle(t);
    expect(t.api.requestsFor('setReverseDns')).toHaveLength(1);
    await expectRefusedUnsent(t, prompt.confirmId);
  });
});

describe('RDNS_FORWARD_CHECK=require under approval: checked again at Approve', () => {
  const APPROVER = '900000000000000041';
  let t: TestBot;
  beforeAll(async () => {
    t = await startTestBot({
      DNS_SERVERS: dns.address,
      RDNS_FORWARD_CHECK: 'require',
      APPROVAL_REQUIRED: 'server rdns',
    });
  });
  afterAll(() => t.stop());

  /** Confirm on a matching prompt: the approval request it posts. */
  async function requestApproval(hostname: string) {
    const prompt = await openPrompt(t, rdns(hostname));
    expect(fieldValue(prompt.embed, 'Forward DNS')).toContain('✅');
    const click = press(t, prompt, 'confirm');
    expect((await callbackOf(t, click)).type).toBe(CallbackType.update);
    await waitUntil(() => requestOf(hostname) !== undefined, 'the approval request');
    const message = requestOf(hostname);
    if (!message) throw new Error('no approval request');
    const buttons = arr(dig(message, 'components', 0, 'components')).map((b) => rec(b));
    return { messageId: message.id, approveId: str(buttons.find((b) => b.label === 'Approve')?.custom_id) };
  }

  const requestOf = (hostname: string) =>
    t.discord
      .channelMessages()
      .find((m) => /^Approval needed/.test(m.embeds[0]?.title ?? '') && JSON.stringify(m).includes(hostname));

  const approve = (request: { messageId: string; approveId: string }) =>
    t.discord.dispatchComponent({
      customId: request.approveId,
      message: { id: request.messageId },
      userId: APPROVER,
      roles: [ROLES.operator],
    });

  it('a host name that no longer resolves to the IP when approved: nothing sent, the request says what was found', async () => {
    dns.set('later.example.com', { a: [IP] });
    const request = await requestApproval('later.example.com');
    // Between the request and the approval, the A record goes elsewhere.
    dns.set('later.example.com', { a: ['198.51.100.99'] });
    const queries = dns.queries.length;
    expect((await callbackOf(t, approve(request))).type).toBe(CallbackType.update);
    const shown = () => textOf((t.discord.getMessage(request.messageId) ?? {}) as unknown as Json);
    await waitUntil(() => shown().includes('Not sent'), 'the request to say why');
    await idle(t);
    expect(dns.queries.slice(queries)).toContainEqual({ name: 'later.example.com', type: 1 });
    expect(t.api.requestsFor('setReverseDns')).toHaveLength(0);
    expect(shown()).toContain(
      'Not sent: checked again before sending, `later.example.com` no longer resolves to `203.0.113.7`, as RDNS_FORWARD_CHECK=require needs. Found: ⚠️ `later.example.com` resolves to `198.51.100.99`',
    );
    // Closed: nothing left to approve.
    expect(JSON.stringify(t.discord.getMessage(request.messageId)?.components ?? [])).not.toContain(
      'Approve',
    );
    await expectRefusedUnsent(t, request.approveId, { actedById: APPROVER });
  });

  it('still resolving to the IP when approved: sent once', async () => {
    dns.set('steady.example.com', { a: [IP] });
    const request = await requestApproval('steady.example.com');
    const calls = () =>
      t.api.requestsFor('setReverseDns').filter((r) => r.query.get('rdns') === 'steady.example.com');
    expect((await callbackOf(t, approve(request))).type).toBe(CallbackType.update);
    await waitUntil(() => calls().length === 1, 'the call');
    await idle(t);
    expect(calls()).toHaveLength(1);
  });
});
