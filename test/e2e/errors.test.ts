// Hangs past the timeout and the 5-second API delay live in timing.test.ts, where they run concurrently.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CallbackType,
  callbackOf,
  confirmAndWait,
  embedsOf,
  ephemeralReply,
  expectNoTokensLeaked,
  idle,
  isEphemeral,
  type Json,
  messageBodies,
  openPrompt,
  outsideCode,
  press,
  publicAnswer,
  publicBodies,
  rec,
  settle,
  textOf,
  waitUntil,
} from '../support/e2eHelpers.js';
import type { DispatchedInteraction, InteractionOptions } from '../support/FakeDiscord.js';
import type { Reply } from '../support/FakeHostingApi.js';
import { FIXED_PASSWORD, ROLES, startTestBot, type TestBot } from '../support/startTestBot.js';

const REFERENCE = /Reference: `([0-9a-f]{10})`/;

let t: TestBot;
beforeAll(async () => {
  t = await startTestBot();
});
afterAll(async () => {
  await t?.stop();
});
beforeEach(() => {
  t.api.reset();
});

const info = (domain = 'example.com'): InteractionOptions => ({
  commandName: 'domain',
  subcommand: 'info',
  options: { domain },
});

/** Runs /domain info against one queued reply and returns the text of the answer, public like any read's. */
async function infoAnswer(reply: Reply): Promise<{ text: string; i: DispatchedInteraction }> {
  t.api.enqueue('domainInfo', reply);
  const i = t.command(info());
  const { body } = await publicAnswer(t, i);
  return { text: textOf(body), i };
}

function referenceIn(text: string): string {
  const match = REFERENCE.exec(text);
  if (!match?.[1]) throw new Error(`no correlation id in: ${text}`);
  return match[1];
}

describe('API errors become clear messages', () => {
  it('401 → the token was rejected, tell an admin; the correlation id is in the message and the logs', async () => {
    const { text } = await infoAnswer({ status: 401, body: { error: 'unauthorized' } });
    expect(text).toMatch(/rejected HostOps' token \(401\)\. Tell an admin\./);
    expect(t.api.requests).toHaveLength(1);
    const cid = referenceIn(text);
    const lines = () => t.logs.entries().filter((e) => e.cid === cid);
    expect(lines().some((e) => e.msg === 'hosting api call failed' && e.kind === 'unauthorized')).toBe(true);
    // Logged once Discord has accepted the answer, which may be just after the fake recorded it.
    await waitUntil(
      () => lines().some((e) => e.msg === 'command finished' && e.outcome === 'failed'),
      'the "command finished" log line',
    );
  });

  it('404 → not found, in words for the operation', async () => {
    const { text } = await infoAnswer({ status: 404, body: { error: 'no such domain' } });
    expect(text).toMatch(/does not know this domain/);
    expect(t.api.requests).toHaveLength(1);

    t.api.enqueue('serverLog', { status: 404, body: {} });
    const logs = t.command({ commandName: 'server', subcommand: 'logs', options: { id: 99 } });
    expect(textOf((await publicAnswer(t, logs)).body)).toMatch(/no log entry for that server id/);
  });

  it('429 with Retry-After → rate limited, retry in N s (no retry past the deadline)', async () => {
    const { text } = await infoAnswer({ status: 429, headers: { 'retry-after': '120' }, body: {} });
    expect(text).toMatch(/rate limiting us: retry in 120 s/);
    expect(t.api.requests).toHaveLength(1);
  });

  it('429 with a short Retry-After on a read is retried and then answered', async () => {
    t.api.enqueue('domainInfo', { status: 429, headers: { 'retry-after': '1' }, body: {} });
    const i = t.command(info());
    const { body } = await publicAnswer(t, i);
    expect(embedsOf(body)[0]?.title).toBe('example.com');
    const [first, second] = t.api.requestsFor('domainInfo');
    expect(t.api.requests).toHaveLength(2);
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it('500 → provider error, with a reference', async () => {
    const { text } = await infoAnswer({ status: 500, body: { error: 'internal' } });
    expect(text).toMatch(/provider returned an error \(500\)\. Try again later\./);
    referenceIn(text);
    // 500 is not retried.
    expect(t.api.requests).toHaveLength(1);
  });

  it('an HTML body → an answer HostOps cannot read', async () => {
    const { text } = await infoAnswer({ body: '<html><body><h1>Maintenance</h1></body></html>' });
    expect(text).toMatch(/sent an answer HostOps cannot read/);
    referenceIn(text);
    expect(text).not.toContain('<html>');
  });

  it('a POST reset on Confirm → "Outcome unknown", check with /domain info, exactly one call', async () => {
    t.api.enqueue('createDomain', { destroy: true });
    const prompt = await openPrompt(t, {
      commandName: 'domain',
      subcommand: 'register',
      options: { domain: 'example.org', ns1: 'ns1.example.net', ns2: 'ns2.example.net' },
      roles: [ROLES.admin],
    });
    const click = press(t, prompt, 'confirm');
    expect((await callbackOf(t, click)).type).toBe(CallbackType.update);
    const edit = await t.nth(click, 1);
    const text = textOf(rec(edit.body));
    expect(text).toMatch(/\*\*Outcome unknown\*\*/);
    expect(text).toMatch(/Check with \/domain info before trying again/);
    referenceIn(text);
    expect(text).toMatch(/Checking with the provider whether it took effect/);
    // The read-back finds the domain: the answer is edited and the channel told, still one call.
    const resolved = textOf(rec((await t.nth(click, 2)).body));
    expect(resolved).toMatch(/`example\.org` is registered after all\./);
    await idle(t);
    expect(t.api.requestsFor('createDomain')).toHaveLength(1);
    // The first read-back found it: one look, no more.
    expect(t.api.requestsFor('domainInfo')).toHaveLength(1);
  });

  it.each([502, 504])(
    'a POST answered %i by a gateway → "Outcome unknown", exactly one call, no public record',
    async (status) => {
      t.api.enqueue('bindPanelLicense', { status, body: '<html>Bad Gateway</html>' });
      const prompt = await openPrompt(t, {
        commandName: 'panel',
        subcommand: 'bind',
        options: { license: 'GATEWAY-0000-1234', ip: '203.0.113.7' },
      });
      const click = press(t, prompt, 'confirm');
      expect((await callbackOf(t, click)).type).toBe(CallbackType.update);
      const text = textOf(rec((await t.nth(click, 1)).body));
      expect(text).toMatch(/\*\*Outcome unknown\*\*/);
      expect(text).toMatch(/Check with the provider before trying again/);
      referenceIn(text);
      await idle(t);
      expect(t.api.requestsFor('bindPanelLicense')).toHaveLength(1);
      expect(t.discord.requestsFor(click)).toHaveLength(2);
      expect(t.discord.originalMessage(click)?.flags ?? 0).toBe(64);
    },
  );

  it('a Confirm whose acknowledgement Discord refuses sends nothing: the record fails as not acknowledged', async () => {
    const prompt = await openPrompt(t, {
      commandName: 'server',
      subcommand: 'rdns',
      options: { id: 5, ip: '203.0.113.5', hostname: 'unacked.example.com' },
    });
    // As when the click reached HostOps too late: Discord no longer knows the interaction.
    t.discord.failNextCallback(404, { code: 10062, message: 'Unknown interaction' });
    const click = press(t, prompt, 'confirm');
    const refused = await t.nth(click, 0);
    expect(refused.status).toBe(404);
    await waitUntil(
      () => t.logs.entries().some((e) => e.msg === 'confirmation could not be acknowledged; change not sent'),
      'the log line',
    );
    await idle(t);
    expect(t.api.requests).toHaveLength(0);
    expect(t.discord.requestsFor(click)).toHaveLength(1);
    const id = prompt.confirmId.split(':')[2] ?? '';
    expect((await t.bot.store.changes.get(id))?.state).toBe('failed');
    // The prompt cannot be confirmed a second time either.
    const again = press(t, prompt, 'confirm');
    expect(await ephemeralReply(t, again)).toMatch(/no longer open/);
    await idle(t);
    expect(t.api.requests).toHaveLength(0);
  });

  it('a Confirm refused by Discord after another replica settled the change: its one outcome stays, told once', async () => {
    const prompt = await openPrompt(t, {
      commandName: 'server',
      subcommand: 'rdns',
      options: { id: 6, ip: '203.0.113.6', hostname: 'stalled-ack.example.com' },
    });
    const id = prompt.confirmId.split(':')[2] ?? '';
    const store = t.bot.store;
    t.discord.setRestDelay(400);
    t.discord.failNextCallback(404, { code: 10062, message: 'Unknown interaction' });
    try {
      const click = press(t, prompt, 'confirm');
      for (let n = 0; (await store.changes.get(id))?.state !== 'sending'; n++) {
        if (n > 400) throw new Error('the change was never claimed for sending');
        await settle(5);
      }
      // Meanwhile this replica is taken for gone: another one's sweep ends the change — `failed`, never
      // sent, since it was not handed to the connection yet (issue 43: not "possibly sent").
      const swept = await store.changes.orphanSending(['another-replica'], { reason: 'stopped' }, new Date());
      expect(swept.map((record) => record.id)).toEqual([id]);
      await t.nth(click, 0);
    } finally {
      t.discord.setRestDelay(0);
    }
    await waitUntil(
      () => t.logs.entries().some((e) => e.msg === 'confirmation could not be acknowledged; change not sent'),
      'the log line',
    );
    await idle(t);
    expect(await store.changes.get(id)).toMatchObject({ state: 'failed', result: { sent: false } });
    // Its end is the sweep's to record: no `failed` audit row contradicts it.
    const { rows } = await store.audit.query({}, { limit: 100, offset: 0 });
    expect(rows.filter((row) => row.changeId === id)).toEqual([]);
    expect(t.api.requests).toHaveLength(0);
  });

  it('a failed change is reported in the private prompt only', async () => {
    t.api.enqueue('setReverseDns', { status: 500, body: {} });
    const prompt = await openPrompt(t, {
      commandName: 'server',
      subcommand: 'rdns',
      options: { id: 1, ip: '203.0.113.7', hostname: 'host.example.com' },
    });
    const click = press(t, prompt, 'confirm');
    const edit = await t.nth(click, 1);
    expect(textOf(rec(edit.body))).toMatch(/provider returned an error \(500\)/);
    expect(t.discord.originalMessage(click)?.flags ?? 0).toBe(64);
    await idle(t);
    expect(t.discord.requestsFor(click)).toHaveLength(2);
  });

  it('a handler failure (Discord refusing the deferral) is answered with a reference and logged; the bot keeps working', async () => {
    t.discord.failNextCallback(400, { code: 50035, message: 'Invalid Form Body' });
    const i = t.command(info());
    const retry = await t.nth(i, 1);
    const text = textOf(rec(rec(retry.body).data));
    expect(text).toMatch(/Something went wrong on our side/);
    const cid = referenceIn(text);
    expect(isEphemeral(rec(rec(retry.body).data))).toBe(true);
    const logged = t.logs.entries().find((e) => e.cid === cid && e.level === 50);
    expect(logged?.msg).toBe('command failed unexpectedly');
    // A read starts its lookup while the deferral is in flight (a read is safe to send), and that lookup
    // still completes: exactly one call, answered, and nothing after it.
    await waitUntil(
      () => t.logs.entries().some((e) => e.cid === cid && e.msg === 'hosting api call'),
      'the lookup to be answered',
    );
    await idle(t);
    expect(t.api.requests).toHaveLength(1);
    expect(t.discord.requestsFor(i)).toHaveLength(2);

    await publicAnswer(t, t.command(info()));
    expect(t.api.requests).toHaveLength(2);
  });
});

describe('mentions and markdown in user input', () => {
  const NASTY = `@everyone<@&${ROLES.admin}>`;

  function expectInert(bodies: Json[]): void {
    expect(bodies.length).toBeGreaterThan(0);
    for (const body of bodies) {
      expect(body.allowed_mentions, JSON.stringify(body)).toEqual(expect.objectContaining({ parse: [] }));
      const visible = outsideCode(textOf(body));
      expect(visible, 'unescaped @everyone').not.toMatch(/@everyone/);
      expect(visible, 'unescaped role mention').not.toContain('<@&');
    }
  }

  it('echoed in a prompt, the private outcome and the public record: pings nobody, escaped', async () => {
    const prompt = await openPrompt(t, {
      commandName: 'musicbot',
      subcommand: 'create',
      options: { username: NASTY, email: 'dj@example.com', storage: '1GB', bots: 1 },
    });
    const done = await confirmAndWait(t, prompt);
    expect(t.api.requestsFor('createMusicBotUser')[0]?.query.get('username')).toBe(NASTY);
    const bodies = messageBodies(t, prompt.interaction, done.click);
    expectInert(bodies);
    expect(textOf(done.publicRecord)).toContain('everyone');
  });

  it('echoed as invalid entries of /domain expiry: pings nobody, escaped', async () => {
    const i = t.command({
      commandName: 'domain',
      subcommand: 'expiry',
      options: { domains: `@everyone <@&${ROLES.admin}> example.com` },
    });
    await publicAnswer(t, i);
    expectInert(messageBodies(t, i));
    expect(t.api.requests.map((r) => r.param)).toEqual(['example.com']);
  });

  it('echoed in a validation error: pings nobody', async () => {
    const i = t.command(info('@everyone'));
    const cb = await callbackOf(t, i);
    expect(cb.data.allowed_mentions).toEqual(expect.objectContaining({ parse: [] }));
    await idle(t);
    expect(t.api.requests).toHaveLength(0);
  });

  it.each([
    ['@everyone', info('@everyone')],
    [
      'a role mention',
      {
        commandName: 'musicbot',
        subcommand: 'create',
        options: { username: 'dj', email: `<@&${ROLES.admin}>`, storage: '1GB', bots: 1 },
      },
    ],
  ])('echoed in a validation error: %s is escaped too', async (_name, command) => {
    const i = t.command(command);
    const cb = await callbackOf(t, i);
    expectInert([cb.data]);
  });

  it.each([
    ['a backtick (code span)', 'ex`ample.com'],
    ['bold markers', '**bold**.com'],
    ['spoiler markers', '||x||.com'],
  ])('markdown echoed in a validation error is escaped: %s', async (_name, domain) => {
    const i = t.command(info(domain));
    const text = await ephemeralReply(t, i);
    expect(text.startsWith('`domain`: '), text).toBe(true);
    // After the bot's own `domain` label, nothing the user typed may act as markdown.
    const echoed = text.slice('`domain`: '.length).replace(/\\./g, '');
    expect(echoed, text).not.toMatch(/`|\*\*|\|\|/);
    await idle(t);
    expect(t.api.requests).toHaveLength(0);
  });
});

it('every message the bot sent in this file disables all mentions', () => {
  const bodies = messageBodies(t);
  expect(bodies.length).toBeGreaterThan(20);
  const offenders = bodies.filter((b) => JSON.stringify(rec(b.allowed_mentions ?? {}).parse) !== '[]');
  expect(offenders).toEqual([]);
});

it('never puts a token in a log line or a Discord message, nor the generated password in a log line or a public message', () => {
  expect(t.discord.requests.length).toBeGreaterThan(0);
  expectNoTokensLeaked(t);
  expect(t.logs.text).not.toContain(FIXED_PASSWORD);
  // The password was shown in this file (to the invoker of /musicbot create, privately) ...
  const carrying = t.discord.requests.filter((r) => JSON.stringify(r.body ?? '').includes(FIXED_PASSWORD));
  expect(carrying.length).toBeGreaterThan(0);
  for (const r of carrying) expect(r.message?.ephemeral, `${r.method} ${r.path}`).toBe(true);
  // ... and in nothing anyone else can see.
  const shared = publicBodies(t);
  expect(shared.length).toBeGreaterThan(5);
  for (const body of shared) expect(JSON.stringify(body)).not.toContain(FIXED_PASSWORD);
});
