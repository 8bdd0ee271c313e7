import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CallbackType,
  callbackOf,
  confirmAndWait,
  dig,
  embedsOf,
  ephemeralReply,
  expectNoTokensLeaked,
  fieldValue,
  idle,
  isEphemeral,
  messageBodies,
  openPrompt,
  press,
  promptOf,
  queryOf,
  rec,
  str,
  textOf,
} from '../support/e2eHelpers.js';
import type { InteractionOptions } from '../support/FakeDiscord.js';
import type { OperationName } from '../support/FakeHostingApi.js';
import { FIXED_PASSWORD, ROLES, startTestBot, type TestBot } from '../support/startTestBot.js';

const DANGER = 4;

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

interface ChangeCase {
  label: string;
  command: InteractionOptions;
  operation: OperationName;
  /** Exactly the query the API must receive. */
  query: Record<string, string>;
  /** Text the public record must show. */
  publicShows: string[];
}

const DNS_RECORDS =
  'www 3600 A 203.0.113.7\n@ MX 10 mail.example.com.\n@ TXT "v=spf1 -all"\nftp 600 CNAME www.example.com.';
const DNS_JSON = [
  { name: 'www', type: 'A', content: '203.0.113.7', ttl: 3600 },
  { name: '@', type: 'MX', content: 'mail.example.com', ttl: 3600, prio: 10 },
  { name: '@', type: 'TXT', content: 'v=spf1 -all', ttl: 3600 },
  { name: 'ftp', type: 'CNAME', content: 'www.example.com', ttl: 600 },
];

const CASES: ChangeCase[] = [
  {
    label: '/server rdns',
    command: {
      commandName: 'server',
      subcommand: 'rdns',
      options: { id: 42, ip: '203.0.113.7/32', hostname: 'host.example.com' },
    },
    operation: 'setReverseDns',
    query: { serverid: '42', ip: '203.0.113.7/32', rdns: 'host.example.com', validate: 'true' },
    publicShows: ['203.0.113.7/32', 'host.example.com', '42'],
  },
  {
    label: '/domain register',
    command: {
      commandName: 'domain',
      subcommand: 'register',
      options: { domain: 'example.org', ns1: 'ns1.example.net', ns2: 'ns2.example.net' },
      roles: [ROLES.admin],
    },
    operation: 'createDomain',
    query: {
      domain: 'example.org',
      ownerC: 'OWN-1',
      adminC: 'ADM-1',
      techC: 'TEC-1',
      zoneC: 'ZON-1',
      ns1: 'ns1.example.net',
      ns2: 'ns2.example.net',
    },
    publicShows: ['example.org', 'ns1.example.net', 'ns2.example.net'],
  },
  {
    label: '/domain dns',
    command: {
      commandName: 'domain',
      subcommand: 'dns',
      options: { domain: 'bücher.de', records: DNS_RECORDS },
    },
    operation: 'submitDnsRecords',
    query: { domain: 'xn--bcher-kva.de', records: JSON.stringify(DNS_JSON) },
    publicShows: ['4 records', 'bücher.de'],
  },
  {
    label: '/musicbot create',
    command: {
      commandName: 'musicbot',
      subcommand: 'create',
      options: { username: 'dj', email: 'dj@example.com', storage: '512MB', bots: 2 },
    },
    operation: 'createMusicBotUser',
    query: {
      username: 'dj',
      password: FIXED_PASSWORD,
      email: 'dj@example.com',
      storage: '512000000',
      bots: '2',
    },
    publicShows: ['4711', 'dj', 'dj@example.com', '512,000,000 bytes', '488.3 MiB', '2'],
  },
  {
    label: '/panel bind',
    command: {
      commandName: 'panel',
      subcommand: 'bind',
      options: { license: 'ABCD-1234-EFGH', ip: '2001:db8::7' },
    },
    operation: 'bindPanelLicense',
    query: { license: 'ABCD-1234-EFGH', ip_address: '2001:db8::7' },
    publicShows: ['`2001:db8::7`', '`…EFGH`'],
  },
];

describe.each(CASES)('$label', ({ command, operation, query, publicShows }) => {
  it('prompts ephemerally, sends nothing before Confirm, then sends exactly the validated values once', async () => {
    const prompt = await openPrompt(t, command);
    expect(isEphemeral(prompt.body)).toBe(true);
    expect(prompt.embed.title).toEqual(expect.any(String));
    expect(Array.isArray(prompt.embed.fields) && prompt.embed.fields.length > 0).toBe(true);
    const buttons = [
      dig(prompt.body, 'components', 0, 'components', 0),
      dig(prompt.body, 'components', 0, 'components', 1),
    ];
    expect(rec(buttons[0]).label).toBe('Confirm');
    expect(rec(buttons[0]).style).toBe(DANGER);
    expect(rec(buttons[1]).label).toBe('Cancel');
    await idle(t);
    expect(t.api.requests).toHaveLength(0);

    const done = await confirmAndWait(t, prompt);
    expect(queryOf(t, operation)).toEqual([query]);
    expect(t.api.requests).toHaveLength(1);
    // The prompt itself is turned into the outcome, without buttons.
    expect(done.privateEdit.components).toEqual([]);
    expect(textOf(done.privateEdit)).not.toMatch(/went wrong|error/i);
    // And a public record of who changed what.
    expect(isEphemeral(done.publicRecord)).toBe(false);
    const record = textOf(done.publicRecord);
    expect(record).toContain(`<@${t.discord.userId}>`);
    for (const shown of publicShows) expect(record).toContain(shown);
    // The very message this confirmation posted, as the channel shows it.
    const posted = t.discord.getMessage(str(done.followUp.message?.id, 'the public record message id'));
    expect(posted?.channel_id, 'the public record is a message in the channel').toBe(t.discord.channelId);
    expect(posted?.content).toBe(done.publicRecord.content ?? '');
    expect((posted?.flags ?? 0) & 64).toBe(0);
  });

  it('Cancel updates the prompt and sends nothing', async () => {
    const prompt = await openPrompt(t, command);
    const click = press(t, prompt, 'cancel');
    const cb = await callbackOf(t, click);
    expect(cb.type).toBe(CallbackType.update);
    expect(textOf(cb.data)).toMatch(/Cancelled — nothing was sent/);
    expect(cb.data.components).toEqual([]);
    // A Confirm after Cancel finds nothing to send.
    const late = press(t, prompt, 'confirm');
    expect(await ephemeralReply(t, late)).toMatch(/no longer open/);
    await idle(t);
    expect(t.api.requests).toHaveLength(0);
  });

  it('refuses a Confirm from another user, and the owner can still confirm afterwards', async () => {
    const prompt = await openPrompt(t, command);
    const intruder = press(t, prompt, 'confirm', {
      userId: '300000000000000077',
      roles: [ROLES.admin, ROLES.operator],
    });
    const refusal = await ephemeralReply(t, intruder);
    expect(refusal).toContain(`Only <@${t.discord.userId}> can confirm`);
    const cancelByIntruder = press(t, prompt, 'cancel', {
      userId: '300000000000000077',
      roles: [ROLES.admin],
    });
    expect(await ephemeralReply(t, cancelByIntruder)).toContain(`Only <@${t.discord.userId}> can cancel`);
    await idle(t);
    expect(t.api.requests).toHaveLength(0);

    await confirmAndWait(t, prompt);
    expect(queryOf(t, operation)).toEqual([query]);
  });

  it('a double click on Confirm sends the change exactly once', async () => {
    const prompt = await openPrompt(t, command);
    const first = press(t, prompt, 'confirm');
    const second = press(t, prompt, 'confirm');
    const answers = await Promise.all([callbackOf(t, first), callbackOf(t, second)]);
    await t.nth(first, 2);
    await idle(t);
    expect(t.api.requests).toHaveLength(1);
    expect(queryOf(t, operation)).toEqual([query]);
    expect(answers.map((a) => a.type).sort()).toEqual([CallbackType.reply, CallbackType.update]);
    const rejected = answers.find((a) => a.type === CallbackType.reply);
    expect(textOf(rec(rejected?.data))).toMatch(/no longer open/);
    // Exactly one public record.
    const records = messageBodies(t, first, second).filter((b) => b.content !== undefined && !isEphemeral(b));
    expect(records).toHaveLength(1);
  });
});

describe('/server rdns', () => {
  it('sends validate=false when asked, and the IP exactly as typed', async () => {
    const prompt = await openPrompt(t, {
      commandName: 'server',
      subcommand: 'rdns',
      options: { id: 7, ip: '198.51.100.0/24', hostname: 'Mail.Example.com.', validate: false },
    });
    expect(fieldValue(prompt.embed, 'Validate first')).toBe('no');
    await confirmAndWait(t, prompt);
    expect(queryOf(t, 'setReverseDns')).toEqual([
      { serverid: '7', ip: '198.51.100.0/24', rdns: 'mail.example.com', validate: 'false' },
    ]);
    // The raw query keeps the slash percent-encoded, as any value would be.
    expect(t.api.requestsFor('setReverseDns')[0]?.rawUrl).toContain('ip=198.51.100.0%2F24');
  });
});

describe('/domain register', () => {
  it('uses explicit contact handles instead of the DEFAULT_*_C values', async () => {
    const prompt = await openPrompt(t, {
      commandName: 'domain',
      subcommand: 'register',
      options: {
        domain: 'bücher.de',
        ns1: 'ns1.example.net',
        ns2: 'ns2.example.net',
        owner: 'C-100',
        admin: 'C-200',
        tech: 'C-300',
        zone: 'C-400',
      },
      roles: [ROLES.admin],
    });
    expect(textOf(prompt.body)).toContain('C-100');
    await confirmAndWait(t, prompt);
    expect(queryOf(t, 'createDomain')).toEqual([
      {
        domain: 'xn--bcher-kva.de',
        ownerC: 'C-100',
        adminC: 'C-200',
        techC: 'C-300',
        zoneC: 'C-400',
        ns1: 'ns1.example.net',
        ns2: 'ns2.example.net',
      },
    ]);
  });

  it('a handle given neither as an option nor as its DEFAULT_*_C is refused, naming the option; nothing is sent', async () => {
    const partial = await startTestBot({ DEFAULT_TECH_C: '' });
    try {
      const options = { domain: 'example.net', ns1: 'a.ns.example', ns2: 'b.ns.example' };
      const missing = partial.command({
        commandName: 'domain',
        subcommand: 'register',
        options,
        roles: [ROLES.admin],
      });
      // (Markdown-escaped, as Discord shows it: DEFAULT\_TECH\_C reads DEFAULT_TECH_C.)
      const refusal = (await ephemeralReply(partial, missing)).replace(/\\_/g, '_');
      expect(refusal).toMatch(/^`tech`: not given and DEFAULT_TECH_C is not configured/);
      await idle(partial);
      // No prompt, no record, no call.
      expect(partial.discord.requestsFor(missing)).toHaveLength(1);
      expect(partial.api.requests).toHaveLength(0);
      // Given as an option, the same registration goes through; the other handles still come from their defaults.
      const prompt = await openPrompt(partial, {
        commandName: 'domain',
        subcommand: 'register',
        options: { ...options, tech: 'T-7' },
        roles: [ROLES.admin],
      });
      await confirmAndWait(partial, prompt);
      expect(queryOf(partial, 'createDomain')).toEqual([
        {
          domain: 'example.net',
          ownerC: 'OWN-1',
          adminC: 'ADM-1',
          techC: 'T-7',
          zoneC: 'ZON-1',
          ns1: 'a.ns.example',
          ns2: 'b.ns.example',
        },
      ]);
    } finally {
      await partial.stop();
    }
  });

  it('mixes given handles with defaults', async () => {
    const prompt = await openPrompt(t, {
      commandName: 'domain',
      subcommand: 'register',
      options: { domain: 'example.net', ns1: 'a.ns.example', ns2: 'b.ns.example', tech: 'T-9' },
      roles: [ROLES.admin],
    });
    await confirmAndWait(t, prompt);
    expect(queryOf(t, 'createDomain')).toEqual([
      {
        domain: 'example.net',
        ownerC: 'OWN-1',
        adminC: 'ADM-1',
        techC: 'T-9',
        zoneC: 'ZON-1',
        ns1: 'a.ns.example',
        ns2: 'b.ns.example',
      },
    ]);
  });
});

describe('/domain dns', () => {
  it('previews the parsed records in the prompt', async () => {
    const prompt = await openPrompt(t, {
      commandName: 'domain',
      subcommand: 'dns',
      options: { domain: 'example.com', records: DNS_RECORDS },
    });
    const preview = textOf(prompt.body);
    expect(preview).toContain('Records (4)');
    expect(preview).toContain('www 3600 A 203.0.113.7');
    expect(preview).toContain('@ 3600 MX 10 mail.example.com');
    expect(preview).toContain('ftp 600 CNAME www.example.com');
    press(t, prompt, 'cancel');
  });

  it('accepts a JSON array and sends it as one JSON array string', async () => {
    const records = JSON.stringify([
      { name: 'www', type: 'AAAA', content: '2001:db8::7', ttl: 300 },
      { name: '_sip._tcp', type: 'SRV', content: '5 5060 sip.example.com', prio: 10 },
    ]);
    const prompt = await openPrompt(t, {
      commandName: 'domain',
      subcommand: 'dns',
      options: { domain: 'example.com', records },
    });
    await confirmAndWait(t, prompt);
    const [sent] = queryOf(t, 'submitDnsRecords');
    expect(sent?.domain).toBe('example.com');
    expect(JSON.parse(str(sent?.records))).toEqual([
      { name: 'www', type: 'AAAA', content: '2001:db8::7', ttl: 300 },
      { name: '_sip._tcp', type: 'SRV', content: '5 5060 sip.example.com', ttl: 3600, prio: 10 },
    ]);
  });

  it('without records opens a modal, whose text becomes the prompt, then the call after Confirm', async () => {
    const i = t.command({ commandName: 'domain', subcommand: 'dns', options: { domain: 'example.com' } });
    const modal = await callbackOf(t, i);
    expect(modal.type).toBe(CallbackType.modal);
    const customId = str(modal.data.custom_id);
    expect(customId).toMatch(/^hostops:modal:[\w-]+$/);
    // Labelled, as Discord draws modals since 2025: the input in a Label, no action row.
    const label = rec(dig(modal.data, 'components', 0));
    expect(label).toMatchObject({ type: 18, label: 'Records' });
    const input = rec(label.component);
    expect(input.custom_id).toBe('records');
    expect(input.style).toBe(2); // paragraph: a multi-line editor
    await idle(t);
    expect(t.api.requests).toHaveLength(0);

    const submit = t.discord.dispatchModalSubmit({
      customId,
      fields: { records: DNS_RECORDS },
      roles: [ROLES.operator],
    });
    const prompt = await promptOf(t, submit);
    expect(textOf(prompt.body)).toContain('www 3600 A 203.0.113.7');
    await idle(t);
    expect(t.api.requests).toHaveLength(0);

    const done = await confirmAndWait(t, prompt);
    expect(queryOf(t, 'submitDnsRecords')).toEqual([
      { domain: 'example.com', records: JSON.stringify(DNS_JSON) },
    ]);
    expect(textOf(done.publicRecord)).toContain('4 records');
  });

  it('a modal submitted by someone else is not accepted', async () => {
    const i = t.command({ commandName: 'domain', subcommand: 'dns', options: { domain: 'example.com' } });
    const modal = await callbackOf(t, i);
    const submit = t.discord.dispatchModalSubmit({
      customId: str(modal.data.custom_id),
      fields: { records: DNS_RECORDS },
      userId: '300000000000000078',
      roles: [ROLES.operator],
    });
    expect(await ephemeralReply(t, submit)).toMatch(/no longer open/);
    await idle(t);
    expect(t.api.requests).toHaveLength(0);
  });
});

describe('/musicbot create', () => {
  it('sends the generated password, shows it only in the ephemeral outcome, never publicly or in logs', async () => {
    const prompt = await openPrompt(t, {
      commandName: 'musicbot',
      subcommand: 'create',
      options: { username: 'dj-booth', email: 'dj@example.com', storage: '10 GiB', bots: 3 },
    });
    expect(textOf(prompt.body)).not.toContain(FIXED_PASSWORD);
    expect(fieldValue(prompt.embed, 'Storage')).toBe('10,737,418,240 bytes (10 GiB)');
    const done = await confirmAndWait(t, prompt);
    expect(queryOf(t, 'createMusicBotUser')).toEqual([
      {
        username: 'dj-booth',
        password: FIXED_PASSWORD,
        email: 'dj@example.com',
        storage: '10737418240',
        bots: '3',
      },
    ]);

    // Shown once, to the invoker, in the (ephemeral) prompt turned outcome.
    expect(textOf(done.privateEdit)).toContain(FIXED_PASSWORD);
    const outcomeMessage = t.discord.originalMessage(done.click);
    expect(outcomeMessage?.id).toBe(prompt.messageId);
    expect((outcomeMessage?.flags ?? 0) & 64).toBe(64);

    // Public record: id, username, email, storage (bytes and human), bots; no password.
    const record = done.publicRecord;
    expect(isEphemeral(record)).toBe(false);
    const [embed] = embedsOf(record);
    if (!embed) throw new Error('no embed in the public record');
    expect(fieldValue(embed, 'Id')).toBe('4711');
    expect(fieldValue(embed, 'User name')).toBe('dj-booth');
    expect(fieldValue(embed, 'E-mail')).toBe('dj@example.com');
    expect(fieldValue(embed, 'Storage')).toBe('10,737,418,240 bytes (10 GiB)');
    expect(fieldValue(embed, 'Bots')).toBe('3');

    // Every message anyone but the invoker can see is free of it; so are the logs.
    const bodies = messageBodies(t, prompt.interaction, done.click);
    const withPassword = bodies.filter((b) => JSON.stringify(b).includes(FIXED_PASSWORD));
    expect(withPassword).toHaveLength(1);
    expect(withPassword[0]).toBe(done.privateEdit);
    for (const message of t.discord.channelMessages()) {
      if (((message.flags ?? 0) & 64) === 0) expect(JSON.stringify(message)).not.toContain(FIXED_PASSWORD);
    }
    await idle(t);
    expect(t.logs.text).not.toContain(FIXED_PASSWORD);
  });
});

describe('/panel bind', () => {
  it('accepts IPv4 too, and the public record shows the license key as its last four characters only', async () => {
    const prompt = await openPrompt(t, {
      commandName: 'panel',
      subcommand: 'bind',
      options: { license: 'SECRETLICENSE-9876', ip: '203.0.113.9' },
    });
    const done = await confirmAndWait(t, prompt);
    expect(queryOf(t, 'bindPanelLicense')).toEqual([
      { license: 'SECRETLICENSE-9876', ip_address: '203.0.113.9' },
    ]);
    expect(textOf(done.privateEdit)).toContain('SECRETLICENSE-9876');
    // Exactly this, and nothing else of the key.
    expect(done.publicRecord.content).toBe(
      `🔑 <@${t.discord.userId}> bound panel license \`…9876\` → \`203.0.113.9\`.`,
    );
    expect(JSON.stringify(done.publicRecord)).not.toContain('SECRETLICENSE');
    expect(done.followUp.message?.ephemeral).toBe(false);
    // The audit log line names the change and shows only the key's tail.
    expect(t.logs.text).toContain('"operation":"bindPanelLicense"');
    expect(t.logs.text).toContain('"license":"…9876"');
    expect(t.logs.text).not.toContain('SECRETLICENSE');
  });

  it('a mistyped license key is refused naming the problem, and quoted nowhere: not in the answer, the logs or the audit trail', async () => {
    for (const license of [
      'MISTYPED-KEY 4321',
      'MISTYPED-KEY\u200b4321',
      `MISTYPED-KEY-${'9'.repeat(120)}`,
    ]) {
      const refused = t.command({
        commandName: 'panel',
        subcommand: 'bind',
        options: { license, ip: '203.0.113.9' },
      });
      const answer = await ephemeralReply(t, refused);
      expect(answer).toMatch(
        /the license key you typed contains|`license`: (contains|is \d+ characters long)/,
      );
      expect(answer).not.toContain('MISTYPED');
    }
    await idle(t);
    expect(t.api.requestsFor('bindPanelLicense')).toHaveLength(0);
    expect(t.logs.text).toContain('command answered with an error');
    expect(t.logs.text).not.toContain('MISTYPED');
    const { rows } = await t.bot.store.audit.query(
      { command: 'panel', outcome: 'invalid' },
      { limit: 10, offset: 0 },
    );
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(rows)).not.toContain('MISTYPED');
  });
});

it('the prompt names the deadline and the prompt embed lists every value that will be sent', async () => {
  const prompt = await openPrompt(t, {
    commandName: 'server',
    subcommand: 'rdns',
    options: { id: 42, ip: '203.0.113.7/32', hostname: 'host.example.com' },
  });
  expect(str(prompt.embed.description)).toMatch(/Nothing is sent until you press \*\*Confirm\*\*.*<t:\d+:R>/);
  expect(fieldValue(prompt.embed, 'Server id')).toBe('42');
  expect(fieldValue(prompt.embed, 'IP')).toContain('203.0.113.7/32');
  expect(fieldValue(prompt.embed, 'Host name (rDNS)')).toContain('host.example.com');
  expect(fieldValue(prompt.embed, 'Validate first')).toBe('yes');
  press(t, prompt, 'cancel');
});

it('never puts a token in a log line or a Discord message', () => {
  expect(t.discord.requests.length).toBeGreaterThan(0);
  expectNoTokensLeaked(t);
});
