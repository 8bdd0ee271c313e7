import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import {
  CallbackType,
  callbackOf,
  confirmAndWait,
  dig,
  ephemeralReply,
  expectNoTokensLeaked,
  idle,
  isEphemeral,
  openPrompt,
  press,
  promptOf,
  publicAnswer,
  queryOf,
  str,
  textOf,
} from '../support/e2eHelpers.js';
import type { InteractionOptions } from '../support/FakeDiscord.js';
import { ROLES, startTestBot, type TestBot } from '../support/startTestBot.js';

const OPS = '300000000000000001';
const OPS_2 = '300000000000000002';
const ADMINISTRATOR = (1n << 3n).toString();

let t: TestBot;
beforeAll(async () => {
  t = await startTestBot({ OPS_CHANNEL_IDS: `${OPS},${OPS_2}` });
});
afterAll(async () => {
  await t?.stop();
});
beforeEach(() => {
  t.api.reset();
});

/** A command in the ops channel, as an operator unless roles say otherwise. */
const run = (options: InteractionOptions) => t.command({ channelId: OPS, ...options });

const info: InteractionOptions = {
  commandName: 'domain',
  subcommand: 'info',
  options: { domain: 'example.com' },
};
const rdns: InteractionOptions = {
  commandName: 'server',
  subcommand: 'rdns',
  options: { id: 42, ip: '203.0.113.7', hostname: 'host.example.com' },
};
const register: InteractionOptions = {
  commandName: 'domain',
  subcommand: 'register',
  options: { domain: 'example.org', ns1: 'ns1.example.net', ns2: 'ns2.example.net' },
};

async function expectRefused(i: ReturnType<typeof run>, pattern: RegExp): Promise<string> {
  const text = await ephemeralReply(t, i);
  expect(text).toMatch(pattern);
  await idle(t);
  expect(t.api.requests, 'a refused command makes zero API calls').toHaveLength(0);
  // Refused at once: no deferral, no follow-up.
  expect(t.discord.requestsFor(i)).toHaveLength(1);
  return text;
}

describe('guild only', () => {
  it('refuses a command in a DM', async () => {
    const i = t.command({ ...info, guildId: null });
    await expectRefused(i, /only takes commands in a server.*not in direct messages/);
  });

  it('refuses a change in a DM before looking at its options', async () => {
    const i = t.command({ ...rdns, options: { id: 0, ip: 'nonsense', hostname: 'x' }, guildId: null });
    await expectRefused(i, /not in direct messages/);
  });

  it('refuses a user-install invocation inside a guild', async () => {
    const i = t.command({ ...info, userInstall: true });
    const cb = await callbackOf(t, i);
    expect(cb.type).toBe(CallbackType.reply);
    expect(isEphemeral(cb.data)).toBe(true);
    expect(textOf(cb.data)).toMatch(/not in direct messages or as a user app/);
    await idle(t);
    expect(t.api.requests).toHaveLength(0);
  });
});

describe('channel', () => {
  it('refuses a command outside OPS_CHANNEL_IDS, ephemerally, naming the allowed channels', async () => {
    const i = t.command(info); // the guild's default channel, not an ops channel
    const cb = await callbackOf(t, i);
    expect(cb.data.flags).toBe(64);
    await expectRefused(i, new RegExp(`only takes commands in <#${OPS}>, <#${OPS_2}>`));
  });

  it('checks the channel before the tier', async () => {
    const i = t.command({ ...register, roles: [] });
    await expectRefused(i, /only takes commands in/);
  });

  it('accepts the same command in either ops channel', async () => {
    for (const channelId of [OPS, OPS_2]) {
      const i = t.command({ ...info, channelId });
      await publicAnswer(t, i);
    }
    expect(t.api.requestsFor('domainInfo')).toHaveLength(2);
  });

  it('/help still answers outside the ops channels, marking every other command as not runnable here', async () => {
    const i = t.command({ commandName: 'help', roles: [ROLES.admin] });
    const text = await ephemeralReply(t, i);
    const lines = text.split('\n').filter((l) => l.includes('`/'));
    // One line per command path of commands/index.ts.
    expect(lines).toHaveLength(commands.flatMap((c) => Object.keys(c.subcommands)).length);
    for (const line of lines)
      expect(line.startsWith(line.includes('`/help`') ? '✅' : '🚫'), line).toBe(true);
    expect(text).toMatch(/only taken in the ops channels/);
  });

  it('a Confirm pressed outside the ops channels is refused and sends nothing', async () => {
    const prompt = await openPrompt(t, { ...rdns, channelId: OPS });
    const click = press(t, prompt, 'confirm', { channelId: t.discord.channelId });
    expect(await ephemeralReply(t, click)).toMatch(/only takes commands in/);
    await idle(t);
    expect(t.api.requests).toHaveLength(0);
  });
});

describe('tier', () => {
  it('refuses a viewer running /server rdns, naming the operator tier and its roles', async () => {
    const text = await expectRefused(
      run({ ...rdns, roles: [ROLES.viewer] }),
      /needs the \*\*operator\*\* tier/,
    );
    expect(text).toContain(`<@&${ROLES.operator}>`);
    expect(text).toContain(`<@&${ROLES.admin}>`);
    expect(text).not.toContain(`<@&${ROLES.viewer}>`);
  });

  it('refuses an operator running /domain register, naming the admin tier', async () => {
    const text = await expectRefused(
      run({ ...register, roles: [ROLES.operator] }),
      /needs the \*\*admin\*\* tier/,
    );
    expect(text).toContain(`<@&${ROLES.admin}>`);
  });

  it.each([
    ['no role at all', []],
    ['an unrelated role', [ROLES.unrelated]],
  ])('refuses a member with %s running /domain info when VIEWER_ROLE_IDS is set', async (_name, roles) => {
    await expectRefused(run({ ...info, roles }), /needs the \*\*viewer\*\* tier/);
  });

  it('gives Discord Administrator permission no bypass', async () => {
    await expectRefused(run({ ...info, roles: [], permissions: ADMINISTRATOR }), /\*\*viewer\*\* tier/);
    await expectRefused(
      run({ ...rdns, roles: [ROLES.unrelated], permissions: ADMINISTRATOR }),
      /\*\*operator\*\*/,
    );
  });

  it('checks the tier before validating options', async () => {
    await expectRefused(
      run({ ...rdns, options: { id: 0, ip: 'nonsense', hostname: 'x' }, roles: [ROLES.viewer] }),
      /\*\*operator\*\* tier/,
    );
  });

  it('re-checks the tier on Confirm: a member who lost the role cannot confirm', async () => {
    const prompt = await openPrompt(t, { ...rdns, channelId: OPS });
    const click = press(t, prompt, 'confirm', { roles: [ROLES.viewer] });
    expect(await ephemeralReply(t, click)).toMatch(/\*\*operator\*\* tier/);
    await idle(t);
    expect(t.api.requests).toHaveLength(0);
  });

  it('lets a viewer read', async () => {
    await publicAnswer(t, run({ ...info, roles: [ROLES.viewer] }));
    await publicAnswer(
      t,
      run({ commandName: 'server', subcommand: 'logs', options: { id: 5 }, roles: [ROLES.viewer] }),
    );
    expect(t.api.requests).toHaveLength(2);
  });

  describe('an admin may do everything', () => {
    it.each([
      ['/server logs', { commandName: 'server', subcommand: 'logs', options: { id: 5 } }],
      ['/domain info', info],
      [
        '/domain expiry',
        { commandName: 'domain', subcommand: 'expiry', options: { domains: 'a.com b.com' } },
      ],
    ])('reads: %s', async (_label, command) => {
      await publicAnswer(t, run({ ...command, roles: [ROLES.admin] }));
      expect(t.api.requests.length).toBeGreaterThan(0);
    });

    it.each([
      ['/server rdns', rdns, 'setReverseDns'],
      ['/domain register', register, 'createDomain'],
      [
        '/domain dns',
        {
          commandName: 'domain',
          subcommand: 'dns',
          options: { domain: 'a.com', records: 'www A 203.0.113.7' },
        },
        'submitDnsRecords',
      ],
      [
        '/musicbot create',
        {
          commandName: 'musicbot',
          subcommand: 'create',
          options: { username: 'u', email: 'u@example.com', storage: '1GB', bots: 1 },
        },
        'createMusicBotUser',
      ],
      [
        '/panel bind',
        { commandName: 'panel', subcommand: 'bind', options: { license: 'L-1', ip: '2001:db8::1' } },
        'bindPanelLicense',
      ],
    ] as const)('changes: %s', async (_label, command, operation) => {
      const prompt = await openPrompt(t, { ...command, channelId: OPS, roles: [ROLES.admin] });
      await confirmAndWait(t, prompt);
      expect(queryOf(t, operation)).toHaveLength(1);
    });
  });
});

describe('input validation: an ephemeral error naming the option, zero API calls', () => {
  const rdnsWith = (options: Record<string, string | number>) => ({
    ...rdns,
    options: { ...rdns.options, ...options },
  });
  const registerWith = (options: Record<string, string>) => ({
    ...register,
    roles: [ROLES.admin],
    options: { ...register.options, ...options },
  });
  const musicbotWith = (options: Record<string, string | number>) => ({
    commandName: 'musicbot',
    subcommand: 'create',
    options: { username: 'dj', email: 'dj@example.com', storage: '1GB', bots: 1, ...options },
  });
  const panelWith = (options: Record<string, string>) => ({
    commandName: 'panel',
    subcommand: 'bind',
    options: { license: 'ABCD-1234', ip: '203.0.113.7', ...options },
  });
  const dnsWith = (records: string, domain = 'example.com') => ({
    commandName: 'domain',
    subcommand: 'dns',
    options: { domain, records },
  });
  const infoWith = (domain: string) => ({ ...info, options: { domain } });

  const CASES: [string, InteractionOptions, string][] = [
    ['domain with "/"', infoWith('example.com/path'), 'domain'],
    ['domain with a 64-character label', infoWith(`${'a'.repeat(64)}.com`), 'domain'],
    ['domain longer than 253 characters', infoWith(`${`${'a'.repeat(60)}.`.repeat(5)}com`), 'domain'],
    ['domain without a TLD', infoWith('localhost'), 'domain'],
    ['domain with a space', infoWith('exa mple.com'), 'domain'],
    ['domain with "?"', infoWith('example.com?x=1'), 'domain'],
    ['domain with "&"', infoWith('a&b.com'), 'domain'],
    ['domain with "#"', infoWith('example.com#top'), 'domain'],
    ['domain with "@"', infoWith('admin@example.com'), 'domain'],
    ['domain with ":"', infoWith('example.com:443'), 'domain'],
    ['/server logs id 0', { commandName: 'server', subcommand: 'logs', options: { id: 0 } }, 'id'],
    ['/server logs id -3', { commandName: 'server', subcommand: 'logs', options: { id: -3 } }, 'id'],
    ['/server rdns id 0', rdnsWith({ id: 0 }), 'id'],
    ['rdns ip with prefix /33', rdnsWith({ ip: '203.0.113.7/33' }), 'ip'],
    ['rdns ip that is IPv6', rdnsWith({ ip: '2001:db8::7' }), 'ip'],
    ['rdns ip that is not an address', rdnsWith({ ip: '203.0.113' }), 'ip'],
    ['rdns hostname with "_"', rdnsWith({ hostname: 'host_name.example.com' }), 'hostname'],
    ['rdns hostname without a TLD', rdnsWith({ hostname: 'host' }), 'hostname'],
    ['register ns1 == ns2', registerWith({ ns2: 'NS1.example.net.' }), 'ns2'],
    ['register ns1 invalid', registerWith({ ns1: 'ns1 example net' }), 'ns1'],
    ['register domain invalid', registerWith({ domain: 'example' }), 'domain'],
    ['register owner handle with a space', registerWith({ owner: 'C 1' }), 'owner'],
    ['panel ip invalid', panelWith({ ip: '999.1.1.1' }), 'ip'],
    ['panel ip with a prefix', panelWith({ ip: '203.0.113.0/24' }), 'ip'],
    ['panel license with a space', panelWith({ license: 'ABCD 1234' }), 'license'],
    ['email invalid', musicbotWith({ email: 'not-an-email' }), 'email'],
    ['storage 0', musicbotWith({ storage: '0' }), 'storage'],
    ['storage 12 parsecs', musicbotWith({ storage: '12 parsecs' }), 'storage'],
    ['storage not whole bytes', musicbotWith({ storage: '1.5 B' }), 'storage'],
    ['username with a space', musicbotWith({ username: 'dj booth' }), 'username'],
    ['username of 65 characters', musicbotWith({ username: 'u'.repeat(65) }), 'username'],
    ['bots 0', musicbotWith({ bots: 0 }), 'bots'],
    ['dns record with TTL 30', dnsWith('www 30 A 203.0.113.7'), 'records'],
    ['dns record with TTL 86401', dnsWith('www 86401 A 203.0.113.7'), 'records'],
    ['dns record of unknown type', dnsWith('www 3600 FOO 203.0.113.7'), 'records'],
    ['dns A record with an IPv6 address', dnsWith('www A 2001:db8::1'), 'records'],
    ['dns AAAA record with an IPv4 address', dnsWith('www AAAA 203.0.113.7'), 'records'],
    ['dns CNAME to a non-hostname', dnsWith('www CNAME not_a_host'), 'records'],
    [
      'dns with 101 records',
      dnsWith(Array.from({ length: 101 }, (_, n) => `h${n} A 203.0.113.7`).join('\n')),
      'records',
    ],
    [
      'dns JSON with bad TTL',
      dnsWith('[{"name":"www","type":"A","content":"203.0.113.7","ttl":5}]'),
      'records',
    ],
    ['dns domain invalid', dnsWith('www A 203.0.113.7', 'bad_domain'), 'domain'],
    [
      'expiry with no names',
      { commandName: 'domain', subcommand: 'expiry', options: { domains: ' ,, ' } },
      'domains',
    ],
  ];

  it.each(CASES)('%s → `%s`', async (_name, command, option) => {
    const i = run(command);
    const text = await ephemeralReply(t, i);
    expect(text.startsWith(`\`${option}\`: `), text).toBe(true);
    // …and what a valid value looks like.
    expect(text).toMatch(/Expected .+/);
    await idle(t);
    expect(t.api.requests).toHaveLength(0);
  });

  it('invalid records typed into the modal name the Records field, with Edit, and nothing is sent', async () => {
    const i = run({ commandName: 'domain', subcommand: 'dns', options: { domain: 'example.com' } });
    const modal = await callbackOf(t, i);
    expect(modal.type).toBe(CallbackType.modal);
    const submit = t.discord.dispatchModalSubmit({
      customId: str(modal.data.custom_id),
      fields: { records: 'www 3600 A 203.0.113.7\nmail 3600 MX mail.example.com.' },
      roles: [ROLES.operator],
      channelId: OPS,
    });
    const text = await ephemeralReply(t, submit);
    // The field by its label, and Edit to open the form again with what was typed (issue 51).
    expect(text).toMatch(/^\*\*Records\*\*: line 2/);
    const answer = await callbackOf(t, submit);
    expect(dig(answer.data, 'components', 0, 'components', 0)).toMatchObject({ label: 'Edit' });
    await idle(t);
    expect(t.api.requests).toHaveLength(0);
  });

  it('values are sent as validated: trimmed, lowercased domain, trailing dot dropped', async () => {
    const prompt = await promptOf(
      t,
      run(registerWith({ domain: '  Example.ORG. ', ns1: 'NS1.Example.NET.', ns2: 'ns2.example.net' })),
      { roles: [ROLES.admin] },
    );
    await confirmAndWait(t, prompt);
    expect(queryOf(t, 'createDomain')[0]).toMatchObject({ domain: 'example.org', ns1: 'ns1.example.net' });
  });
});

it('the bot does not register commands when it starts', () => {
  const registrations = t.discord.requests.filter(
    (r) => r.path.includes('/commands') && ['PUT', 'POST', 'PATCH', 'DELETE'].includes(r.method),
  );
  expect(registrations).toEqual([]);
});

it('answers only through interaction webhooks: nothing is posted to a channel directly', () => {
  const direct = t.discord.requests.filter(
    (r) => /^\/channels\/\d+\/messages/.test(r.path) && r.method !== 'GET',
  );
  expect(direct).toEqual([]);
});

it('never puts a token in a log line or a Discord message', () => {
  expect(t.discord.requests.length).toBeGreaterThan(0);
  expectNoTokensLeaked(t);
});
