// The domain watch through the fake Discord and the fake API, on a real SQLite store: /watch add (option
// and file), remove, list (paged), check, the scheduled digest with its thresholds and role mention,
// once-only alerts, the watch switched off, and the autocomplete of domain and server options.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  arr,
  CallbackType,
  callbackOf,
  deferredAnswer,
  dig,
  ephemeralReply,
  idle,
  type Json,
  rec,
  str,
  textOf,
  waitUntil,
} from '../support/e2eHelpers.js';
import type { DispatchedInteraction, FakeAttachment, InteractionOptions } from '../support/FakeDiscord.js';
import type { Reply } from '../support/FakeHostingApi.js';
import { ROLES, startTestBot, type TestBot } from '../support/startTestBot.js';

const WATCH_CHANNEL = '300000000000000077';
const ONCALL_ROLE = '200000000000000077';
const OTHER_GUILD = '900000000000000001';
const ZONE = 'Europe/Berlin';

/** What the fake provider knows about a domain; absent = 404. */
type DomainState =
  | { expiresIn: number; active?: boolean; expired?: boolean; transferredAway?: boolean }
  | 'fail';

/** A calendar date `days` from today in the API's zone (the watch uses the real clock). */
function dateIn(days: number): string {
  return DateTime.now().setZone(ZONE).startOf('day').plus({ days }).toISODate() ?? '';
}

/** The fake API answers /domain/info from `world`, looked up by the domain in the path. */
function serveWorld(t: TestBot, world: Map<string, DomainState>): void {
  t.api.respond('domainInfo', (request): Reply => {
    const state = world.get(request.param ?? '');
    if (state === undefined) return { status: 404, body: { error: 'domain not found' } };
    if (state === 'fail') return { status: 500, body: { error: 'internal error' } };
    return {
      body: {
        expirydate: dateIn(state.expiresIn),
        active: String(state.active ?? true),
        expired: String(state.expired ?? false),
        transferredAway: String(state.transferredAway ?? false),
      },
    };
  });
}

/** Every digest the bot posted in the watch channel: the request bodies, oldest first. */
function digests(t: TestBot): Json[] {
  return t.discord.requests
    .filter((r) => r.method === 'POST' && r.path === `/channels/${WATCH_CHANNEL}/messages`)
    .map((r) => rec(r.body, 'digest body'));
}

function descriptionOf(body: Json): string {
  return str(dig(body, 'embeds', 0, 'description'), 'description');
}

/** Runs a /watch subcommand (operator unless told otherwise) and returns its public answer's text. */
async function watchRead(
  t: TestBot,
  subcommand: string,
  options: InteractionOptions['options'] = {},
  extra: Partial<InteractionOptions> = {},
): Promise<{ interaction: DispatchedInteraction; body: Json; text: string }> {
  const interaction = t.command({ commandName: 'watch', subcommand, options, ...extra });
  const { ack, body } = await deferredAnswer(t, interaction, 15_000);
  expect(dig(ack.body, 'data', 'flags') ?? 0, 'a public answer').toBe(0);
  return { interaction, body, text: textOf(body) };
}

async function autocomplete(
  t: TestBot,
  options: InteractionOptions,
): Promise<{ name: string; value: unknown }[]> {
  const i = t.discord.dispatchAutocomplete(options);
  const cb = await callbackOf(t, i);
  expect(cb.type).toBe(8);
  return arr(cb.data.choices, 'choices').map((c) => {
    const choice = rec(c);
    return { name: str(choice.name), value: choice.value };
  });
}

/** Waits until the audit trail holds an entry of this command with this target (written after the answer). */
async function audited(t: TestBot, command: string, subcommand: string, target: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const { total } = await t.bot.store.audit.query({ command, subcommand, target }, { limit: 1, offset: 0 });
    if (total > 0) return;
    if (Date.now() > deadline) throw new Error(`no audit entry for /${command} ${subcommand} ${target}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Watches domains straight in the store, as an earlier /watch add did: no look-up of its own. */
async function watchInStore(t: TestBot, names: readonly string[]): Promise<void> {
  const result = await t.bot.store.watch.add(
    names.map((domain) => ({ domain, unicode: domain })),
    'someone-earlier',
    new Date(),
  );
  expect(result.added).toHaveLength(names.length);
}

async function clearWatch(t: TestBot): Promise<void> {
  const all = await t.bot.store.watch.all();
  await t.bot.watch?.remove(all.map((row) => row.domain));
}

// ---------------------------------------------------------------- a local "CDN" for attachments

interface FileServer {
  url(path: string): string;
  requests: string[];
  close(): Promise<void>;
}

async function startFileServer(files: Map<string, { body: Buffer; type: string }>): Promise<FileServer> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const file = files.get(req.url ?? '');
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': file.type, 'content-length': String(file.body.length) });
    res.end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------- the watch switched off

describe('with WATCH_CHANNEL_ID unset the watch is off', () => {
  let t: TestBot;
  beforeAll(async () => {
    t = await startTestBot();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it.each([
    ['add', { domains: 'example.com' }],
    ['remove', { domains: 'example.com' }],
    ['list', {}],
    ['check', {}],
  ] as const)('/watch %s says so, only to the invoker, and calls nothing', async (subcommand, options) => {
    const i = t.command({ commandName: 'watch', subcommand, options });
    expect(await ephemeralReply(t, i)).toContain('The domain watch is off: set `WATCH_CHANNEL_ID`');
    await idle(t);
    expect(t.discord.requestsFor(i)).toHaveLength(1);
    expect(t.api.requests).toHaveLength(0);
    expect(await t.bot.store.watch.count()).toBe(0);
  });

  it('/watch remove suggests nothing', async () => {
    const choices = await autocomplete(t, {
      commandName: 'watch',
      subcommand: 'remove',
      options: { domains: 'exa' },
      roles: [ROLES.operator],
    });
    expect(choices).toEqual([]);
  });
});

// ---------------------------------------------------------------- commands, on demand

describe('/watch with the watch on (manual checks)', () => {
  let t: TestBot;
  const world = new Map<string, DomainState>();
  let files: FileServer;
  const served = new Map<string, { body: Buffer; type: string }>();

  beforeAll(async () => {
    t = await startTestBot({
      WATCH_CHANNEL_ID: WATCH_CHANNEL,
      // Never during a test run: this block checks on demand only.
      WATCH_SCHEDULE: '0 0 1 1 *',
    });
    t.discord.addChannel({ id: WATCH_CHANNEL });
    serveWorld(t, world);
    files = await startFileServer(served);
  });
  afterAll(async () => {
    await files?.close();
    await t?.stop();
  });

  it('add: counts added, already watched and invalid; duplicates ignored; invalid names listed', async () => {
    await clearWatch(t);
    const first = await watchRead(t, 'add', {
      domains: 'alpha.example, beta.example alpha.example\nnot_valid!.example BETA.example bücher.example',
    });
    expect(first.text).toContain('**3 domains** added, 0 already watched, 1 invalid.');
    expect(first.text).toContain('Invalid, skipped:');
    expect(first.text).toContain('• not\\_valid!.example: label "not\\_valid!" contains "\\_"');
    expect(first.text).toContain(`Watching 3 domains in all; alerts go to <#${WATCH_CHANNEL}>.`);

    const second = await watchRead(t, 'add', { domains: 'alpha.example gamma.example' });
    expect(second.text).toContain('**1 domain** added, 1 already watched, 0 invalid.');
    expect((await t.bot.store.watch.all()).map((row) => [row.domain, row.unicode])).toEqual([
      ['alpha.example', 'alpha.example'],
      ['beta.example', 'beta.example'],
      ['gamma.example', 'gamma.example'],
      ['xn--bcher-kva.example', 'bücher.example'],
    ]);
    // No confirmation; the only calls are the look-ups of the new domains, each once.
    await idle(t);
    expect(t.api.requests.map((r) => [r.operation, r.param]).sort()).toEqual([
      ['domainInfo', 'alpha.example'],
      ['domainInfo', 'beta.example'],
      ['domainInfo', 'gamma.example'],
      ['domainInfo', 'xn--bcher-kva.example'],
    ]);
  });

  it('add: looks the new domains up at once, then edits its answer with the soonest expiries; alerts go out once', async () => {
    await clearWatch(t);
    world.set('soon-3.example', { expiresIn: 3 });
    world.set('mid-40.example', { expiresIn: 40 });
    world.set('late-200.example', { expiresIn: 200 });
    await watchInStore(t, ['mid-40.example']);
    const before = digests(t).length;
    const calls = t.api.requests.length;

    const added = await watchRead(t, 'add', { domains: 'late-200.example soon-3.example mid-40.example' });
    expect(added.text).toContain('**2 domains** added, 1 already watched');
    expect(added.text).toContain('Looking up the 2 domains just added now (4 at a time)');
    const edit = await t.nth(added.interaction, 2);
    expect(edit.method).toBe('PATCH');
    const done = textOf(rec(edit.body));
    expect(done).toMatch(/Looked up the 2 domains just added in \d+\.\d s: 0 failed\./);
    const listed = done.split('**Soonest expiries among them:**\n')[1]?.split('\n') ?? [];
    // Only the new ones, soonest first, each with its days left.
    expect(listed.map((line) => line.split(' · ').slice(0, 2).join(' · '))).toEqual([
      '**3 d** · soon-3.example',
      '**200 d** · late-200.example',
    ]);
    // Exactly the new domains were looked up, once each; the one already watched waits for the schedule.
    expect(
      t.api.requests
        .slice(calls)
        .map((r) => r.param)
        .sort(),
    ).toEqual(['late-200.example', 'soon-3.example']);
    // /watch list has their days left at once.
    const list = await watchRead(t, 'list', {}, { roles: [ROLES.viewer] });
    expect(list.text).toMatch(/\*\*3 d\*\* · soon-3\.example/);
    expect(list.text).toMatch(/\*\*not checked yet\*\* · mid-40\.example/);
    // The alert for soon-3 went out in a digest, once: a check right after repeats nothing.
    await waitUntil(() => digests(t).length === before + 1, 'the digest of the new domains');
    expect(descriptionOf(digests(t)[before] ?? {})).toContain('**soon-3.example** expires in 3 days');
    const check = await watchRead(t, 'check');
    expect(check.text).toMatch(/Checked \*\*3 domains\*\* in .*: 0 failed, 0 alerts sent\./);
    await idle(t);
    expect(digests(t)).toHaveLength(before + 1);
  });

  it('add: past WATCH_MAX_DOMAINS nothing is added, and the answer says how full the list is', async () => {
    await clearWatch(t);
    const limited = await startTestBot(
      { WATCH_CHANNEL_ID: WATCH_CHANNEL, WATCH_SCHEDULE: '0 0 1 1 *', WATCH_MAX_DOMAINS: '3' },
      // Its own Discord: a second bot on this one would take over its gateway.
      { api: t.api },
    );
    limited.discord.addChannel({ id: WATCH_CHANNEL });
    try {
      await watchInStore(limited, ['one.example', 'two.example']);
      const calls = t.api.requests.length;
      const refused = await watchRead(limited, 'add', { domains: 'two.example three.example four.example' });
      expect(refused.text).toBe(
        'Nothing was added: the watch list holds at most 3 domains (`WATCH_MAX_DOMAINS`), it has 2, and the 2 new ones would take it past that. Remove domains with `/watch remove` first, or have the limit raised.',
      );
      expect((await limited.bot.store.watch.all()).map((row) => row.domain)).toEqual([
        'one.example',
        'two.example',
      ]);
      // Up to the limit is fine (a name already watched does not count).
      const fits = await watchRead(limited, 'add', { domains: 'two.example three.example' });
      expect(fits.text).toContain('**1 domain** added, 1 already watched');
      await idle(limited);
      expect(t.api.requests.slice(calls).map((r) => r.param)).toEqual(['three.example']);
      const [entry] = await limited.bot.store.audit
        .query({ outcome: 'refused' }, { limit: 1, offset: 0 })
        .then((r) => r.rows);
      expect(entry).toMatchObject({ command: 'watch', subcommand: 'add', detail: 'watch_full' });
    } finally {
      await limited.stop();
    }
  });

  it('add: refuses more than 300 names and a call without names or file, ephemerally, adding nothing', async () => {
    const before = await t.bot.store.watch.count();
    const many = Array.from({ length: 301 }, (_, n) => `n${n}.example`).join(' ');
    const tooMany = t.command({ commandName: 'watch', subcommand: 'add', options: { domains: many } });
    expect(await ephemeralReply(t, tooMany)).toMatch(/^`domains`: 301 domains given, at most 300/);
    const nothing = t.command({ commandName: 'watch', subcommand: 'add' });
    expect(await ephemeralReply(t, nothing)).toContain('`domains`: neither domain names nor a file given');
    expect(await t.bot.store.watch.count()).toBe(before);
  });

  it('add and remove need the operator tier', async () => {
    for (const subcommand of ['add', 'remove', 'check']) {
      const i = t.command({
        commandName: 'watch',
        subcommand,
        options: subcommand === 'check' ? {} : { domains: 'alpha.example' },
        roles: [ROLES.viewer],
      });
      expect(await ephemeralReply(t, i)).toContain('needs the **operator** tier');
    }
  });

  it('add: a CSV file, first column, header, comments, quotes, duplicates and an invalid line', async () => {
    await clearWatch(t);
    const csv = [
      'domain,owner',
      'file-one.example,alice',
      '"file-two.example",bob',
      '',
      '# a comment',
      'FILE-ONE.example;carol',
      'bad domain.example,dave',
      'file-three.example',
    ].join('\r\n');
    served.set('/attachments/domains.csv', { body: Buffer.from(csv), type: 'text/csv; charset=utf-8' });
    const attachment: FakeAttachment = {
      url: files.url('/attachments/domains.csv'),
      filename: 'domains.csv',
      size: Buffer.byteLength(csv),
      contentType: 'text/csv; charset=utf-8',
    };
    const i = t.command({
      commandName: 'watch',
      subcommand: 'add',
      options: { domains: 'option.example' },
      attachments: { file: attachment },
    });
    const { body } = await deferredAnswer(t, i);
    const text = textOf(body);
    expect(text).toContain('**4 domains** added, 0 already watched, 1 invalid.');
    expect(text).toContain('From domains.csv and the `domains` option.');
    expect(text).toContain('bad domain.example');
    expect((await t.bot.store.watch.all()).map((row) => row.domain)).toEqual([
      'file-one.example',
      'file-three.example',
      'file-two.example',
      'option.example',
    ]);
    expect(files.requests).toEqual(['/attachments/domains.csv']);
  });

  it('add: a file said to be over 1 MB, or not text, is refused before it is downloaded', async () => {
    const before = files.requests.length;
    const big = t.command({
      commandName: 'watch',
      subcommand: 'add',
      attachments: {
        file: { url: files.url('/big.txt'), filename: 'big.txt', size: 2_000_000, contentType: 'text/plain' },
      },
    });
    expect(await ephemeralReply(t, big)).toMatch(/^`file`: big\.txt is 1\.9 MB, larger than 1 MB/);
    const image = t.command({
      commandName: 'watch',
      subcommand: 'add',
      attachments: {
        file: { url: files.url('/logo.png'), filename: 'logo.png', size: 1000, contentType: 'image/png' },
      },
    });
    expect(await ephemeralReply(t, image)).toContain('`file`: logo.png is not a text or CSV file');
    expect(files.requests.length).toBe(before);
  });

  it('add: a file larger than it said, or with more than 10,000 names, is refused and adds nothing', async () => {
    const before = await t.bot.store.watch.count();
    served.set('/liar.txt', { body: Buffer.alloc(1_100_000, 'a'), type: 'text/plain' });
    const liar = t.command({
      commandName: 'watch',
      subcommand: 'add',
      attachments: {
        file: { url: files.url('/liar.txt'), filename: 'liar.txt', size: 100, contentType: 'text/plain' },
      },
    });
    const { body: liarBody } = await deferredAnswer(t, liar);
    expect(str(liarBody.content)).toContain('liar.txt is larger than 1 MB');

    const names = `${Array.from({ length: 10_001 }, (_, n) => `d${n}.example`).join('\n')}\n`;
    served.set('/many.txt', { body: Buffer.from(names), type: 'text/plain' });
    const many = t.command({
      commandName: 'watch',
      subcommand: 'add',
      attachments: {
        file: {
          url: files.url('/many.txt'),
          filename: 'many.txt',
          size: Buffer.byteLength(names),
          contentType: 'text/plain',
        },
      },
    });
    const { body: manyBody } = await deferredAnswer(t, many);
    expect(str(manyBody.content)).toContain('lists more than 10,000 names');
    expect(await t.bot.store.watch.count()).toBe(before);
  });

  it('check and list: sorted by days left, paged, with flags and when each was last checked', async () => {
    await clearWatch(t);
    const names: string[] = [];
    for (let n = 0; n < 20; n++) {
      const name = `page-${String(n).padStart(2, '0')}.example`;
      names.push(name);
      // Every domain a different number of days out, listed out of order.
      world.set(name, { expiresIn: 400 - n * 7 });
    }
    world.set('flag-inactive.example', { expiresIn: 500, active: false });
    world.set('flag-transferred.example', { expiresIn: 501, transferredAway: true });
    world.set('flag-failing.example', 'fail');
    world.delete('flag-gone.example');
    names.push(
      'flag-inactive.example',
      'flag-transferred.example',
      'flag-failing.example',
      'flag-gone.example',
    );
    await watchInStore(t, names);
    const before = digests(t).length;
    const lookups = t.api.requestsFor('domainInfo').length;

    const check = await watchRead(t, 'check');
    expect(check.text).toMatch(/Checked \*\*24 domains\*\* in \d+\.\d s: 1 failed, 1 alert sent\./);
    expect(t.api.requestsFor('domainInfo')).toHaveLength(lookups + 24);
    // The only news: a domain the provider does not know. No mention roles are configured: nobody is pinged.
    await waitUntil(() => digests(t).length === before + 1, 'the digest');
    const digest = digests(t)[before] ?? {};
    expect(digest.allowed_mentions).toEqual({ parse: [], roles: [] });
    expect(digest.content).toBeUndefined();
    expect(descriptionOf(digest)).toBe('❓ **flag-gone.example** is no longer known to the provider (404)');

    const first = await watchRead(t, 'list', {}, { roles: [ROLES.viewer] });
    const lines = (body: Json) => descriptionOf(body).split('\n').slice(2);
    const footer = (body: Json) => str(dig(body, 'embeds', 0, 'footer', 'text'));
    const buttons = (body: Json) => arr(dig(body, 'components', 0, 'components')).map((b) => rec(b));
    expect(footer(first.body)).toBe('Domains 1–10 of 24');
    const page1 = lines(first.body);
    expect(page1).toHaveLength(10);
    expect(page1[0]).toMatch(/^\*\*267 d\*\* · page-19\.example · \d{4}-\d{2}-\d{2} · checked <t:\d+:R>$/);
    const days = (line: string) => Number(/^\*\*(-?\d+) d\*\*/.exec(line)?.[1]);
    expect(page1.map(days)).toEqual([...page1.map(days)].sort((a, b) => a - b));
    expect(buttons(first.body).map((b) => [b.label, b.disabled])).toEqual([
      ['◀ Previous', true],
      ['Next ▶', false],
    ]);

    const press = async (body: Json, label: string, roles: string[] = [ROLES.viewer]) => {
      const message = t.discord.originalMessage(first.interaction);
      const button = buttons(body).find((b) => b.label === label);
      const click = t.discord.dispatchComponent({
        customId: str(button?.custom_id),
        message: { id: message?.id ?? '0' },
        roles,
      });
      const cb = await callbackOf(t, click);
      expect(cb.type).toBe(CallbackType.update);
      return cb.data;
    };
    const second = await press(first.body, 'Next ▶');
    expect(footer(second)).toBe('Domains 11–20 of 24');
    const third = await press(second, 'Next ▶');
    expect(footer(third)).toBe('Domains 21–24 of 24');
    const page3 = lines(third);
    expect(page3[0]).toMatch(
      /^\*\*500 d\*\* · flag-inactive\.example · .* · ⚠️ inactive · checked <t:\d+:R>$/,
    );
    expect(page3[1]).toMatch(/^\*\*501 d\*\* · flag-transferred\.example · .* · ⚠️ transferred away · /);
    // No expiry known: last, by name.
    expect(page3[2]).toMatch(/^\*\*unknown\*\* · flag-failing\.example · ⚠️ failing \(1 run\) · checked /);
    expect(page3[3]).toMatch(/^\*\*unknown\*\* · flag-gone\.example · ⚠️ not found · checked /);
    expect(buttons(third).map((b) => b.disabled)).toEqual([false, true]);
    const back = await press(third, '◀ Previous');
    expect(lines(back)).toEqual(lines(second));
    // Every domain once across the pages.
    const all = [...page1, ...lines(second), ...page3].map((line) => line.split(' · ')[1]);
    expect(new Set(all).size).toBe(24);
  });

  it('a 404 domain alerts once across two runs', async () => {
    await clearWatch(t);
    world.delete('vanished.example');
    await watchInStore(t, ['vanished.example']);
    const before = digests(t).length;
    const first = await watchRead(t, 'check');
    expect(first.text).toMatch(/Checked \*\*1 domain\*\* in .*: 0 failed, 1 alert sent\./);
    expect(first.text).toContain(`The digest (1 message) is in <#${WATCH_CHANNEL}>.`);
    const second = await watchRead(t, 'check');
    expect(second.text).toMatch(/Checked \*\*1 domain\*\* in .*: 0 failed, 0 alerts sent\./);
    expect(second.text).toContain('Nothing new to report.');
    // Each check answers once its run (and its digest) is done.
    await idle(t);
    const posted = digests(t).slice(before);
    expect(posted).toHaveLength(1);
    expect(descriptionOf(posted[0] ?? {})).toContain(
      '**vanished.example** is no longer known to the provider (404)',
    );
  });

  it('remove: counts removed, not watched and invalid', async () => {
    await clearWatch(t);
    await watchRead(t, 'add', { domains: 'keep.example drop-one.example drop-two.example' });
    const removed = await watchRead(t, 'remove', {
      domains: 'drop-one.example, drop-two.example never.example bad_name!',
    });
    expect(removed.text).toContain('**2 domains** removed, 1 not watched, 1 invalid.');
    expect(removed.text).toContain('**Not watched:** never.example');
    expect(removed.text).toContain('Watching 1 domain in all.');
    expect((await t.bot.store.watch.all()).map((row) => row.domain)).toEqual(['keep.example']);
  });

  describe('autocomplete', () => {
    beforeAll(async () => {
      await clearWatch(t);
      await watchRead(t, 'add', {
        domains: [
          'suggest-watched.example',
          'bücher-suggest.example',
          ...Array.from({ length: 30 }, (_, n) => `bulk-${n}.example`),
        ].join(' '),
      });
      world.set('suggest-recent.example', { expiresIn: 90 });
      await deferredAnswer(
        t,
        t.command({
          commandName: 'domain',
          subcommand: 'info',
          options: { domain: 'suggest-recent.example' },
          roles: [ROLES.viewer],
        }),
      );
      await audited(t, 'domain', 'info', 'suggest-recent.example');
      // Answered (the fake API's default log entry), so the id was shown in the channel.
      await deferredAnswer(
        t,
        t.command({
          commandName: 'server',
          subcommand: 'logs',
          options: { id: 4242 },
          roles: [ROLES.viewer],
        }),
      );
      await audited(t, 'server', 'logs', 'server 4242');
    });

    it('/domain info suggests recently used, then watched domains containing what was typed', async () => {
      const choices = await autocomplete(t, {
        commandName: 'domain',
        subcommand: 'info',
        options: { domain: 'SUGGEST' },
        roles: [ROLES.viewer],
      });
      expect(choices).toEqual([
        { name: 'suggest-recent.example', value: 'suggest-recent.example' },
        { name: 'suggest-watched.example', value: 'suggest-watched.example' },
        {
          name: 'bücher-suggest.example (xn--bcher-suggest-wob.example)',
          value: 'xn--bcher-suggest-wob.example',
        },
      ]);
      const unicode = await autocomplete(t, {
        commandName: 'domain',
        subcommand: 'info',
        options: { domain: 'bücher' },
        roles: [ROLES.viewer],
      });
      expect(unicode.map((c) => c.value)).toEqual(['xn--bcher-suggest-wob.example']);
    });

    it('offers at most 25 choices', async () => {
      const choices = await autocomplete(t, {
        commandName: 'domain',
        subcommand: 'dns',
        options: { domain: 'bulk-' },
        roles: [ROLES.operator],
      });
      expect(choices).toHaveLength(25);
      expect(choices.every((c) => String(c.value).startsWith('bulk-'))).toBe(true);
    });

    it('/watch remove completes the last name of the list, watched domains first', async () => {
      const choices = await autocomplete(t, {
        commandName: 'watch',
        subcommand: 'remove',
        options: { domains: 'bulk-1.example, suggest' },
        roles: [ROLES.operator],
      });
      expect(choices.map((c) => c.value)).toEqual([
        'bulk-1.example, suggest-watched.example',
        'bulk-1.example, xn--bcher-suggest-wob.example',
        'bulk-1.example, suggest-recent.example',
      ]);
    });

    it('/server logs and /server rdns suggest recently used server ids, as integers', async () => {
      for (const subcommand of ['logs', 'rdns']) {
        const choices = await autocomplete(t, {
          commandName: 'server',
          subcommand,
          options: { id: 42 },
          roles: [ROLES.operator],
        });
        expect(choices).toEqual([{ name: 'server 4242', value: 4242 }]);
      }
    });

    it('suggests only what the caller may see: targets of commands of their tier that reached the channel', async () => {
      const start = Date.now();
      let n = 0;
      const entry = (command: string, subcommand: string, target: string, outcome: string) =>
        t.bot.store.audit.insert({
          at: new Date(start + ++n),
          userId: '100000000000000009',
          userName: 'someone',
          guildId: null,
          channelId: null,
          command,
          subcommand,
          target,
          outcome,
          detail: null,
          correlationId: 'scope',
          durationMs: 1,
          parameters: null,
          changeId: null,
        });
      await entry('domain', 'register', 'scope-registered.example', 'done');
      await entry('domain', 'dns', 'scope-dns.example', 'done');
      await entry('domain', 'dns', 'scope-maybe.example', 'unknown');
      await entry('domain', 'dns', 'scope-cancelled.example', 'cancelled');
      await entry('domain', 'register', 'scope-rejected.example', 'rejected');
      await entry('domain', 'info', 'scope-refused.example', 'refused');
      await entry('domain', 'info', 'scope-read.example', 'ok');
      const typed = async (role: string) =>
        (
          await autocomplete(t, {
            commandName: 'domain',
            subcommand: 'info',
            options: { domain: 'scope-' },
            roles: [role],
          })
        ).map((choice) => choice.value);
      expect(await typed(ROLES.viewer)).toEqual(['scope-read.example']);
      expect(await typed(ROLES.operator)).toEqual([
        'scope-read.example',
        'scope-maybe.example',
        'scope-dns.example',
      ]);
      expect(await typed(ROLES.admin)).toEqual([
        'scope-read.example',
        'scope-maybe.example',
        'scope-dns.example',
        'scope-registered.example',
      ]);
    });

    it('is gated like its command: nothing without the tier, nothing from another guild', async () => {
      const noTier = await autocomplete(t, {
        commandName: 'domain',
        subcommand: 'info',
        options: { domain: 'suggest' },
        roles: [],
      });
      expect(noTier).toEqual([]);
      const viewerOnOperatorCommand = await autocomplete(t, {
        commandName: 'watch',
        subcommand: 'remove',
        options: { domains: 'suggest' },
        roles: [ROLES.viewer],
      });
      expect(viewerOnOperatorCommand).toEqual([]);
      const rdnsAsViewer = await autocomplete(t, {
        commandName: 'server',
        subcommand: 'rdns',
        options: { id: 42 },
        roles: [ROLES.viewer],
      });
      expect(rdnsAsViewer).toEqual([]);
      const elsewhere = await autocomplete(t, {
        commandName: 'domain',
        subcommand: 'info',
        options: { domain: 'suggest' },
        roles: [ROLES.admin],
        guildId: OTHER_GUILD,
      });
      expect(elsewhere).toEqual([]);
    });
  });
});

// ---------------------------------------------------------------- on a schedule

describe('the scheduled watch (every second)', () => {
  let t: TestBot;
  const world = new Map<string, DomainState>([
    ['in-2.example', { expiresIn: 2 }],
    ['in-10.example', { expiresIn: 10 }],
    ['in-20.example', { expiresIn: 20 }],
    ['in-60.example', { expiresIn: 60 }],
  ]);

  beforeAll(async () => {
    t = await startTestBot({
      WATCH_CHANNEL_ID: WATCH_CHANNEL,
      WATCH_SCHEDULE: '* * * * * *',
      WATCH_MENTION_ROLE_IDS: ONCALL_ROLE,
    });
    t.discord.addChannel({ id: WATCH_CHANNEL });
    serveWorld(t, world);
  });
  afterAll(async () => {
    await t?.stop();
  });

  /** Runs finished so far: a run is counted once it has posted its digest (if it had one). */
  async function runsSoFar(): Promise<number> {
    const metric = await t.bot.metrics.registry.getSingleMetric('hostops_watch_runs_total')?.get();
    return (metric?.values ?? []).reduce((sum, { value }) => sum + value, 0);
  }

  /** Waits until a whole run more — one that started after this call — has finished. */
  async function nextRun(): Promise<void> {
    // The run under way now may have started earlier; the one after it certainly did not.
    const target = (await runsSoFar()) + 2;
    const deadline = Date.now() + 10_000;
    while ((await runsSoFar()) < target) {
      if (Date.now() > deadline) throw new Error('timed out waiting for two more watch runs');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('one digest with the right thresholds, then nothing, then one alert for a flag; only the configured role pinged', async () => {
    // Already on the list: the scheduled runs alone look them up.
    await watchInStore(t, [...world.keys()]);

    await waitUntil(() => digests(t).length >= 1, 'the first digest', 10_000);
    const [first] = digests(t);
    expect(first?.content).toBe(`<@&${ONCALL_ROLE}>`);
    expect(first?.allowed_mentions).toEqual({ parse: [], roles: [ONCALL_ROLE] });
    expect(dig(first, 'embeds', 0, 'title')).toBe('Domain watch: 3 alerts');
    expect(descriptionOf(first ?? {}).split('\n')).toEqual([
      `⏰ **in-2.example** expires in 2 days (${dateIn(2)}; ≤ 3 days)`,
      `⏰ **in-10.example** expires in 10 days (${dateIn(10)}; ≤ 14 days)`,
      `⏰ **in-20.example** expires in 20 days (${dateIn(20)}; ≤ 30 days)`,
    ]);

    // The next runs see nothing new and say nothing.
    await nextRun();
    expect(digests(t)).toHaveLength(1);

    // A flag flips at the provider: one alert, once.
    world.set('in-60.example', { expiresIn: 60, transferredAway: true });
    await waitUntil(() => digests(t).length >= 2, 'the flag alert', 10_000);
    const second = digests(t)[1];
    expect(dig(second, 'embeds', 0, 'title')).toBe('Domain watch: 1 alert');
    expect(descriptionOf(second ?? {})).toBe('🚩 **in-60.example** is now transferred away (was with us)');
    expect(second?.allowed_mentions).toEqual({ parse: [], roles: [ONCALL_ROLE] });
    await nextRun();
    expect(digests(t)).toHaveLength(2);

    // Every message in the watch channel came from the watch and pinged the on-call role only.
    for (const message of t.discord.channelMessages(WATCH_CHANNEL)) {
      expect(message.content).toBe(`<@&${ONCALL_ROLE}>`);
    }
    const watched = await t.bot.store.watch.all();
    expect(watched.map((row) => [row.domain, row.status, row.transferredAway])).toEqual([
      ['in-10.example', 'ok', false],
      ['in-2.example', 'ok', false],
      ['in-20.example', 'ok', false],
      ['in-60.example', 'ok', true],
    ]);
  }, 120_000);
});
