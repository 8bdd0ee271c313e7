// /domain info through the fake Discord and the built bot, beside a fake registry (plain http on loopback:
// its bootstrap URL is http) that answers at once, holds its answer, or fails: the provider's answer goes
// out as soon as the provider has answered, and the registry's word follows as an edit of that same reply
// (issue 48). A slow registry is never told as the provider's failure.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { registryFields } from '../../commands/domain/registryBeside.js';
import { translator } from '../../src/i18n/Translator.js';
import { counted } from '../../src/watch/formatDate.js';
import { embedsOf, fieldValue, idle, type Json, publicAnswer, rec, textOf } from '../support/e2eHelpers.js';
import { bootstrapFile, domainObject, FakeRdapServer, heldAnswer } from '../support/FakeRdapServer.js';
import { startTestBot, type TestBot } from '../support/startTestBot.js';

const en = translator('en');
const ASKING = en('rdap.info.asking');
const REGISTRY = en('rdap.info.registry_expires');

let t: TestBot;
let registry: FakeRdapServer;

beforeAll(async () => {
  registry = await FakeRdapServer.start();
  t = await startTestBot({
    RDAP_CHECK: 'on',
    RDAP_BOOTSTRAP_URL: `${registry.origin}/dns.json`,
    RDAP_MIN_INTERVAL_MS: '0',
  });
});
afterAll(async () => {
  await t?.stop();
  await registry?.stop();
});
beforeEach(() => {
  t.api.reset();
  registry.reset();
  registry.responder = (path) =>
    path === '/dns.json' ? { body: bootstrapFile([[['alpha'], [registry.base]]]) } : undefined;
  t.api.respond('domainInfo', () => ({
    body: { expirydate: '2027-06-30', active: 'true', expired: 'false', transferredAway: 'false' },
  }));
});

const held = (name: string) =>
  domainObject(name, { expires: '2027-01-15T12:00:00Z', status: ['active', 'client hold'] });

function onlyEmbed(body: Json): Json {
  const [embed] = embedsOf(body);
  if (!embed) throw new Error('no embed');
  return embed;
}

/** The provider's side of the answer, as the embed shows it (2027-06-30 is 220 days after 2026-11-22). */
function expectProvidersAnswer(embed: Json) {
  expect(fieldValue(embed, 'Expires')).toContain('in 220 days');
  expect(fieldValue(embed, 'Active')).toMatch(/yes/);
}

describe('/domain info beside a registry', { timeout: 30_000 }, () => {
  it('a registry that answers at once: the provider’s answer still goes first, the registry’s word by an edit', async () => {
    registry.domains.set('quick.alpha', { body: held('quick.alpha') });
    const i = t.command({ commandName: 'domain', subcommand: 'info', options: { domain: 'quick.alpha' } });
    const first = await publicAnswer(t, i);
    const embed = onlyEmbed(first.body);
    expectProvidersAnswer(embed);
    expect(fieldValue(embed, REGISTRY)).toContain(ASKING);
    const edit = await t.nth(i, 2);
    expect(edit.path).toBe(first.edit.path);
    const final = onlyEmbed(rec(edit.body));
    expectProvidersAnswer(final);
    expect(fieldValue(final, REGISTRY)).toContain(en('rdap.info.differs'));
    expect(fieldValue(final, en('rdap.info.registry_status'))).toBe('active, client hold');

    // Asked again within the day: the stored answer is the answer, in one edit, and the registry is not asked.
    const again = t.command({
      commandName: 'domain',
      subcommand: 'info',
      options: { domain: 'quick.alpha' },
    });
    const second = onlyEmbed((await publicAnswer(t, again)).body);
    expect(fieldValue(second, REGISTRY)).toContain(en('rdap.info.differs'));
    expect(fieldValue(second, REGISTRY)).not.toContain(ASKING);
    await idle(t);
    expect(t.discord.requestsFor(again)).toHaveLength(2);
    expect(registry.paths.filter((p) => p.includes('/domain/'))).toEqual(['/rdap/domain/quick.alpha']);
  });

  it('a registry holding its answer: the provider’s answer is out before it, the registry’s word follows as an edit', async () => {
    const { hold, release } = heldAnswer();
    registry.domains.set('slow.alpha', { body: held('slow.alpha'), hold });
    const i = t.command({ commandName: 'domain', subcommand: 'info', options: { domain: 'slow.alpha' } });
    const first = await publicAnswer(t, i);
    // Sent while the registry still held its answer: it did not wait for it.
    const embed = onlyEmbed(first.body);
    expectProvidersAnswer(embed);
    expect(fieldValue(embed, REGISTRY)).toContain(ASKING);
    expect(embed.fields).toHaveLength(5);
    expect(t.discord.requestsFor(i)).toHaveLength(2);
    release();

    const edit = await t.nth(i, 2, 20_000);
    expect(edit.method).toBe('PATCH');
    expect(edit.path).toBe(first.edit.path);
    const final = onlyEmbed(rec(edit.body));
    expectProvidersAnswer(final);
    expect(fieldValue(final, REGISTRY)).toContain(en('rdap.info.differs'));
    expect(fieldValue(final, REGISTRY)).not.toContain(ASKING);
    expect(fieldValue(final, en('rdap.info.registry_status'))).toBe('active, client hold');
    await idle(t);
    expect(t.discord.requestsFor(i)).toHaveLength(3);
    // The provider was asked once, the registry once.
    expect(t.api.requestsFor('domainInfo')).toHaveLength(1);
    expect(registry.paths.filter((p) => p.includes('/domain/'))).toEqual(['/rdap/domain/slow.alpha']);
  });

  it('a registry that fails once released: the edit says so, and the provider’s answer stands', async () => {
    const { hold, release } = heldAnswer();
    registry.domains.set('down.alpha', { status: 503, body: { errorCode: 503 }, hold });
    const i = t.command({ commandName: 'domain', subcommand: 'info', options: { domain: 'down.alpha' } });
    const first = await publicAnswer(t, i);
    expect(fieldValue(onlyEmbed(first.body), REGISTRY)).toContain(ASKING);
    release();
    const edit = await t.nth(i, 2, 20_000);
    const final = onlyEmbed(rec(edit.body));
    expectProvidersAnswer(final);
    expect(fieldValue(final, REGISTRY)).toContain(en('rdap.info.not_asked', { why: en('rdap.why.status') }));
    // Nothing in it blames the provider.
    expect(final.color).toBe(onlyEmbed(first.body).color);
    expect(textOf(rec(edit.body))).not.toMatch(/provider (failed|did not|is down|error)/i);
    await idle(t);
    expect(t.discord.requestsFor(i)).toHaveLength(3);
  });

  it('/domain expiry: the provider’s lines go out first, the registry’s word follows in a message of its own', async () => {
    const { hold, release } = heldAnswer();
    registry.domains.set('late.alpha', { body: held('late.alpha'), hold });
    registry.domains.set('fine.alpha', {
      body: domainObject('fine.alpha', { expires: '2027-06-30T12:00:00Z' }),
      hold,
    });
    const i = t.command({
      commandName: 'domain',
      subcommand: 'expiry',
      options: { domains: 'late.alpha fine.alpha' },
    });
    const first = await publicAnswer(t, i);
    expect(first.body.content).toBe(en('rdap.expiry.asking', counted(en, 2)));
    const lines = textOf(first.body);
    expect(lines).toContain('late.alpha');
    expect(lines).toContain('fine.alpha');
    expect(lines).not.toContain(REGISTRY);
    expect(t.discord.requestsFor(i)).toHaveLength(2);
    release();

    const after = await t.nth(i, 2, 20_000);
    expect(after.method).toBe('POST');
    expect(after.path).toBe(`/webhooks/${t.discord.applicationId}/${i.token}`);
    const [embed] = embedsOf(rec(after.body));
    expect(embed?.title).toBe(en('rdap.expiry.title', counted(en, 2)));
    expect(String(embed?.description)).toMatch(/late\.alpha.*differs.*client hold/);
    expect(String(embed?.description)).not.toContain('fine.alpha');
    await idle(t);
    expect(t.discord.requestsFor(i)).toHaveLength(3);
  });

  it('"still asking" in German too', () => {
    const de = translator('de');
    const [field] = registryFields(
      { record: undefined, pending: true, providerReadAt: new Date('2026-11-22T10:00:00Z') },
      '2027-06-30',
      'Europe/Berlin',
      de,
    );
    expect(field?.name).toBe('Registry: läuft ab');
    expect(field?.value).toContain(
      'die Registry wird noch gefragt: diese Nachricht wird aktualisiert, sobald sie antwortet',
    );
  });
});
