import { ApplicationCommandOptionType } from 'discord.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { commands as definedCommands } from '../../commands/index.js';
import type { CommandModule } from '../../src/discord/CommandModule.js';
import {
  CallbackType,
  callbackOf,
  dig,
  embedsOf,
  ephemeralReply,
  expectNoTokensLeaked,
  fieldValue,
  idle,
  isEphemeral,
  type Json,
  messageBodies,
  publicAnswer,
  rec,
  str,
  trackConcurrency,
} from '../support/e2eHelpers.js';
import { ROLES, startTestBot, type TestBot } from '../support/startTestBot.js';

/** The command list as the router sees it: each module by its generic shape. */
const commands: readonly CommandModule[] = definedCommands;

// The bot's clock is pinned to 2026-11-22T10:00:00Z (11:00 in Europe/Berlin, the default API zone).
const GREEN = 0x2ecc71;
const RED = 0xe74c3c;
const YELLOW = 0xf1c40f;
const ORANGE = 0xe67e22;
const NEUTRAL = 0x95a5a6;

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

const unix = (iso: string) => Date.parse(iso) / 1000;
const instant = (iso: string) => `<t:${unix(iso)}:f> (<t:${unix(iso)}:R>)`;
/** Calendar dates are shown as noon UTC of that date, long-date style. */
const discordDate = (isoDate: string) => `<t:${unix(`${isoDate}T12:00:00Z`)}:D>`;

describe('/server logs', () => {
  it('defers, calls GET /server/logs/{id} once and answers with an embed of the entry', async () => {
    const i = t.command({
      commandName: 'server',
      subcommand: 'logs',
      options: { id: 4711 },
      roles: [ROLES.viewer],
    });
    const { body } = await publicAnswer(t, i);
    expect(t.api.requestsFor('serverLog').map((r) => r.param)).toEqual(['4711']);

    const [embed] = embedsOf(body);
    if (!embed) throw new Error('no embed');
    expect(embed.title).toContain('4711');
    expect(embed.color).toBe(GREEN);
    expect(fieldValue(embed, 'Type')).toBe('reinstall');
    expect(fieldValue(embed, 'Status')).toBe('success');
    // 01.03.2026 10:00:00 in Europe/Berlin (CET, UTC+1) is 09:00 UTC.
    expect(fieldValue(embed, 'Started')).toBe(instant('2026-03-01T09:00:00Z'));
    expect(fieldValue(embed, 'Ended')).toBe(instant('2026-03-01T09:05:30Z'));
    expect(fieldValue(embed, 'Duration')).toBe('5 min 30 s');
  });

  it('reads timestamps in the API zone across daylight saving time (CEST, UTC+2)', async () => {
    t.api.enqueue('serverLog', {
      body: {
        starttime: '01.07.2026 10:00:00',
        endtime: '01.07.2026 12:03:00',
        type: 'backup',
        status: 'done',
      },
    });
    const i = t.command({ commandName: 'server', subcommand: 'logs', options: { id: 7 } });
    const [embed] = embedsOf((await publicAnswer(t, i)).body);
    if (!embed) throw new Error('no embed');
    expect(fieldValue(embed, 'Started')).toBe(instant('2026-07-01T08:00:00Z'));
    expect(fieldValue(embed, 'Ended')).toBe(instant('2026-07-01T10:03:00Z'));
    expect(fieldValue(embed, 'Duration')).toBe('2 h 3 min');
  });

  it.each([
    ['success', GREEN],
    ['FAILED', RED],
    ['error', RED],
    ['running', YELLOW],
    ['pending', YELLOW],
    ['needs-review', NEUTRAL],
  ])('colours status %s and always shows the raw value', async (status, colour) => {
    t.api.enqueue('serverLog', {
      body: { starttime: '01.03.2026 10:00:00', endtime: '01.03.2026 10:01:00', type: 'reboot', status },
    });
    const i = t.command({ commandName: 'server', subcommand: 'logs', options: { id: 1 } });
    const [embed] = embedsOf((await publicAnswer(t, i)).body);
    if (!embed) throw new Error('no embed');
    expect(embed.color).toBe(colour);
    expect(fieldValue(embed, 'Status')).toBe(status);
  });
});

describe('/domain info', () => {
  it('sends an IDN to the API as punycode and titles the embed with the unicode form', async () => {
    const i = t.command({ commandName: 'domain', subcommand: 'info', options: { domain: 'Bücher.de' } });
    const { body } = await publicAnswer(t, i);
    const [request] = t.api.requestsFor('domainInfo');
    expect(t.api.requestsFor('domainInfo')).toHaveLength(1);
    expect(request?.param).toBe('xn--bcher-kva.de');
    expect(request?.rawUrl).toBe('/domain/info/xn--bcher-kva.de');

    const [embed] = embedsOf(body);
    if (!embed) throw new Error('no embed');
    expect(embed.title).toBe('bücher.de');
    expect(embed.color).toBe(GREEN);
    // 2027-06-30 is 220 days after 2026-11-22.
    expect(fieldValue(embed, 'Expires')).toBe(`${discordDate('2027-06-30')} (in 220 days)`);
    expect(fieldValue(embed, 'Active')).toMatch(/yes/);
    expect(fieldValue(embed, 'Expired')).toMatch(/no/);
    expect(fieldValue(embed, 'Transferred away')).toMatch(/no/);
  });

  const info = (
    expirydate: string,
    flags: Partial<Record<'active' | 'expired' | 'transferredAway', unknown>> = {},
  ) => ({
    body: { expirydate, active: 'true', expired: 'false', transferredAway: 'false', ...flags },
  });

  it.each([
    ['green: far away', info('2027-06-30'), GREEN, 'in 220 days'],
    ['orange: within 30 days', info('2026-12-10'), ORANGE, 'in 18 days'],
    ['orange: expires today', info('2026-11-22'), ORANGE, 'today'],
    ['red: date in the past', info('2026-11-12'), RED, 'expired 10 days ago'],
    ['red: flagged expired (boolean)', info('2027-06-30', { expired: true }), RED, 'in 220 days'],
    ['red: transferred away', info('2027-06-30', { transferredAway: 'true' }), RED, 'in 220 days'],
    ['red: inactive', info('2027-06-30', { active: false }), RED, 'in 220 days'],
  ])('%s', async (_name, reply, colour, when) => {
    t.api.enqueue('domainInfo', reply);
    const i = t.command({ commandName: 'domain', subcommand: 'info', options: { domain: 'example.com' } });
    const [embed] = embedsOf((await publicAnswer(t, i)).body);
    if (!embed) throw new Error('no embed');
    expect(embed.color).toBe(colour);
    expect(fieldValue(embed, 'Expires')).toContain(when);
  });
});

describe('/domain expiry', () => {
  const reply = (param: string) => {
    const dates: Record<string, Json> = {
      'a.example.com': {
        expirydate: '2026-12-02',
        active: 'true',
        expired: 'false',
        transferredAway: 'false',
      },
      'b.example.com': {
        expirydate: '2027-06-30',
        active: 'true',
        expired: 'false',
        transferredAway: 'false',
      },
      'c.example.com': {
        expirydate: '2026-11-12',
        active: 'true',
        expired: 'true',
        transferredAway: 'false',
      },
      'd.example.com': {
        expirydate: '2027-01-01',
        active: 'true',
        expired: 'false',
        transferredAway: 'true',
      },
      'xn--bcher-kva.de': {
        expirydate: '2027-02-01',
        active: 'true',
        expired: 'false',
        transferredAway: 'false',
      },
    };
    if (param === 'e.example.com') return { status: 404, body: { error: 'not found' } };
    if (param === 'f.example.com') return { status: 500, body: { error: 'boom' } };
    return { body: dates[param] ?? {} };
  };

  it('dedupes, lists one sorted line per domain, keeps failures and invalid entries, and summarises', async () => {
    t.api.respond('domainInfo', (r) => reply(r.param ?? ''));
    const domains = [
      'a.example.com, b.example.com',
      'c.example.com d.example.com,e.example.com',
      'f.example.com A.EXAMPLE.COM a.example.com. bücher.de bad_domain nodot',
    ].join('\n');
    const i = t.command({
      commandName: 'domain',
      subcommand: 'expiry',
      options: { domains },
      roles: [ROLES.viewer],
    });
    const { body } = await publicAnswer(t, i);

    const called = t.api.requestsFor('domainInfo').map((r) => r.param);
    expect([...called].sort()).toEqual([
      'a.example.com',
      'b.example.com',
      'c.example.com',
      'd.example.com',
      'e.example.com',
      'f.example.com',
      'xn--bcher-kva.de',
    ]);

    const embeds = embedsOf(body);
    expect(embeds).toHaveLength(1);
    const [embed] = embeds;
    expect(embed?.color).toBe(RED);
    const lines = str(embed?.description).split('\n');
    expect(lines[0]).toBe(
      '7 checked · 1 expires within 30 days · 1 expired · 1 transferred away · 2 failed · 2 invalid',
    );
    const rows = lines.slice(1).filter((line) => line !== '');
    const order = rows.map((line) => /\*\*(.+?)\*\*/.exec(line)?.[1]);
    expect(order).toEqual([
      'c.example.com', // expired 10 days ago
      'a.example.com', // in 10 days
      'd.example.com', // in 40 days
      'bücher.de', // in 71 days
      'b.example.com', // in 220 days
      'e.example.com', // failed
      'f.example.com', // failed
      'bad\\_domain', // invalid (escaped)
      'nodot', // invalid
    ]);
    expect(rows[0]).toMatch(/^🔴 .*expired 10 days ago/);
    expect(rows[1]).toMatch(/^🟠 .*in 10 days/);
    expect(rows[2]).toMatch(/^🔴 .*in 40 days.*transferred away/);
    expect(rows[4]).toMatch(/^🟢 .*in 220 days/);
    expect(rows[5]).toMatch(/check failed: not found/);
    expect(rows[6]).toMatch(/check failed: provider error 500/);
    expect(rows[7]).toMatch(/invalid: .*_/);
    expect(rows[8]).toMatch(/invalid: .*no top-level domain/);
  });

  it('counts within `within` days, and is green when nothing needs attention', async () => {
    t.api.respond('domainInfo', (r) => reply(r.param ?? ''));
    const i = t.command({
      commandName: 'domain',
      subcommand: 'expiry',
      options: { domains: 'b.example.com a.example.com', within: 5 },
    });
    const [embed] = embedsOf((await publicAnswer(t, i)).body);
    expect(embed?.color).toBe(GREEN);
    expect(str(embed?.description).split('\n')[0]).toBe(
      '2 checked · 0 expire within 5 days · 0 expired · 0 transferred away · 0 failed',
    );
  });

  it('keeps at most 8 lookups in flight', async () => {
    const tracker = trackConcurrency(t, 'domainInfo', 60, () => ({
      body: { expirydate: '2027-06-30', active: 'true', expired: 'false', transferredAway: 'false' },
    }));
    const domains = Array.from({ length: 30 }, (_, n) => `host${n}.example.com`).join(' ');
    const i = t.command({ commandName: 'domain', subcommand: 'expiry', options: { domains } });
    await publicAnswer(t, i);
    expect(t.api.requestsFor('domainInfo')).toHaveLength(30);
    expect(tracker.max).toBeLessThanOrEqual(8);
    // The limit is a cap, not a queue of one: lookups do run in parallel.
    expect(tracker.max).toBeGreaterThan(1);
  });

  it('never has more lookups in flight than HOSTING_API_MAX_CONNECTIONS', async () => {
    const narrow = await startTestBot({ HOSTING_API_MAX_CONNECTIONS: '2' });
    try {
      const inFlight = { now: 0, max: 0 };
      narrow.api.respond('domainInfo', async () => {
        inFlight.now++;
        inFlight.max = Math.max(inFlight.max, inFlight.now);
        // Held until both connections are busy (or long enough to show a third never comes).
        const deadline = performance.now() + 5_000;
        while (inFlight.now < 2 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
        await new Promise((r) => setTimeout(r, 20));
        inFlight.now--;
        return {
          body: { expirydate: '2027-06-30', active: 'true', expired: 'false', transferredAway: 'false' },
        };
      });
      const domains = Array.from({ length: 12 }, (_, n) => `pool${n}.example.com`).join(' ');
      const i = narrow.command({ commandName: 'domain', subcommand: 'expiry', options: { domains } });
      await publicAnswer(narrow, i, 15_000);
      expect(narrow.api.requestsFor('domainInfo')).toHaveLength(12);
      // /domain expiry would run 8 at once; the pool allows 2, and both are used.
      expect(inFlight.max).toBe(2);
    } finally {
      await narrow.stop();
    }
  });

  it('checks 50 domains and splits the answer across embeds and messages within Discord limits', async () => {
    // Long names, within the option's 6000 characters: 50 answer lines of ~170 characters cannot fit one
    // 4096-character description or one 6000-character message.
    const names = Array.from(
      { length: 50 },
      (_, n) => `${'a'.repeat(40)}${String(n).padStart(2, '0')}.${'b'.repeat(63)}.com`,
    );
    const i = t.command({
      commandName: 'domain',
      subcommand: 'expiry',
      options: { domains: names.join('\n') },
    });
    await publicAnswer(t, i);
    // Everything it sends, follow-ups included, is sent before the command is done.
    await idle(t);
    expect(t.api.requestsFor('domainInfo')).toHaveLength(50);

    const bodies = messageBodies(t, i);
    expect(bodies.length).toBeGreaterThan(1);
    // The follow-ups are public like the first answer.
    for (const r of t.discord.requestsFor(i).slice(1)) expect(r.message?.ephemeral).toBe(false);
    let lines: string[] = [];
    for (const body of bodies) {
      const embeds = embedsOf(body);
      expect(embeds.length).toBeGreaterThan(0);
      expect(embeds.length).toBeLessThanOrEqual(10);
      let total = 0;
      for (const embed of embeds) {
        const description = str(embed.description);
        expect(description.length).toBeLessThanOrEqual(4096);
        total += description.length + (typeof embed.title === 'string' ? embed.title.length : 0);
        lines = lines.concat(description.split('\n'));
      }
      expect(total).toBeLessThanOrEqual(6000);
    }
    // Every domain exactly once, in the sorted order (all expire the same day, so by name).
    const shown = lines.map((line) => /\*\*(.+?)\*\*/.exec(line)?.[1]).filter((n) => n !== undefined);
    expect(shown).toEqual([...names].sort());
    expect(lines[0]).toMatch(/^50 checked/);
    // Nothing failed on the Discord side: every request was an accepted message, no error edit.
    expect(bodies.every((b) => typeof b.content !== 'string' || !/went wrong/.test(b.content))).toBe(true);
  });

  it('refuses 51 domains with an ephemeral error naming the option, before any API call', async () => {
    const domains = Array.from({ length: 51 }, (_, n) => `d${n}.example.com`).join(',');
    const i = t.command({ commandName: 'domain', subcommand: 'expiry', options: { domains } });
    const text = await ephemeralReply(t, i);
    expect(text).toMatch(/^`domains`: 51 domains given, at most 50/);
    await idle(t);
    expect(t.api.requests).toHaveLength(0);
  });

  it('accepts exactly 50 domains', async () => {
    const domains = Array.from({ length: 50 }, (_, n) => `d${n}.example.com`).join(',');
    const i = t.command({ commandName: 'domain', subcommand: 'expiry', options: { domains } });
    const { body } = await publicAnswer(t, i);
    expect(t.api.requestsFor('domainInfo')).toHaveLength(50);
    expect(str(embedsOf(body)[0]?.description)).toMatch(/^50 checked/);
  });
});

describe('/help', () => {
  const ALL = [
    ['/server logs', 'viewer'],
    ['/server rdns', 'operator'],
    ['/domain info', 'viewer'],
    ['/domain expiry', 'viewer'],
    ['/domain register', 'admin'],
    ['/domain dns', 'operator'],
    ['/domain records', 'viewer'],
    ['/musicbot create', 'operator'],
    ['/panel bind', 'operator'],
    ['/help', 'everyone'],
    ['/audit', 'operator'],
    ['/watch add', 'operator'],
    ['/watch remove', 'operator'],
    ['/watch list', 'viewer'],
    ['/watch check', 'operator'],
    ['/watch calendar', 'viewer'],
    ['/access grant', 'admin'],
    ['/access revoke', 'admin'],
    ['/access request', 'everyone'],
    ['/access list', 'admin'],
    ['/access explain', 'admin'],
    ['/access export', 'admin'],
    ['/access import', 'admin'],
  ] as const;
  const RANK = { everyone: 0, viewer: 1, operator: 2, admin: 3 } as const;

  it.each([
    ['viewer', ROLES.viewer],
    ['operator', ROLES.operator],
    ['admin', ROLES.admin],
  ] as const)(
    'answers a %s ephemerally with every command, its tier and what they may run',
    async (tier, role) => {
      const i = t.command({ commandName: 'help', roles: [role] });
      const cb = await callbackOf(t, i);
      expect(cb.type).toBe(CallbackType.reply);
      expect(cb.data.flags).toBe(64);
      expect(isEphemeral(cb.data)).toBe(true);
      const description = str(dig(cb.data, 'embeds', 0, 'description'));
      for (const [label, needed] of ALL) {
        const line = description.split('\n').find((l) => l.includes(`\`${label}\``));
        expect(line, `${label} listed`).toBeDefined();
        expect(line).toContain(`*${needed}*`);
        const mayRun = RANK[tier] >= RANK[needed];
        expect(line?.startsWith(mayRun ? '✅' : '🚫'), `${label} for ${tier}: ${line}`).toBe(true);
      }
      await idle(t);
      expect(t.api.requests).toHaveLength(0);
      // An info command answers at once: nothing else is sent for it.
      expect(t.discord.requestsFor(i)).toHaveLength(1);
    },
  );

  it('covers exactly the registered command surface (nothing listed that does not exist)', async () => {
    // What deploy-commands registers with Discord: every command path of the definitions in
    // commands/index.ts, with the tier its handler requires.
    const registered = new Map<string, string>();
    for (const module of commands) {
      const { name, options = [] } = module.definition as {
        name: string;
        options?: readonly {
          type: number;
          name: string;
          options?: readonly { type: number; name: string }[];
        }[];
      };
      const paths: [string, string][] = [];
      for (const option of options) {
        if (option.type === ApplicationCommandOptionType.Subcommand) paths.push([option.name, option.name]);
        if (option.type === ApplicationCommandOptionType.SubcommandGroup) {
          for (const sub of option.options ?? [])
            paths.push([`${option.name} ${sub.name}`, `${option.name} ${sub.name}`]);
        }
      }
      if (paths.length === 0) paths.push(['', '']);
      for (const [path, key] of paths) {
        const handler = module.subcommands[key];
        expect(handler, `a handler for /${name} ${path}`).toBeDefined();
        registered.set(`/${name}${path ? ` ${path}` : ''}`, String(handler?.tier));
      }
      // And no handler for a path Discord was never told about.
      expect(Object.keys(module.subcommands).sort()).toEqual(paths.map(([, key]) => key).sort());
    }

    const i = t.command({ commandName: 'help', roles: [ROLES.viewer] });
    const cb = await callbackOf(t, i);
    const lines = str(dig(cb.data, 'embeds', 0, 'description'))
      .split('\n')
      .filter((line) => /^(✅|🚫) `\//.test(line));
    const listed = new Map(
      lines.map((line) => [/`(\/[a-z ]+)`/.exec(line)?.[1] ?? '', /\*([a-z]+)\*$/.exec(line)?.[1] ?? '']),
    );
    expect(lines).toHaveLength(listed.size);
    expect(listed).toEqual(registered);
    // The list the README documents (tested above for what each tier may run) is that surface too.
    expect(new Map(ALL.map(([label, tier]) => [label, tier]))).toEqual(registered);
    expect(rec(dig(cb.data, 'embeds', 0, 'footer')).text).toContain('viewer');
  });
});

it('never puts a token in a log line or a Discord message', () => {
  expect(t.discord.requests.length).toBeGreaterThan(0);
  expectNoTokensLeaked(t);
});
