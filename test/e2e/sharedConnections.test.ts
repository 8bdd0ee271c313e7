// Sharing the provider's connections, end to end (issue 34): identical reads answered from one request,
// the deferred answer saying that a read waits for a connection (in the invoker's language), a change that
// waited too long failed with nothing sent, and a single read served before a bulk check and the watch.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChangeRecord, openStore } from '../../src/store/index.js';
import {
  embedsOf,
  idle,
  openPrompt,
  press,
  publicAnswer,
  rec,
  str,
  textOf,
  waitUntil,
} from '../support/e2eHelpers.js';
import type { DispatchedInteraction } from '../support/FakeDiscord.js';
import type { ReceivedRequest, Reply } from '../support/FakeHostingApi.js';
import { ROLES, startTestBot, type TestBot, tempDatabaseUrl } from '../support/startTestBot.js';

const WATCH_CHANNEL = '300000000000000078';

const domainAnswer: Reply = {
  body: { expirydate: '2027-06-30', active: 'true', expired: 'false', transferredAway: 'false' },
};

/** Holds the look-ups of `held` domains until `open()`; every other domain is answered at once. */
function holdDomains(t: TestBot, ...held: string[]) {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  t.api.respond('domainInfo', async (request) => {
    if (held.includes(request.param ?? '')) await opened;
    return domainAnswer;
  });
  return { open };
}

const domainInfo = (t: TestBot, domain: string, locale?: string): DispatchedInteraction =>
  t.command({
    commandName: 'domain',
    subcommand: 'info',
    options: { domain },
    roles: [ROLES.viewer],
    ...(locale ? { locale } : {}),
  });

/** The first edit of a deferred answer (or of a pressed prompt), waiting for it. */
async function firstEdit(t: TestBot, i: DispatchedInteraction): Promise<string> {
  return textOf(rec((await t.nth(i, 1)).body));
}

describe('one connection to the provider', () => {
  let t: TestBot;
  beforeAll(async () => {
    // The held request must outlast the notice's moment: the provider's budget is not what is tested here.
    t = await startTestBot({ HOSTING_API_MAX_CONNECTIONS: '1', HOSTING_API_TIMEOUT_MS: '20000' });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('identical reads in flight: one request to the provider, every invoker answered with the status', async () => {
    t.api.reset();
    const held = holdDomains(t, 'example.com');
    const reads = Array.from({ length: 5 }, () => domainInfo(t, 'example.com'));
    await waitUntil(() => reads.every((i) => t.discord.requestsFor(i).length === 1), 'five deferrals');
    await sleep(100);
    expect(t.api.requestsFor('domainInfo')).toHaveLength(1);
    held.open();
    for (const i of reads) {
      const { body } = await publicAnswer(t, i);
      expect(embedsOf(body)).toHaveLength(1);
      expect(textOf(body)).toContain('example.com');
    }
    await idle(t);
    expect(t.api.requestsFor('domainInfo')).toHaveLength(1);
  });

  it('a read waiting for a connection says so in the invoker’s language, then the answer replaces it', async () => {
    t.api.reset();
    const held = holdDomains(t, 'holds.example');
    const holder = domainInfo(t, 'holds.example');
    await waitUntil(() => t.api.requestsFor('domainInfo').length === 1, 'the connection to be taken');
    // Released whatever the assertions find, so the next test has the connection.
    setTimeout(() => held.open(), 8_000).unref();
    const german = domainInfo(t, 'naechste.example', 'de');
    const english = domainInfo(t, 'third.example');
    expect(await firstEdit(t, german)).toBe(
      '⏳ Warte auf eine Verbindung zum Provider — als Nächstes an der Reihe.',
    );
    expect(await firstEdit(t, english)).toBe(
      '⏳ Waiting for a connection to the provider — 1 request ahead.',
    );
    // The one holding the connection is with the provider, not waiting: no notice.
    expect(t.discord.requestsFor(holder)).toHaveLength(1);
    held.open();
    for (const i of [holder, german, english]) await publicAnswer(t, i);
    for (const i of [german, english]) {
      const answer = rec((await t.nth(i, 2)).body);
      expect(answer.content).toBe('');
      expect(embedsOf(answer)).toHaveLength(1);
    }
    await idle(t);
    expect(t.api.requestsFor('domainInfo').map((r) => r.param)).toEqual([
      'holds.example',
      'naechste.example',
      'third.example',
    ]);
  });
});

describe('one connection, and a queue limit of one second', () => {
  let t: TestBot;
  beforeAll(async () => {
    t = await startTestBot({ HOSTING_API_MAX_CONNECTIONS: '1', HOSTING_API_QUEUE_TIMEOUT_MS: '1000' });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('a change that waited longer than HOSTING_API_QUEUE_TIMEOUT_MS is failed with nothing sent, and says so', async () => {
    t.api.reset();
    const held = holdDomains(t, 'holds.example');
    const holder = domainInfo(t, 'holds.example');
    await waitUntil(() => t.api.requestsFor('domainInfo').length === 1, 'the connection to be taken');
    const prompt = await openPrompt(t, {
      commandName: 'server',
      subcommand: 'rdns',
      options: { id: 42, ip: '203.0.113.7', hostname: 'host.example.com' },
    });
    const click = press(t, prompt, 'confirm');
    const outcome = await firstEdit(t, click).finally(() => held.open());
    expect(outcome).toContain('No connection to the provider came free within 1 s');
    expect(outcome).toContain('nothing was sent');
    await publicAnswer(t, holder);
    await idle(t);
    expect(t.api.requestsFor('setReverseDns')).toHaveLength(0);
    const record = (await t.bot.store.changes.get(str(prompt.confirmId.split(':')[2]))) as ChangeRecord;
    expect(record.state).toBe('failed');
    // No "Send again": it was never sent, so nothing is unknown.
    expect(JSON.stringify((await t.nth(click, 1)).body)).not.toContain('Send again');
  });
});

describe('a shutdown while a change waits for a connection', () => {
  it('refuses the waiting change — failed, nothing sent — instead of giving it up as unknown', async () => {
    const databaseUrl = tempDatabaseUrl();
    const t = await startTestBot({
      HOSTING_API_MAX_CONNECTIONS: '1',
      HOSTING_API_TIMEOUT_MS: '20000',
      DATABASE_URL: databaseUrl,
    });
    const held = holdDomains(t, 'holds.example');
    try {
      domainInfo(t, 'holds.example');
      await waitUntil(() => t.api.requestsFor('domainInfo').length === 1, 'the connection to be taken');
      const prompt = await openPrompt(t, {
        commandName: 'server',
        subcommand: 'rdns',
        options: { id: 42, ip: '203.0.113.7', hostname: 'host.example.com' },
      });
      const click = press(t, prompt, 'confirm');
      await t.nth(click, 0);
      // The grace runs out while the change still waits behind the held read.
      await t.bot.stop(300);
      const store = await openStore(databaseUrl);
      const record = await store.changes
        .get(str(prompt.confirmId.split(':')[2]))
        .finally(() => store.close());
      expect(record?.state).toBe('failed');
      expect(t.api.requestsFor('setReverseDns')).toHaveLength(0);
    } finally {
      held.open();
      await t.stop().catch(() => {});
    }
  });
});

describe('four connections shared by a bulk check, the watch and a single read', () => {
  let t: TestBot;
  beforeAll(async () => {
    t = await startTestBot({
      HOSTING_API_MAX_CONNECTIONS: '4',
      WATCH_CHANNEL_ID: WATCH_CHANNEL,
      WATCH_CONCURRENCY: '4',
    });
    t.discord.addChannel({ id: WATCH_CHANNEL });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('a single /domain info gets the next free connection', async () => {
    const arrivals: ReceivedRequest[] = [];
    t.api.respond('domainInfo', async (request) => {
      arrivals.push(request);
      await sleep(300);
      return domainAnswer;
    });
    // /watch add looks the new domains up in the background: the watch's share, WATCH_CONCURRENCY 4.
    const watched = Array.from({ length: 120 }, (_, n) => `watched-${n}.example`).join(' ');
    t.command({ commandName: 'watch', subcommand: 'add', options: { domains: watched } });
    // /domain expiry: 50 look-ups, 8 at a time.
    const bulk = Array.from({ length: 50 }, (_, n) => `bulk-${n}.example`).join(' ');
    const expiry = t.command({
      commandName: 'domain',
      subcommand: 'expiry',
      options: { domains: bulk },
      roles: [ROLES.viewer],
    });
    await waitUntil(
      () =>
        arrivals.some((r) => r.param?.startsWith('bulk-')) &&
        arrivals.filter((r) => r.param?.startsWith('watched-')).length >= 4,
      'the bulk check and the watch to be under way',
    );
    const single = domainInfo(t, 'single.example');
    const deferredAt = (await t.nth(single, 0)).at;
    await publicAnswer(t, single, 15_000);
    const singleAt = arrivals.findIndex((r) => r.param === 'single.example');
    // The read was queued in the turn it was deferred; only a request already on its way may come first.
    const before = arrivals.slice(0, singleAt).filter((r) => r.at > deferredAt);
    expect(before.length).toBeLessThanOrEqual(2);
    await publicAnswer(t, expiry, 30_000);
  });
});
