// Read scope (issue 50) through the built bot and the fake Discord: a support role holding `viewer` on
// `*.acme.example` reads what lies inside and is told "not yours to see" for what lies outside, with no call
// to the provider for it; a viewer by role (a grant on `*`) still reads everything.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { confirmAndWait, openPrompt, publicAnswer, textOf } from '../support/e2eHelpers.js';
import type { InteractionOptions } from '../support/FakeDiscord.js';
import { ROLES, startTestBot, type TestBot } from '../support/startTestBot.js';

const SUPPORT_ROLE = '200000000000000051';
const SUPPORT_USER = '100000000000000051';
const INSIDE = 'shop.acme.example';
const OUTSIDE = 'shop.other.example';

let t: TestBot;
beforeAll(async () => {
  t = await startTestBot();
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
