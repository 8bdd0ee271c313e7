// Read scope (issue 50) through the built bot and the fake Discord: a support role holding `viewer` on
// `*.acme.example` reads what lies inside and is told "not yours to see" for what lies outside, with no call
// to the provider for it; a viewer by role (a grant on `*`) still reads everything.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  arr,
  callbackOf,
  confirmAndWait,
  dig,
  ephemeralReply,
  idle,
  openPrompt,
  publicAnswer,
  rec,
  str,
  textOf,
} from '../support/e2eHelpers.js';
import type { InteractionOptions } from '../support/FakeDiscord.js';
import { ROLES, startTestBot, type TestBot } from '../support/startTestBot.js';

const SUPPORT_ROLE = '200000000000000051';
const SUPPORT_USER = '100000000000000051';
const INSIDE = 'shop.acme.example';
const OUTSIDE = 'shop.other.example';

let t: TestBot;
beforeAll(async () => {
  t = await startTestBot({ WATCH_CHANNEL_ID: '300000000000000051', WATCH_SCHEDULE: '0 0 1 1 *' });
  const prompt = await openPrompt(t, {
    commandName: 'access',
    subcommand: 'grant',
    options: { who: `role:${SUPPORT_ROLE}`, what: 'viewer', on: '*.acme.example' },
    roles: [ROLES.admin],
  });
  await confirmAndWait(t, prompt);
});
afterAll(async () => {
  await t?.stop();
});
beforeEach(() => {
  t.api.reset();
});

const asSupport = (options: InteractionOptions) => ({
  ...options,
  userId: SUPPORT_USER,
  roles: [SUPPORT_ROLE],
});
const expiry: InteractionOptions = {
  commandName: 'domain',
  subcommand: 'expiry',
  options: { domains: `${INSIDE} ${OUTSIDE}` },
};

describe('/domain expiry by read scope', () => {
  it('answers what is inside and "not yours to see" for what is outside, without asking for it', async () => {
    const { body } = await publicAnswer(t, t.command(asSupport(expiry)));
    const text = textOf(body);
    expect(text).toContain('not yours to see');
    expect(t.api.requests.map((r) => r.param)).toEqual([INSIDE]);
    const data = JSON.stringify(body);
    expect(data).toContain(INSIDE);
  });

  it('a viewer by role reads both', async () => {
    const { body } = await publicAnswer(t, t.command({ ...expiry, roles: [ROLES.viewer] }));
    expect(textOf(body)).not.toContain('not yours to see');
    expect(t.api.requests.map((r) => r.param).sort()).toEqual([INSIDE, OUTSIDE].sort());
  });
});

describe('/watch list by read scope', () => {
  const inside = Array.from({ length: 12 }, (_, n) => `w${String(n).padStart(2, '0')}.acme.example`);
  const outside = ['w00.other.example', 'acme.example'];
  beforeAll(async () => {
    // As an earlier /watch add did: no look-up of its own.
    const rows = [...inside, ...outside].map((domain) => ({ domain, unicode: domain }));
    await t.bot.store.watch.add(rows, 'someone-earlier', new Date());
  });
  const list: InteractionOptions = { commandName: 'watch', subcommand: 'list', options: {} };
  const footer = (body: Parameters<typeof textOf>[0]) => str(dig(body, 'embeds', 0, 'footer', 'text'));

  it('lists only the watched domains inside, and counts only them', async () => {
    const { body } = await publicAnswer(t, t.command(asSupport(list)));
    const text = JSON.stringify(body);
    expect(text).not.toContain('other.example');
    expect(text).not.toMatch(/[^.]acme\.example/);
    for (const domain of inside.slice(0, 10)) expect(text).toContain(domain);
    expect(footer(body)).toBe('Domains 1–10 of 12');
  });

  it('a viewer by role lists them all', async () => {
    const { body } = await publicAnswer(t, t.command({ ...list, roles: [ROLES.viewer] }));
    expect(footer(body)).toBe('Domains 1–10 of 14');
  });

  it('suggests only the domains inside; a viewer by role is offered both', async () => {
    const suggested = async (options: InteractionOptions) => {
      const cb = await callbackOf(t, t.discord.dispatchAutocomplete(options));
      return arr(cb.data.choices, 'choices').map((c) => str(rec(c).value));
    };
    const info = { commandName: 'domain', subcommand: 'info', options: { domain: 'w00' } };
    expect(await suggested(asSupport(info))).toEqual(['w00.acme.example']);
    expect((await suggested({ ...info, roles: [ROLES.viewer] })).sort()).toEqual([
      'w00.acme.example',
      'w00.other.example',
    ]);
  });
});

describe('/domain records: one domain, decided by the gate', () => {
  it('outside is refused with no call to the provider', async () => {
    const records = { commandName: 'domain', subcommand: 'records', options: { domain: OUTSIDE } };
    const text = await ephemeralReply(t, t.command(asSupport(records)));
    expect(text).toContain(`\`${OUTSIDE}\``);
    await idle(t);
    expect(t.api.requests).toHaveLength(0);
  });
});
