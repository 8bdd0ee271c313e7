// /domain info through the fake Discord and the built bot, beside a fake registry (plain http on loopback:
// its bootstrap URL is http) that answers at once, slowly, or not at all: the provider's answer goes out
// once the provider has answered and the registry's share of the wait (REGISTRY_SHARE_MS) is over; the
// registry's word follows as an edit of that same reply. A slow registry is never told as the provider's
// failure.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REGISTRY_SHARE_MS, registryFields } from '../../commands/domain/registryBeside.js';
import { translator } from '../../src/i18n/Translator.js';
import { embedsOf, fieldValue, idle, type Json, publicAnswer, rec, textOf } from '../support/e2eHelpers.js';
import { bootstrapFile, domainObject, FakeRdapServer } from '../support/FakeRdapServer.js';
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
  it('a registry within its share: one answer, with the registry’s word in it', async () => {
    registry.domains.set('quick.alpha', { body: held('quick.alpha') });
    const i = t.command({ commandName: 'domain', subcommand: 'info', options: { domain: 'quick.alpha' } });
    const embed = onlyEmbed((await publicAnswer(t, i)).body);
    expectProvidersAnswer(embed);
    expect(fieldValue(embed, REGISTRY)).toMatch(/2027-01-15|<t:\d+:D>/);
    expect(fieldValue(embed, REGISTRY)).toContain(en('rdap.info.differs'));
    expect(fieldValue(embed, en('rdap.info.registry_status'))).toBe('active, client hold');
    await idle(t);
    // The deferral and one edit: nothing followed.
    expect(t.discord.requestsFor(i)).toHaveLength(2);
  });

  it('a slow registry: the provider’s answer first, "still asking", then the registry’s word as an edit', async () => {
    const delayMs = REGISTRY_SHARE_MS + 2_500;
    registry.domains.set('slow.alpha', { body: held('slow.alpha'), delayMs });
    const i = t.command({ commandName: 'domain', subcommand: 'info', options: { domain: 'slow.alpha' } });
    const first = await publicAnswer(t, i);
    // Sent while the registry still had the request: it could not have waited for it.
    const embed = onlyEmbed(first.body);
    expectProvidersAnswer(embed);
    expect(fieldValue(embed, REGISTRY)).toContain(ASKING);
    expect(embed.fields).toHaveLength(5);
    expect(registry.paths).toContain('/rdap/domain/slow.alpha');

    const edit = await t.nth(i, 2, 20_000);
    expect(edit.method).toBe('PATCH');
    expect(edit.path).toBe(first.edit.path);
    // The edit came once the registry had answered.
    expect(edit.at - first.edit.at).toBeGreaterThan(0);
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

  it('a registry that fails after its share: the edit says so, and the provider’s answer stands', async () => {
    registry.domains.set('down.alpha', {
      status: 503,
      body: { errorCode: 503 },
      delayMs: REGISTRY_SHARE_MS + 1_500,
    });
    const i = t.command({ commandName: 'domain', subcommand: 'info', options: { domain: 'down.alpha' } });
    const first = await publicAnswer(t, i);
    expect(fieldValue(onlyEmbed(first.body), REGISTRY)).toContain(ASKING);
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
