// Grants (issue 50) through the built bot and the fake Discord: an admin grants a support role
// `domain dns, server rdns` on `*.acme.example server:100-199`; inside goes through, outside is refused
// with zero API calls and a message naming what would allow it; /access explain agrees with the decision
// for every case (both asserted from one table); a revoke refuses the next Confirm of a prompt from before.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  confirmAndWait,
  deferredAnswer,
  ephemeralReply,
  idle,
  openPrompt,
  press,
  promptOf,
  textOf,
} from '../support/e2eHelpers.js';
import type { InteractionOptions } from '../support/FakeDiscord.js';
import { ROLES, startTestBot, type TestBot } from '../support/startTestBot.js';

const SUPPORT_ROLE = '200000000000000050';
const SUPPORT_USER = '100000000000000050';
const RECORDS = 'www 3600 A 203.0.113.7';

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

const asAdmin = (options: InteractionOptions) => ({ ...options, roles: [ROLES.admin] });
const asSupport = (options: InteractionOptions) => ({
  ...options,
  userId: SUPPORT_USER,
  roles: [SUPPORT_ROLE],
});
const dns = (domain: string): InteractionOptions => ({
  commandName: 'domain',
  subcommand: 'dns',
  options: { domain, records: RECORDS },
});
const rdns = (id: number): InteractionOptions => ({
  commandName: 'server',
  subcommand: 'rdns',
  options: { id, ip: '198.51.100.7', hostname: 'host.acme.example' },
});

/** Grants through /access grant, confirmed by an admin; returns the grant's id. */
async function grant(what: string, on: string): Promise<string> {
  const prompt = await openPrompt(
    t,
    asAdmin({
      commandName: 'access',
      subcommand: 'grant',
      options: { who: `role:${SUPPORT_ROLE}`, what, on },
    }),
  );
  const id = /`(g[0-9a-f]{8})`/.exec(JSON.stringify(prompt.body))?.[1];
  if (!id) throw new Error(`no grant id in ${JSON.stringify(prompt.body)}`);
  await confirmAndWait(t, prompt);
  return id;
}

async function explain(command: string, target?: string): Promise<string> {
  const i = t.command(
    asAdmin({
      commandName: 'access',
      subcommand: 'explain',
      options: { user: SUPPORT_USER, command, ...(target ? { target } : {}) },
    }),
  );
  return textOf((await deferredAnswer(t, i)).body);
}

const CASES: { command: InteractionOptions; path: string; target?: string; allowed: boolean }[] = [
  { command: dns('shop.acme.example'), path: 'domain dns', target: 'shop.acme.example', allowed: true },
  {
    command: dns('Deep.Shop.ACME.example'),
    path: 'domain dns',
    target: 'deep.shop.acme.example',
    allowed: true,
  },
  { command: dns('shop.other.example'), path: 'domain dns', target: 'shop.other.example', allowed: false },
  { command: dns('acme.example'), path: 'domain dns', target: 'acme.example', allowed: false },
  { command: rdns(150), path: 'server rdns', target: 'server:150', allowed: true },
  { command: rdns(250), path: 'server rdns', target: 'server:250', allowed: false },
  {
    command: {
      commandName: 'panel',
      subcommand: 'bind',
      options: { license: 'LIC-123456', ip: '203.0.113.7' },
    },
    path: 'panel bind',
    target: '203.0.113.7',
    allowed: false,
  },
];

describe('grants scoped to a support role', () => {
  let grantId: string;
  beforeAll(async () => {
    // Before any grant the support role may do nothing of it.
    grantId = await grant('domain dns, server rdns', '*.acme.example server:100-199');
  });

  it.each(CASES)('$path $target: allowed $allowed, and /access explain says the same', async (c) => {
    t.api.reset();
    const i = t.command(asSupport(c.command));
    if (c.allowed) {
      const prompt = await promptOf(t, i, { userId: SUPPORT_USER, roles: [SUPPORT_ROLE] });
      expect(JSON.stringify(prompt.body)).toContain('Confirm');
      await press(t, prompt, 'cancel');
    } else {
      const text = await ephemeralReply(t, i);
      // Says what would allow it: a grant of the command (or its tier's roles).
      expect(text).toMatch(new RegExp(`${c.path}|operator`));
      await idle(t);
      expect(t.api.requests, 'a refusal makes zero API calls').toHaveLength(0);
    }
    const explained = await explain(c.path, c.target);
    expect(explained).toContain(c.allowed ? '✅' : '🚫');
    expect(explained).not.toContain(c.allowed ? '🚫' : '✅');
    if (c.allowed) expect(explained).toContain(grantId);
  });

  it('a refusal outside the patterns names the resource, the grant that would allow it and who may approve', async () => {
    const text = await ephemeralReply(t, t.command(asSupport(dns('shop.other.example'))));
    expect(text).toContain('`shop.other.example`');
    expect(text).toContain('`domain dns`');
    expect(text).toContain(`<@&${ROLES.admin}>`);
  });

  it('a change inside goes through to the provider', async () => {
    const prompt = await openPrompt(t, asSupport(rdns(150)));
    await confirmAndWait(t, { ...prompt, ownerId: SUPPORT_USER, ownerRoles: [SUPPORT_ROLE] });
    expect(
      t.api.requests.filter((r) => r.path.includes('rdns') || r.path.includes('reverse')),
    ).not.toHaveLength(0);
  });

  it('a revoke refuses the next Confirm of a prompt opened before it', async () => {
    const prompt = await openPrompt(t, asSupport(rdns(160)));
    const revoke = await openPrompt(
      t,
      asAdmin({ commandName: 'access', subcommand: 'revoke', options: { id: grantId } }),
    );
    expect(JSON.stringify(revoke.body)).toContain('server:100-199');
    await confirmAndWait(t, revoke);
    t.api.reset();
    const click = press(t, { ...prompt, ownerId: SUPPORT_USER, ownerRoles: [SUPPORT_ROLE] }, 'confirm');
    expect(await ephemeralReply(t, click)).toMatch(/operator/);
    await idle(t);
    expect(t.api.requests).toHaveLength(0);
    expect(await explain('server rdns', 'server:150')).toContain('🚫');
  });
});

describe('hostile patterns', () => {
  it.each(['**.x', `${'a'.repeat(300)}.example`, 'ip:203.0.113.0/33', '*.\u0430cme.example', ''])(
    '%s is refused with a clear error and nothing changes',
    async (on) => {
      const i = t.command(
        asAdmin({
          commandName: 'access',
          subcommand: 'grant',
          options: { who: `role:${SUPPORT_ROLE}`, what: 'domain dns', on: on === '' ? ' ' : on },
        }),
      );
      expect(await ephemeralReply(t, i)).toMatch(/`on`/);
      const list = t.command(
        asAdmin({ commandName: 'access', subcommand: 'list', options: { who: SUPPORT_ROLE } }),
      );
      expect(textOf((await deferredAnswer(t, list)).body)).not.toContain('domain dns');
    },
  );
});

describe('the grants’ own administration', () => {
  it('a grant of `access grant` on a pattern lets its holder grant nothing: only a grant on * covers it', async () => {
    const id = await grant('access grant, access list', '*.acme.example');
    for (const on of ['*', 'shop.acme.example']) {
      const escalate = t.command(
        asSupport({
          commandName: 'access',
          subcommand: 'grant',
          options: { who: `user:${SUPPORT_USER}`, what: 'admin', on },
        }),
      );
      expect(await ephemeralReply(t, escalate)).toContain('`*`');
    }
    const list = t.command(asSupport({ commandName: 'access', subcommand: 'list', options: {} }));
    expect(await ephemeralReply(t, list)).toContain('`*`');
    expect(await explain('access grant', '*.acme.example')).toContain('🚫');
    // Nothing was granted: the holder's own grant is all there is for them.
    const all = t.command(asAdmin({ commandName: 'access', subcommand: 'list', options: {} }));
    const shown = textOf((await deferredAnswer(t, all)).body);
    expect(shown).not.toContain(`<@${SUPPORT_USER}>`);
    await confirmAndWait(
      t,
      await openPrompt(t, asAdmin({ commandName: 'access', subcommand: 'revoke', options: { id } })),
    );
  });
});
