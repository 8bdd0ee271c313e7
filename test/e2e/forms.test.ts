import Database from 'better-sqlite3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  arr,
  CallbackType,
  callbackOf,
  confirmAndWait,
  dig,
  idle,
  isEphemeral,
  type Json,
  promptOf,
  queryOf,
  rec,
  str,
  textOf,
} from '../support/e2eHelpers.js';
import type { DispatchedInteraction, InteractionOptions } from '../support/FakeDiscord.js';
import { ROLES, startTestBot, type TestBot, tempDatabaseUrl } from '../support/startTestBot.js';

// The forms of issue 51, on the built bot through the fake Discord, which checks every body against
// Discord's OpenAPI description (test/support/discordSpec.ts) and refuses one that breaks it.

const GIB = 1024 ** 3;
const OTHER_USER = '300000000000000079';

let t: TestBot;
const databaseUrl = tempDatabaseUrl();
beforeAll(async () => {
  t = await startTestBot({
    DATABASE_URL: databaseUrl,
    MUSICBOT_STORAGE_PLANS: '5 GiB, 10 GiB, 25 GiB',
    MUSICBOT_MAX_BOTS: '5',
  });
});

/**
 * Every open form's 14 minutes run out: a form's life is reckoned by the database's own clock
 * (`expires_at` against the store's now), so the test moves the forms' ends into the past rather than
 * wait a quarter of an hour.
 */
function expireOpenForms(): number {
  const database = new Database(databaseUrl.replace(/^sqlite:/, ''));
  try {
    return database.prepare('update forms set expires_at = expires_at - 15 * 60 * 1000').run().changes;
  } finally {
    database.close();
  }
}
afterAll(async () => {
  await t?.stop();
});
beforeEach(() => {
  t.api.reset();
});

interface Form {
  customId: string;
  title: string;
  /** By field id: its Label and the input in it. */
  fields: Map<string, { label: Json; input: Json }>;
}

async function formOf(i: DispatchedInteraction): Promise<Form> {
  const modal = await callbackOf(t, i);
  expect(modal.type, JSON.stringify(modal.request.body)).toBe(CallbackType.modal);
  const components = arr(modal.data.components).map((c) => rec(c));
  // Every input in a Label, none in an action row; at most five (Discord's limit).
  expect(components.map((c) => c.type)).toEqual(components.map(() => 18));
  expect(components.length).toBeLessThanOrEqual(5);
  const fields = new Map(
    components.map((label) => {
      const input = rec(label.component);
      return [str(input.custom_id), { label, input }] as const;
    }),
  );
  return { customId: str(modal.data.custom_id), title: str(modal.data.title), fields };
}

const optionsOf = (input: Json) => arr(input.options).map((o) => rec(o));
const chosen = (input: Json) => optionsOf(input).find((o) => o.default === true)?.value;

function open(options: InteractionOptions): Promise<Form> {
  return formOf(t.command({ roles: [ROLES.admin], ...options }));
}

function submit(form: Form, fields: Record<string, string>, userId?: string): DispatchedInteraction {
  return t.discord.dispatchModalSubmit({
    customId: form.customId,
    fields,
    roles: [ROLES.admin],
    ...(userId ? { userId } : {}),
  });
}

const ACCOUNT = {
  username: 'alice',
  email: 'alice@example.com',
  storage: String(10 * GIB),
  bots: '2',
};

/** The API call the one-line path makes for the same account. */
async function viaOptions(options: InteractionOptions): Promise<Record<string, string>[]> {
  t.api.reset();
  const prompt = await promptOf(t, t.command({ roles: [ROLES.admin], ...options }), { roles: [ROLES.admin] });
  await confirmAndWait(t, prompt);
  const operation = options.commandName === 'musicbot' ? 'createMusicBotUser' : 'createDomain';
  const sent = queryOf(t, operation);
  t.api.reset();
  return sent;
}

afterAll(() => {
  // Nothing HostOps sent in this file broke Discord's description.
  expect(t.discord.specRefusals).toEqual([]);
  const modals = t.discord.requests
    .map((r) => rec(r.body ?? {}))
    .filter((body) => body.type === CallbackType.modal);
  expect(modals.length).toBeGreaterThan(0);
  for (const modal of modals) {
    expect(arr(dig(modal, 'data', 'components')).map((c) => rec(c).type)).not.toContain(1);
  }
});

describe('/musicbot create without options: the onboarding form', () => {
  it('asks for user name and e-mail, storage among the plans and 1..MUSICBOT_MAX_BOTS bots', async () => {
    const form = await open({ commandName: 'musicbot', subcommand: 'create', options: {} });
    expect(form.title).toBe('New music-bot customer');
    expect([...form.fields.keys()]).toEqual(['username', 'email', 'storage', 'bots']);
    expect(form.fields.get('username')?.label).toMatchObject({
      label: 'User name',
      description: expect.any(String),
    });
    expect(form.fields.get('username')?.input).toMatchObject({ type: 4, style: 1, max_length: 64 });
    expect(form.fields.get('email')?.input).toMatchObject({ type: 4, max_length: 254 });
    const storage = form.fields.get('storage')?.input ?? {};
    expect(storage.type).toBe(21); // a radio group
    expect(optionsOf(storage).map((o) => [o.label, o.value])).toEqual([
      ['5 GiB', String(5 * GIB)],
      ['10 GiB', String(10 * GIB)],
      ['25 GiB', String(25 * GIB)],
    ]);
    expect(optionsOf(form.fields.get('bots')?.input ?? {}).map((o) => o.value)).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
    ]);
    await idle(t);
    expect(t.api.requests).toHaveLength(0);
  });

  it('filled, submitted and confirmed: exactly the API call of the one-line path', async () => {
    const form = await open({ commandName: 'musicbot', subcommand: 'create', options: {} });
    const prompt = await promptOf(t, submit(form, ACCOUNT), { roles: [ROLES.admin] });
    expect(textOf(prompt.body)).toContain('alice@example.com');
    await idle(t);
    expect(t.api.requests).toHaveLength(0);
    await confirmAndWait(t, prompt);
    const sent = queryOf(t, 'createMusicBotUser');
    expect(sent).toHaveLength(1);
    const options = { username: 'alice', email: 'alice@example.com', storage: '10 GiB', bots: 2 };
    expect(await viaOptions({ commandName: 'musicbot', subcommand: 'create', options })).toEqual(sent);
  });

  it('a wrong e-mail names the field; Edit reopens the form with what was typed; the fixed submit goes through', async () => {
    const form = await open({ commandName: 'musicbot', subcommand: 'create', options: {} });
    const wrong = submit(form, { ...ACCOUNT, email: 'alice@@example' });
    const answer = await callbackOf(t, wrong);
    expect(answer.type).toBe(CallbackType.reply);
    expect(isEphemeral(answer.data)).toBe(true);
    expect(textOf(answer.data)).toMatch(/^\*\*E-mail\*\*: .*Nothing was sent/s);
    const edit = rec(dig(answer.data, 'components', 0, 'components', 0));
    expect(edit.label).toBe('Edit');
    await idle(t);
    expect(t.api.requests).toHaveLength(0);

    const message = t.discord.originalMessage(wrong);
    if (!message) throw new Error('no message behind the answer');
    const again = await formOf(
      t.discord.dispatchComponent({ customId: str(edit.custom_id), message, roles: [ROLES.admin] }),
    );
    expect(again.customId).toBe(form.customId);
    expect(again.fields.get('username')?.input.value).toBe('alice');
    expect(again.fields.get('email')?.input.value).toBe('alice@@example');
    expect(chosen(again.fields.get('storage')?.input ?? {})).toBe(String(10 * GIB));
    expect(chosen(again.fields.get('bots')?.input ?? {})).toBe('2');

    const prompt = await promptOf(t, submit(again, ACCOUNT), { roles: [ROLES.admin] });
    await confirmAndWait(t, prompt);
    expect(queryOf(t, 'createMusicBotUser')).toHaveLength(1);
  });

  it('options given prefill the form; a storage outside the plans is offered too', async () => {
    const form = await open({
      commandName: 'musicbot',
      subcommand: 'create',
      options: { username: 'bob', storage: '7 GiB', bots: 3 },
    });
    expect(form.fields.get('username')?.input.value).toBe('bob');
    expect(form.fields.get('email')?.input.value).toBeUndefined();
    expect(chosen(form.fields.get('storage')?.input ?? {})).toBe(String(7 * GIB));
    expect(optionsOf(form.fields.get('storage')?.input ?? {}).map((o) => o.label)).toEqual([
      '5 GiB',
      '7 GiB',
      '10 GiB',
      '25 GiB',
    ]);
    expect(chosen(form.fields.get('bots')?.input ?? {})).toBe('3');
  });

  it('a choice the form did not offer is refused, naming the field; nothing is sent', async () => {
    const form = await open({ commandName: 'musicbot', subcommand: 'create', options: {} });
    const answer = await callbackOf(t, submit(form, { ...ACCOUNT, bots: '900' }));
    expect(textOf(answer.data)).toMatch(/^\*\*Bots\*\*: .*not one of the choices/s);
    await idle(t);
    expect(t.api.requests).toHaveLength(0);
  });

  it('a submit by someone else, or of a form already sent, is refused clearly and sends nothing', async () => {
    const form = await open({ commandName: 'musicbot', subcommand: 'create', options: {} });
    const stranger = await callbackOf(t, submit(form, ACCOUNT, OTHER_USER));
    expect(textOf(stranger.data)).toMatch(/no longer open .*not yours.*Nothing was sent/);
    const prompt = await promptOf(t, submit(form, ACCOUNT), { roles: [ROLES.admin] });
    const twice = await callbackOf(t, submit(form, ACCOUNT));
    expect(textOf(twice.data)).toMatch(/no longer open/);
    await idle(t);
    expect(t.api.requests).toHaveLength(0);
    expect(prompt.confirmId).toMatch(/^hostops:confirm:/);
  });
});

describe('a form whose time is up', () => {
  it('its submit, and Edit under an invalid one, are refused clearly; nothing is sent', async () => {
    const form = await open({ commandName: 'musicbot', subcommand: 'create', options: {} });
    const wrong = submit(form, { ...ACCOUNT, email: 'alice@@example' });
    const answer = await callbackOf(t, wrong);
    expect(textOf(answer.data)).toMatch(/^\*\*E-mail\*\*/);
    const edit = rec(dig(answer.data, 'components', 0, 'components', 0));
    const message = t.discord.originalMessage(wrong);
    if (!message) throw new Error('no message behind the answer');
    expect(expireOpenForms()).toBeGreaterThan(0);
    const late = await callbackOf(
      t,
      t.discord.dispatchComponent({ customId: str(edit.custom_id), message, roles: [ROLES.admin] }),
    );
    expect(late.type).toBe(CallbackType.reply);
    expect(isEphemeral(late.data)).toBe(true);
    expect(textOf(late.data)).toMatch(/no longer open/);
    const lateSubmit = await callbackOf(t, submit(form, ACCOUNT));
    expect(textOf(lateSubmit.data)).toMatch(/no longer open .*Nothing was sent/);
    await idle(t);
    expect(t.api.requests).toHaveLength(0);
  });
});

describe('/domain register without options: the registration form', () => {
  it('asks for the domain, the two name servers and the contacts, prefilled with DEFAULT_*_C', async () => {
    const form = await open({ commandName: 'domain', subcommand: 'register', options: {} });
    expect([...form.fields.keys()]).toEqual(['domain', 'ns1', 'ns2', 'contacts']);
    expect(form.fields.get('contacts')?.input).toMatchObject({
      style: 2,
      value: 'owner: OWN-1\nadmin: ADM-1\ntech: TEC-1\nzone: ZON-1',
    });
  });

  it('filled, submitted and confirmed: exactly the API call of the one-line path', async () => {
    const form = await open({
      commandName: 'domain',
      subcommand: 'register',
      options: { ns1: 'ns1.example.net' },
    });
    expect(form.fields.get('ns1')?.input.value).toBe('ns1.example.net');
    const contacts = 'owner: C-7\nadmin: ADM-1\ntech: TEC-1\nzone: ZON-1';
    const fields = { domain: 'example.org', ns1: 'ns1.example.net', ns2: 'ns2.example.net', contacts };
    const prompt = await promptOf(t, submit(form, fields), { roles: [ROLES.admin] });
    await confirmAndWait(t, prompt);
    const sent = queryOf(t, 'createDomain');
    expect(sent).toHaveLength(1);
    const options = { domain: 'example.org', ns1: 'ns1.example.net', ns2: 'ns2.example.net', owner: 'C-7' };
    expect(await viaOptions({ commandName: 'domain', subcommand: 'register', options })).toEqual(sent);
  });

  it('a contact line it cannot read names the contacts field; Edit keeps what was typed', async () => {
    const form = await open({ commandName: 'domain', subcommand: 'register', options: {} });
    const typed = {
      domain: 'example.net',
      ns1: 'ns1.example.net',
      ns2: 'ns2.example.net',
      contacts: 'owner C 7',
    };
    const wrong = submit(form, typed);
    const answer = await callbackOf(t, wrong);
    expect(textOf(answer.data)).toMatch(/^\*\*Contact handles\*\*: line `owner C 7`/);
    const edit = rec(dig(answer.data, 'components', 0, 'components', 0));
    const message = t.discord.originalMessage(wrong);
    if (!message) throw new Error('no message behind the answer');
    const again = await formOf(
      t.discord.dispatchComponent({ customId: str(edit.custom_id), message, roles: [ROLES.admin] }),
    );
    expect(again.fields.get('domain')?.input.value).toBe('example.net');
    expect(again.fields.get('contacts')?.input.value).toBe('owner C 7');
    // Edit pressed by someone else opens nothing.
    const stranger = await callbackOf(
      t,
      t.discord.dispatchComponent({
        customId: str(edit.custom_id),
        message,
        roles: [ROLES.admin],
        userId: OTHER_USER,
      }),
    );
    expect(stranger.type).toBe(CallbackType.reply);
    expect(textOf(stranger.data)).toMatch(/no longer open/);
    await idle(t);
    expect(t.api.requests).toHaveLength(0);
  });
});
