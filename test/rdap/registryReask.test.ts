// Issue 48 (8): an operator can ask now. Through the fake Discord and the built bot beside a fake registry
// (plain http on loopback, as its bootstrap URL is http): a domain added to the watch again is asked at
// once; /domain info's "Ask the registry now" refuses a viewer, re-reads the domain for an operator (its
// finding goes to the watch channel once), and refuses a second press within the window, saying when.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REASK_WINDOW_MS } from '../../commands/domain/infoAnswer.js';
import { translator } from '../../src/i18n/Translator.js';
import {
  CallbackType,
  callbackOf,
  dig,
  embedsOf,
  ephemeralReply,
  fieldValue,
  idle,
  publicAnswer,
  rec,
  str,
  waitUntil,
} from '../support/e2eHelpers.js';
import { FakeDiscord } from '../support/FakeDiscord.js';
import { bootstrapFile, domainObject, FakeRdapServer } from '../support/FakeRdapServer.js';
import { ROLES, startTestBot, type TestBot } from '../support/startTestBot.js';

const en = translator('en');
const STATUS = en('rdap.info.registry_status');
const PENDING = en('rdap.alert.transfer_pending', { name: '**moving.alpha**', statuses: 'pending transfer' });

let discord: FakeDiscord;
let t: TestBot;
let registry: FakeRdapServer;

beforeAll(async () => {
  registry = await FakeRdapServer.start();
  discord = await FakeDiscord.start({
    guilds: [{ roles: Object.entries(ROLES).map(([name, id]) => ({ id, name })) }],
  });
  t = await startTestBot(
    {
      RDAP_CHECK: 'on',
      RDAP_BOOTSTRAP_URL: `${registry.origin}/dns.json`,
      RDAP_MIN_INTERVAL_MS: '0',
      WATCH_CHANNEL_ID: discord.channelId,
    },
    { discord },
  );
  registry.responder = (path) =>
    path === '/dns.json' ? { body: bootstrapFile([[['alpha'], [registry.base]]]) } : undefined;
  t.api.respond('domainInfo', () => ({
    body: { expirydate: '2027-06-30', active: 'true', expired: 'false', transferredAway: 'false' },
  }));
});
afterAll(async () => {
  await t?.stop();
  await discord?.stop();
  await registry?.stop();
});

const asked = () => registry.paths.filter((p) => p === '/rdap/domain/moving.alpha').length;
const findingsPosted = () =>
  discord
    .channelMessages()
    .filter((m) => (m.embeds ?? []).some((e) => (e.description ?? '').includes(PENDING)));

async function watchCommand(subcommand: 'add' | 'remove') {
  const i = t.command({ commandName: 'watch', subcommand, options: { domains: 'moving.alpha' } });
  await publicAnswer(t, i);
  await idle(t);
}

describe('asking the registry now', { timeout: 60_000 }, () => {
  it('a re-added domain is asked at once; the button refuses a viewer, asks once for an operator, then refuses within the window', async () => {
    registry.domains.set('moving.alpha', {
      body: domainObject('moving.alpha', { expires: '2027-06-30T12:00:00Z' }),
    });
    await watchCommand('add');
    await waitUntil(() => asked() === 1, 'the registry to be asked about the added domain');
    await watchCommand('remove');
    await watchCommand('add');
    // Added again within the day: asked at once all the same.
    await waitUntil(() => asked() === 2, 'the registry to be asked about the re-added domain');

    // A transfer starts at the registry. /domain info shows the stored answer (read just now) at once.
    registry.domains.set('moving.alpha', {
      body: domainObject('moving.alpha', { expires: '2027-06-30T12:00:00Z', status: ['pending transfer'] }),
    });
    const info = t.command({
      commandName: 'domain',
      subcommand: 'info',
      options: { domain: 'moving.alpha' },
    });
    const answer = await publicAnswer(t, info);
    const [embed] = embedsOf(answer.body);
    expect(fieldValue(rec(embed), STATUS)).not.toContain('pending transfer');
    const customId = str(dig(answer.body, 'components', 0, 'components', 0, 'custom_id'));
    expect(customId).toBe('hostops:reask:moving.alpha');
    await idle(t);
    expect(asked()).toBe(2);

    // A viewer may not: refused, nothing asked.
    const viewer = discord.dispatchComponent({ customId, roles: [ROLES.viewer] });
    expect(await ephemeralReply(t, viewer)).toMatch(/operator/i);
    await idle(t);
    expect(asked()).toBe(2);

    // An operator: the message shows "still asking", then the registry's word; the finding goes out once.
    const operator = discord.dispatchComponent({ customId, roles: [ROLES.operator] });
    const update = await callbackOf(t, operator);
    expect(update.type).toBe(CallbackType.update);
    expect(fieldValue(rec(embedsOf(update.data)[0]), en('rdap.info.registry_expires'))).toContain(
      en('rdap.info.asking'),
    );
    const edit = await t.nth(operator, 1);
    expect(edit.method).toBe('PATCH');
    expect(fieldValue(rec(embedsOf(rec(edit.body))[0]), STATUS)).toContain('pending transfer');
    await idle(t);
    expect(asked()).toBe(3);
    await waitUntil(() => findingsPosted().length > 0, 'the finding in the watch channel');

    // Pressed again within the window: refused, saying when it may be asked again; nothing asked.
    const again = discord.dispatchComponent({ customId, roles: [ROLES.operator] });
    const refusal = await ephemeralReply(t, again);
    expect(refusal).toContain('moving.alpha');
    expect(refusal).toContain(`once every ${REASK_WINDOW_MS / 60_000} minutes per domain`);
    await idle(t);
    expect(asked()).toBe(3);
    expect(findingsPosted()).toHaveLength(1);
  });
});
