// /access export and import (issue 50) through the built bot and the fake Discord: the grants as a YAML
// file; an import shows its difference to what is in force and applies it on Confirm through the change
// flow; a file that round-trips is "no difference"; a bad file changes nothing; a prompt made before the
// grants moved is made again at Confirm.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify } from 'yaml';
import {
  CallbackType,
  callbackOf,
  confirmAndWait,
  deferredAnswer,
  dig,
  embedsOf,
  idle,
  isEphemeral,
  openPrompt,
  type Prompt,
  press,
  promptOf,
  rec,
  str,
  textOf,
} from '../support/e2eHelpers.js';
import type { DispatchedInteraction } from '../support/FakeDiscord.js';
import { ROLES, startTestBot, type TestBot } from '../support/startTestBot.js';

const SUPPORT = '200000000000000061';
const NIGHT = '200000000000000062';
const CONTRACTOR = '100000000000000063';

let t: TestBot;
let files: Server;
let filesUrl: string;
const served = new Map<string, string>();
const fetched: string[] = [];

beforeAll(async () => {
  t = await startTestBot();
  files = createServer((req, res) => {
    fetched.push(req.url ?? '');
    const body = served.get(req.url ?? '');
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/yaml' }).end(body);
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  await grant(`role:${SUPPORT}`, 'domain dns, server rdns', '*.acme.example server:100-199');
  await grant(`user:${CONTRACTOR}`, 'viewer', 'shop.example');
});
afterAll(async () => {
  await t?.stop();
  files?.closeAllConnections();
  await new Promise((resolve) => files?.close(resolve));
});
beforeEach(() => {
  fetched.length = 0;
});

async function grant(who: string, what: string, on: string): Promise<void> {
  const prompt = await openPrompt(t, {
    commandName: 'access',
    subcommand: 'grant',
    options: { who, what, on },
    roles: [ROLES.admin],
  });
  await confirmAndWait(t, prompt);
}

async function exported(): Promise<string> {
  const i = t.command({ commandName: 'access', subcommand: 'export', roles: [ROLES.admin] });
  const { edit, body } = await deferredAnswer(t, i);
  expect(textOf(body)).toContain('hostops-grants.yaml');
  const file = edit.files?.find((f) => f.name === 'hostops-grants.yaml');
  return file?.text ?? '';
}

let servedCount = 0;
function importOf(content: string, roles: string[] = [ROLES.admin]): DispatchedInteraction {
  const path = `/attachments/grants-${++servedCount}.yaml`;
  served.set(path, content);
  return t.command({
    commandName: 'access',
    subcommand: 'import',
    roles,
    attachments: {
      file: { url: `${filesUrl}${path}`, filename: 'grants.yaml', size: Buffer.byteLength(content) },
    },
  });
}

/** The one answer an import gives that is not a prompt: a reply or, after a deferral, its edit. */
async function answerOf(i: DispatchedInteraction): Promise<string> {
  const cb = await callbackOf(t, i);
  if (cb.type !== CallbackType.defer) return textOf(cb.data);
  return textOf(rec((await t.nth(i, 1)).body));
}

async function importPrompt(content: string): Promise<Prompt> {
  const i = importOf(content);
  return promptOf(t, i, { roles: [ROLES.admin] });
}

const field = (prompt: { embed: unknown }, name: RegExp) => {
  const fields = (dig(prompt.embed, 'fields') as { name: string; value: string }[] | undefined) ?? [];
  return fields.find((f) => name.test(f.name))?.value ?? '';
};
const storeGrants = async () => (await t.bot.store.grants.load()).grants;

describe('/access export', () => {
  it('gives the grants of the store as YAML, not the role variables', async () => {
    const yaml = parseYaml(await exported()) as { grants: Record<string, unknown>[] };
    expect(yaml.grants.map((g) => [g.who, g.what, g.on])).toEqual([
      [`role:${SUPPORT}`, ['domain dns', 'server rdns'], ['*.acme.example', 'server:100-199']],
      [`user:${CONTRACTOR}`, ['viewer'], ['shop.example']],
    ]);
    expect(JSON.stringify(yaml)).not.toContain(ROLES.admin);
  });

  it('is for admins', async () => {
    const i = t.command({ commandName: 'access', subcommand: 'export', roles: [ROLES.operator] });
    expect(await answerOf(i)).toContain('admin');
  });
});

describe('/access import', () => {
  it('of the export is "no difference", with no prompt and nothing changed', async () => {
    const before = await t.bot.store.grants.generation();
    const text = await answerOf(importOf(await exported()));
    expect(text).toContain('No difference');
    expect(text).toContain('(2)');
    expect(await t.bot.store.grants.generation()).toBe(before);
  });

  it('of an edited file shows exactly its difference, and applies it on Confirm', async () => {
    const yaml = parseYaml(await exported()) as { grants: Record<string, unknown>[] };
    const [support] = yaml.grants;
    const edited = {
      grants: [
        support,
        { who: `role:${NIGHT}`, what: 'operator', on: ['*.night.example'], until: '2099-01-01T00:00:00Z' },
      ],
    };
    const prompt = await importPrompt(stringify(edited));
    expect(field(prompt, /^Added \(1\)/)).toContain(`<@&${NIGHT}>`);
    expect(field(prompt, /^Added/)).toContain('`*.night.example`');
    expect(field(prompt, /^Removed \(1\)/)).toContain(`<@${CONTRACTOR}>`);
    expect(field(prompt, /^Unchanged/)).toBe('1');
    expect(field(prompt, /^In force/)).toContain('(2)');
    // Nothing before Confirm.
    expect((await storeGrants()).map((g) => g.subject.id).sort()).toEqual([CONTRACTOR, SUPPORT].sort());
    const { publicRecord } = await confirmAndWait(t, prompt);
    expect(textOf(publicRecord)).toContain('1 added, 1 removed, 1 unchanged');
    const after = await storeGrants();
    expect(after.map((g) => g.subject.id).sort()).toEqual([NIGHT, SUPPORT].sort());
    expect(after.find((g) => g.subject.id === NIGHT)?.until?.toISOString()).toBe('2099-01-01T00:00:00.000Z');
    expect(after.find((g) => g.subject.id === SUPPORT)?.id).toBe(support?.id);
    // The new state exports and round-trips again.
    expect(await answerOf(importOf(await exported()))).toContain('No difference');
    const audited = await t.bot.store.audit.query(
      { command: 'access', subcommand: 'import' },
      { limit: 10, offset: 0 },
    );
    expect(audited.rows.map((r) => r.outcome)).toContain('done');
  });

  it('made before the grants changed is made again at Confirm, against the grants in force then', async () => {
    const current = parseYaml(await exported()) as { grants: Record<string, unknown>[] };
    const file = stringify({
      grants: [...current.grants, { who: `user:${CONTRACTOR}`, what: 'viewer', on: 'shop.example' }],
    });
    const prompt = await importPrompt(file);
    expect(field(prompt, /^Removed \(0\)/)).toBe('none');
    // Meanwhile another admin grants something the file does not list.
    await grant(`role:${NIGHT}`, 'domain info', 'late.example');
    const generation = await t.bot.store.grants.generation();
    const click = press(t, prompt, 'confirm');
    expect((await callbackOf(t, click)).type).toBe(CallbackType.update);
    const edit = rec((await t.nth(click, 1)).body);
    const [embed = {}] = embedsOf(edit);
    expect(str(dig(embed, 'description'))).toContain('The grants changed since the import was shown');
    const renewed = { embed };
    expect(field(renewed, /^Removed \(1\)/)).toContain('`late.example`');
    expect(field(renewed, /^Added \(1\)/)).toContain(`<@${CONTRACTOR}>`);
    await idle(t);
    // Nothing was applied by the stale Confirm.
    expect(await t.bot.store.grants.generation()).toBe(generation);
    expect((await storeGrants()).some((g) => g.patterns.includes('late.example'))).toBe(true);
  });

  it.each([
    ['not YAML', 'grants: [\n  - who: "role:1', /not valid YAML/],
    [
      'an unknown key',
      `grants:\n  - who: role:${SUPPORT}\n    what: viewer\n    on: x.example\n    colour: red\n`,
      /grants\[1\] has keys HostOps does not know: colour/,
    ],
    ['an unknown top-level key', 'grant: []\n', /the top level has keys HostOps does not know: grant/],
    [
      '`**.x`',
      `grants:\n  - who: role:${SUPPORT}\n    what: viewer\n    on: "**.x"\n`,
      /grants\[1\]\.on: .*whole first label/,
    ],
    [
      'a 300-character name',
      `grants:\n  - who: role:${SUPPORT}\n    what: viewer\n    on: ${'a'.repeat(296)}.com\n`,
      /grants\[1\]\.on: .*300 characters long/,
    ],
    [
      'an invalid CIDR',
      `grants:\n  - who: role:${SUPPORT}\n    what: viewer\n    on: ip:203.0.113.0/33\n`,
      /grants\[1\]\.on: .*not an address range/,
    ],
    [
      'a Unicode look-alike',
      `grants:\n  - who: role:${SUPPORT}\n    what: viewer\n    on: "*.аcme.example"\n`,
      /grants\[1\]\.on: .*mixes scripts/,
    ],
    [
      'an unknown command',
      `grants:\n  - who: role:${SUPPORT}\n    what: domain nuke\n    on: x.example\n`,
      /grants\[1\]\.what: .*neither a command path nor a tier/,
    ],
    [
      'a bare id',
      `grants:\n  - who: "${SUPPORT}"\n    what: viewer\n    on: x.example\n`,
      /grants\[1\]\.who/,
    ],
    [
      'an alias bomb',
      `a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n`,
      /not valid YAML|HostOps does not know/,
    ],
  ])('with %s is refused, naming what is wrong, and changes nothing', async (_, content, expected) => {
    const before = await t.bot.store.grants.generation();
    const text = await answerOf(importOf(content));
    expect(text).toMatch(expected);
    await idle(t);
    expect(await t.bot.store.grants.generation()).toBe(before);
  });

  it('fetches only from where Discord serves attachments, and nothing too large', async () => {
    const elsewhere = t.command({
      commandName: 'access',
      subcommand: 'import',
      roles: [ROLES.admin],
      attachments: { file: { url: 'https://example.net/grants.yaml', filename: 'grants.yaml', size: 10 } },
    });
    expect(await answerOf(elsewhere)).toContain('not stored by Discord');
    const huge = t.command({
      commandName: 'access',
      subcommand: 'import',
      roles: [ROLES.admin],
      attachments: {
        file: { url: `${filesUrl}/attachments/huge.yaml`, filename: 'huge.yaml', size: 300_000 },
      },
    });
    expect(await answerOf(huge)).toContain('larger than 256 KB');
    expect(fetched).toEqual([]);
  });

  it('is for admins', async () => {
    const i = importOf('grants: []\n', [ROLES.operator]);
    const cb = await callbackOf(t, i);
    expect(isEphemeral(cb.data)).toBe(true);
    expect(textOf(cb.data)).toContain('admin');
    expect(fetched).toEqual([]);
  });
});
