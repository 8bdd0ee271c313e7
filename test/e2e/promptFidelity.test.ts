// What you confirm is what is sent: hostile but plausible input through the fake Discord and the fake
// API, comparing what the prompt shows with what the provider receives after Confirm.
import { ApplicationCommandOptionType } from 'discord.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { commands as definedCommands } from '../../commands/index.js';
import type { CommandModule } from '../../src/discord/CommandModule.js';
import { parseDnsRecords } from '../../src/validation/parseDnsRecords.js';
import {
  arr,
  CallbackType,
  callbackOf,
  confirmAndWait,
  dig,
  ephemeralReply,
  fieldValue,
  idle,
  openPrompt,
  queryOf,
  rec,
  str,
  textOf,
} from '../support/e2eHelpers.js';
import type { DispatchedInteraction, InteractionOptions } from '../support/FakeDiscord.js';
import { HIDDEN_CLASSES } from '../support/hiddenCharacters.js';
import { readLiteral } from '../support/readLiteral.js';
import { ROLES, startTestBot, type TestBot } from '../support/startTestBot.js';

/** The command list as the router sees it: each module by its generic shape. */
const commands: readonly CommandModule[] = definedCommands;

let t: TestBot;
beforeAll(async () => {
  // The watch on (nothing is watched, so it never calls the API): /watch validates its options.
  t = await startTestBot({ WATCH_CHANNEL_ID: '300000000000000077' });
});
afterAll(async () => {
  await t?.stop();
});
beforeEach(() => {
  t.api.reset();
});

/** A valid value for every option of every subcommand, so each sent text value can be made hostile. */
const SAMPLES: Record<string, Record<string, string | number | boolean>> = {
  'server logs': { id: 42 },
  'server rdns': { id: 42, ip: '203.0.113.7', hostname: 'host.example.com' },
  'domain info': { domain: 'example.com' },
  'domain expiry': { domains: 'example.com example.org' },
  'domain register': {
    domain: 'example.org',
    ns1: 'ns1.example.net',
    ns2: 'ns2.example.net',
    owner: 'C-1',
    admin: 'C-2',
    tech: 'C-3',
    zone: 'C-4',
  },
  'domain dns': { domain: 'example.com', records: 'www 3600 A 203.0.113.7\n@ TXT "hello world"' },
  'domain records': { domain: 'example.com' },
  'musicbot create': { username: 'alice', email: 'alice@example.com', storage: '10 GiB', bots: 2 },
  'panel bind': { license: 'ABCD-1234-EFGH', ip: '203.0.113.7' },
  'watch add': { domains: 'example.com example.org' },
  'watch remove': { domains: 'example.com example.org' },
  'access grant': { who: 'role:200000000000000050', what: 'domain dns', on: '*.acme.example', until: '8h' },
  'access revoke': { id: 'g00000001' },
  'access request': { what: 'domain dns', on: '*.acme.example', hours: 2, why: 'night shift' },
  'access explain': { user: '100000000000000050', command: 'domain dns', target: 'shop.acme.example' },
};

interface StringOption {
  path: string;
  command: string;
  subcommand: string;
  option: string;
}

/** Every text option HostOps declares, read from the one command list: a new one cannot be missed. */
function stringOptions(): StringOption[] {
  const found: StringOption[] = [];
  for (const { definition } of commands) {
    for (const sub of definition.options ?? []) {
      if (sub.type !== ApplicationCommandOptionType.Subcommand) continue;
      for (const option of sub.options ?? []) {
        if (option.type !== ApplicationCommandOptionType.String) continue;
        const path = `${definition.name} ${sub.name}`;
        found.push({ path, command: definition.name, subcommand: sub.name, option: option.name });
      }
    }
  }
  return found;
}

/** Puts the character inside the value, where a reader would not notice it. */
function insert(value: string, char: string): string {
  const middle = value.includes('hello world')
    ? value.indexOf('hello world') + 5
    : Math.ceil(value.length / 2);
  return `${value.slice(0, middle)}${char}${value.slice(middle)}`;
}

function hexOf(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Waits for the answer to the interaction first, so a late API call cannot slip past the check. */
async function expectRefusedWithoutCall(i: DispatchedInteraction, ...fragments: string[]): Promise<string> {
  const text = await ephemeralReply(t, i);
  for (const fragment of fragments) expect(text).toContain(fragment);
  await idle(t);
  expect(t.api.requests, 'no API call').toHaveLength(0);
  return text;
}

describe('every sent text value refuses characters that show as something else', () => {
  const options = stringOptions();

  it('has a sample for every subcommand with options', () => {
    const paths = new Set(options.map((o) => o.path));
    for (const path of paths) expect(Object.keys(SAMPLES), path).toContain(path);
    expect(options.length).toBeGreaterThanOrEqual(15);
  });

  for (const { path, command, subcommand, option } of options) {
    it(`/${path} ${option}: every hidden class refused, naming the option and the character`, async () => {
      const sample = SAMPLES[path] ?? {};
      for (const [name, char] of Object.entries(HIDDEN_CLASSES)) {
        const value = insert(String(sample[option] ?? 'x'), char);
        const i = t.command({
          commandName: command,
          subcommand,
          options: { ...sample, [option]: value },
          roles: [ROLES.admin],
        });
        const text = await expectRefusedWithoutCall(i, `\`${option}\``, hexOf(char));
        expect(text, name).toContain('would show as something other than what is sent');
      }
    });
  }

  it('a JSON-escaped right-to-left override in TXT content is refused in the modal too', async () => {
    const i = t.command({ commandName: 'domain', subcommand: 'dns', options: { domain: 'example.com' } });
    const modal = await callbackOf(t, i);
    expect(modal.type).toBe(CallbackType.modal);
    const submit = t.discord.dispatchModalSubmit({
      customId: str(modal.data.custom_id),
      fields: { records: '[{"name":"@","type":"TXT","content":"evil\\u202etxt.exe"}]' },
      roles: [ROLES.operator],
    });
    await expectRefusedWithoutCall(submit, '**Records**', 'index 0: content contains U+202E');
  });
});

describe('the prompt shows exactly what is sent', () => {
  it('/musicbot create: a 254-character e-mail with markdown and a backtick, and a mention-like user name', async () => {
    const local = 'a_b*c~d`e|f'.padEnd(64, 'x');
    const domain = `${'d'.repeat(63)}.${'e'.repeat(63)}.${'f'.repeat(57)}.com`;
    const email = `${local}@${domain}`;
    expect(email).toHaveLength(254);
    const username = '<@123>**bold**';
    const prompt = await openPrompt(t, {
      commandName: 'musicbot',
      subcommand: 'create',
      options: { username, email, storage: '1 GiB', bots: 1 },
    });
    const shownEmail = readLiteral(fieldValue(prompt.embed, 'E-mail'));
    const shownUser = readLiteral(fieldValue(prompt.embed, 'User name'));
    expect(shownEmail).toBe(email);
    await confirmAndWait(t, prompt);
    const [sent] = queryOf(t, 'createMusicBotUser');
    expect(sent?.email).toBe(shownEmail);
    expect(sent?.username).toBe(shownUser);
  });

  it('/domain register and /panel bind: backticks in handles and keys show as backticks', async () => {
    const register = await openPrompt(t, {
      commandName: 'domain',
      subcommand: 'register',
      options: { domain: 'example.org', ns1: 'ns1.example.net', ns2: 'ns2.example.net', owner: '`C-1``' },
      roles: [ROLES.admin],
    });
    expect(readLiteral(fieldValue(register.embed, 'Owner contact'))).toBe('`C-1``');
    await confirmAndWait(t, register);
    expect(queryOf(t, 'createDomain')[0]?.ownerC).toBe('`C-1``');

    const bind = await openPrompt(t, {
      commandName: 'panel',
      subcommand: 'bind',
      options: { license: 'KEY`with`ticks', ip: '2001:db8::7' },
    });
    expect(readLiteral(fieldValue(bind.embed, 'License'))).toBe('KEY`with`ticks');
    expect(readLiteral(fieldValue(bind.embed, 'IP address'))).toBe('2001:db8::7');
    await confirmAndWait(t, bind);
    expect(queryOf(t, 'bindPanelLicense')[0]).toEqual({
      license: 'KEY`with`ticks',
      ip_address: '2001:db8::7',
    });
  });

  it('/domain dns: TXT quotes, backticks, markdown and edge spaces show, and read back as the records sent', async () => {
    const records = [
      '@ TXT "  spaced  "',
      '@ TXT "say \\"hi\\" `code` **not bold** @everyone <@1>"',
      '_dmarc 300 TXT "v=DMARC1; p=reject; rua=mailto:d@example.com"',
      '@ MX 10 mail.example.com.',
    ].join('\n');
    const prompt = await openPrompt(t, {
      commandName: 'domain',
      subcommand: 'dns',
      options: { domain: 'example.com', records },
    });
    const block = fieldValue(prompt.embed, 'Records (4)');
    const shown = /^```\n([\s\S]*)\n```$/.exec(block)?.[1] ?? '';
    expect(shown.split('\n')).toHaveLength(4);
    await confirmAndWait(t, prompt);
    const sent = JSON.parse(str(queryOf(t, 'submitDnsRecords')[0]?.records));
    // What the prompt showed, read as zone lines, is exactly what the provider received.
    expect(parseDnsRecords(shown)).toEqual(sent);
    expect(sent[0].content).toBe('  spaced  ');
  });

  it('a record set too long for the prompt: whole lines, a visible count, and every record in records.txt', async () => {
    const lines = Array.from(
      { length: 22 },
      (_, n) => `txt${n} 3600 TXT "${`${n}-`.padEnd(200, 'abcdefghij')}"`,
    );
    const prompt = await openPrompt(t, {
      commandName: 'domain',
      subcommand: 'dns',
      options: { domain: 'example.com', records: lines.join('\n') },
    });
    const cb = await callbackOf(t, prompt.interaction);
    const file = cb.request.files?.find((f) => f.name === 'records.txt');
    expect(file, 'records.txt attached to the prompt').toBeDefined();
    const fileLines = str(file?.text).trimEnd().split('\n');
    expect(fileLines).toHaveLength(22);

    const text = textOf(prompt.body);
    const blocks = [...text.matchAll(/```\n([\s\S]*?)\n```/g)].map((m) => m[1] ?? '');
    const shownLines = blocks.flatMap((b) => b.split('\n'));
    expect(shownLines.length).toBeGreaterThan(0);
    expect(shownLines.length).toBeLessThan(22);
    // Shown lines are whole: exactly the first lines of the file.
    expect(shownLines).toEqual(fileLines.slice(0, shownLines.length));
    const hidden = 22 - shownLines.length;
    expect(text).toMatch(new RegExp(`… ${hidden} more records \\([\\d,]+ characters\\) not shown here`));
    expect(text).toContain('all 22 are in the attached `records.txt`');

    await confirmAndWait(t, prompt);
    const sent = JSON.parse(str(queryOf(t, 'submitDnsRecords')[0]?.records));
    expect(parseDnsRecords(fileLines.join('\n'))).toEqual(sent);
  });

  it('a single record longer than a field, or one that would close the code block, goes to the file', async () => {
    const long = `@ TXT ${Array.from({ length: 5 }, (_, n) => `"${String(n).repeat(250)}"`).join(' ')}`;
    const fence = '@ TXT "```escape```"';
    for (const records of [long, fence]) {
      t.api.reset();
      const prompt = await openPrompt(t, {
        commandName: 'domain',
        subcommand: 'dns',
        options: { domain: 'example.com', records },
      });
      const cb = await callbackOf(t, prompt.interaction);
      const file = cb.request.files?.find((f) => f.name === 'records.txt');
      expect(str(file?.text).split('\n')[0]).toMatch(/^@ 3600 TXT "/);
      expect(fieldValue(prompt.embed, 'Records (1)')).toMatch(
        /^… 1 more record \([\d,]+ characters\) not shown/,
      );
      expect(textOf(prompt.body)).not.toContain('```');
    }
  });
});

describe('text is cut whole, never into half an emoji', () => {
  it('the records editor of a long emoji domain gets a title Discord accepts', async () => {
    const domain = `${'🎵'.repeat(20)}.de`;
    const i = t.command({ commandName: 'domain', subcommand: 'dns', options: { domain } });
    const modal = await callbackOf(t, i);
    expect(modal.type).toBe(CallbackType.modal);
    const title = str(modal.data.title);
    expect(title.length).toBeLessThanOrEqual(45);
    expect(title).toMatch(/^DNS records for (🎵)+…$/u);
    expect(title).not.toMatch(/\p{Cs}/u);
    expect(t.discord.requestsFor(i)).toHaveLength(1);
  });
});

describe('routing matches the whole command path', () => {
  const unknown: InteractionOptions[] = [
    {
      commandName: 'domain',
      subcommandGroup: 'admin',
      subcommand: 'info',
      options: { domain: 'example.com' },
    },
    { commandName: 'server', subcommandGroup: 'x', subcommand: 'logs', options: { id: 42 } },
    { commandName: 'server', subcommand: 'reboot', options: { id: 42 } },
  ];
  for (const options of unknown) {
    const label = [options.commandName, options.subcommandGroup, options.subcommand]
      .filter(Boolean)
      .join(' ');
    it(`/${label} is not a command HostOps knows, and calls nothing`, async () => {
      const i = t.command({ ...options, roles: [ROLES.admin] });
      await expectRefusedWithoutCall(i, `\`/${label}\` is not a command this version of HostOps knows`);
    });
  }
});

describe('requests the provider cannot take', () => {
  // 100 records in under 5,000 characters (the option takes 6,000), whose request is well over 8 KiB:
  // every quote, brace, colon and space of the JSON is percent-encoded on the way.
  const records = Array.from(
    { length: 100 },
    (_, n) => `t${n} 3600 TXT "${'v=spf1 include:'.padEnd(30, 'x')}"`,
  );

  it('refuses before the prompt a record set whose request would be too long, saying how many fit', async () => {
    expect(records.join('\n').length).toBeLessThanOrEqual(6000);
    const i = t.command({
      commandName: 'domain',
      subcommand: 'dns',
      options: { domain: 'example.com', records: records.join('\n') },
    });
    const text = await expectRefusedWithoutCall(i, '`records`', 'these 100 records make a request of');
    const fit = Number(/at most (\d+) of these records in one request/.exec(text)?.[1]);
    expect(fit).toBeGreaterThan(0);
    expect(fit).toBeLessThan(100);
    // Markdown-escaped, as every echo of a problem is: it renders as HOSTING_API_MAX_URL_BYTES.
    expect(text).toContain('at most 8,192 (HOSTING\\_API\\_MAX\\_URL\\_BYTES)');

    // The number is right: that many go through, one more does not.
    const exact = await openPrompt(t, {
      commandName: 'domain',
      subcommand: 'dns',
      options: { domain: 'example.com', records: records.slice(0, fit).join('\n') },
    });
    expect(exact.confirmId).toMatch(/^hostops:confirm:/);
    const over = t.command({
      commandName: 'domain',
      subcommand: 'dns',
      options: { domain: 'example.com', records: records.slice(0, fit + 1).join('\n') },
    });
    await expectRefusedWithoutCall(over, `these ${fit + 1} records make a request of`);
  });

  for (const status of [414, 431]) {
    it(`a ${status} from the provider is "too large", not a provider error to retry`, async () => {
      t.api.enqueue('submitDnsRecords', { status });
      const prompt = await openPrompt(t, {
        commandName: 'domain',
        subcommand: 'dns',
        options: { domain: 'example.com', records: 'www A 203.0.113.7' },
      });
      const { promptEdit } = await confirmAndFail(prompt.confirmId, prompt.messageId);
      expect(promptEdit).toContain(
        `The request is too large for the provider (HTTP ${status}); nothing was changed.`,
      );
      expect(promptEdit).not.toContain('Try again later');
      expect(t.api.requestsFor('submitDnsRecords')).toHaveLength(1);
    });
  }
});

/** Presses Confirm on a change that fails: the prompt is updated, then edited with the error. */
async function confirmAndFail(confirmId: string, messageId: string): Promise<{ promptEdit: string }> {
  const click = t.discord.dispatchComponent({
    customId: confirmId,
    message: { id: messageId },
    userId: t.discord.userId,
    roles: [ROLES.operator],
  });
  const cb = await callbackOf(t, click);
  expect(cb.type).toBe(CallbackType.update);
  const edit = await t.nth(click, 1);
  const embeds = arr(dig(edit.body, 'embeds'));
  return { promptEdit: textOf(rec({ embeds })) };
}
