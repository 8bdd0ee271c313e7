// /server rdns checks forward-confirmed reverse DNS before its prompt: the host name's A records, asked of
// a local DNS server (DNS_SERVERS), after the acknowledgement.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CallbackType,
  confirmAndWait,
  fieldValue,
  idle,
  isEphemeral,
  openPrompt,
  rec,
  textOf,
} from '../support/e2eHelpers.js';
import type { InteractionOptions } from '../support/FakeDiscord.js';
import { FakeDnsServer } from '../support/FakeDnsServer.js';
import { startTestBot, type TestBot } from '../support/startTestBot.js';

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
});
