// Read scope over /audit and /watch calendar (issue 50) through the built bot and the fake Discord: a
// support role holding `operator` on `*.acme.example server:100-199` sees, counts, pages and exports only
// the audit entries inside, and gets the calendar of the watched domains inside; an operator by role (a
// grant on `*`) sees everything, as before grants.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewAuditEntry } from '../../src/store/index.js';
import {
  CallbackType,
  callbackOf,
  confirmAndWait,
  deferredAnswer,
  dig,
  type Json,
  openPrompt,
  publicAnswer,
  str,
  textOf,
} from '../support/e2eHelpers.js';
import type { DispatchedInteraction, InteractionOptions } from '../support/FakeDiscord.js';
import { ROLES, startTestBot, type TestBot } from '../support/startTestBot.js';

const SUPPORT_ROLE = '200000000000000052';
const SUPPORT_USER = '100000000000000052';
const OPERATOR_USER = '100000000000000053';
const WATCH_CHANNEL = '300000000000000052';
const MINUTE_MS = 60_000;

const inside: Partial<NewAuditEntry>[] = [
  ...Array.from({ length: 12 }, (_, n) => ({
    command: 'domain',
    subcommand: 'dns',
    target: `a${String(n).padStart(2, '0')}.acme.example`,
  })),
  {
    command: 'server',
    subcommand: 'rdns',
    target: 'server 150 203.0.113.7',
    parameters: { serverId: 150, ip: '203.0.113.7', hostname: 'h.acme.example' },
  },
];
const outside: Partial<NewAuditEntry>[] = [
  { command: 'domain', subcommand: 'dns', target: 'shop.other.example' },
  { command: 'domain', subcommand: 'info', target: 'acme.example' },
  { command: 'server', subcommand: 'logs', target: 'server 250' },
  { command: 'domain', subcommand: 'expiry', target: 'b.acme.example c.other.example' },
  { command: 'access', subcommand: 'grant', target: `role:${SUPPORT_ROLE}` },
  { command: 'watch', subcommand: 'list', target: null },
];

let t: TestBot;
beforeAll(async () => {
  t = await startTestBot({ WATCH_CHANNEL_ID: WATCH_CHANNEL, WATCH_SCHEDULE: '0 0 1 1 *' });
  t.discord.addChannel({ id: WATCH_CHANNEL });
  const prompt = await openPrompt(t, {
    commandName: 'access',
    subcommand: 'grant',
    options: { who: `role:${SUPPORT_ROLE}`, what: 'operator', on: '*.acme.example server:100-199' },
    roles: [ROLES.admin],
  });
  await confirmAndWait(t, prompt);
  // Inside and outside entries interleaved, a minute apart, the newest first.
  const all = inside.flatMap((entry, n) => [entry, ...(outside[n] ? [outside[n]] : [])]);
  const now = Date.now();
  for (const [n, entry] of all.entries()) {
    await t.bot.store.audit.insert({
      at: new Date(now - (n + 1) * MINUTE_MS),
      userId: OPERATOR_USER,
      userName: 'someone',
      guildId: t.discord.guildId,
      channelId: t.discord.channelId,
      command: 'domain',
      subcommand: '',
      target: null,
      outcome: 'ok',
      detail: null,
      correlationId: `00000000${String(n).padStart(2, '0')}`,
      durationMs: 5,
      parameters: null,
      changeId: null,
      ...entry,
    });
  }
});
afterAll(async () => {
  await t?.stop();
});

const asSupport = { userId: SUPPORT_USER, roles: [SUPPORT_ROLE] };
const footerOf = (body: Json) => str(dig(body, 'embeds', 0, 'footer', 'text'));

async function audit(
  who: Pick<InteractionOptions, 'userId' | 'roles'>,
  options: InteractionOptions['options'] = {},
) {
  const interaction = t.command({ commandName: 'audit', options, ...who });
  return { interaction, ...(await deferredAnswer(t, interaction)) };
}

async function press(interaction: DispatchedInteraction, body: Json, label: string) {
  const buttons = (dig(body, 'components', 0, 'components') as Json[] | undefined) ?? [];
  const button = buttons.find((b) => String(dig(b, 'label')).includes(label));
  const message = t.discord.originalMessage(interaction);
  if (!button || !message) throw new Error(`no ${label} button`);
  const cb = await callbackOf(
    t,
    t.discord.dispatchComponent({
      customId: str(dig(button, 'custom_id')),
      message: { id: message.id },
      ...asSupport,
    }),
  );
  expect(cb.type).toBe(CallbackType.update);
  return cb.data;
}

describe('/audit by read scope', () => {
  it('shows, counts and pages only the entries inside', async () => {
    const { interaction, body } = await audit(asSupport);
    const first = JSON.stringify(body);
    for (const n of ['00', '09']) expect(first).toContain(`a${n}.acme.example`);
    expect(first).not.toContain('other.example');
    expect(footerOf(body)).toBe('Matches 1–10 of 13');
    const older = await press(interaction, body, 'Older');
    expect(footerOf(older)).toBe('Matches 11–13 of 13');
    expect(JSON.stringify(older)).toContain('server 150');
    const oldest = await press(interaction, older, 'Oldest');
    expect(footerOf(oldest)).toBe('Matches 4–13 of 13');
    for (const text of [older, oldest].map((b) => JSON.stringify(b))) {
      expect(text).not.toContain('other.example');
      expect(text).not.toContain('server 250');
      expect(text).not.toContain(`role:${SUPPORT_ROLE}`);
      expect(text).not.toMatch(/[^.]acme\.example/);
    }
  });

  it('exports only the entries inside', async () => {
    const { edit } = await audit(asSupport, { export: true });
    const csv = edit.files?.[0]?.text ?? '';
    const rows = csv.trimEnd().split('\r\n').slice(1);
    expect(rows).toHaveLength(13);
    expect(csv).not.toContain('other.example');
    expect(csv).not.toContain('server 250');
  });

  it('an operator by role sees every entry', async () => {
    const { body } = await audit(
      { userId: OPERATOR_USER, roles: [ROLES.operator] },
      { command: 'domain dns' },
    );
    expect(JSON.stringify(body)).toContain('shop.other.example');
    expect(footerOf(body)).toBe('Matches 1–10 of 13');
  });
});

describe('/watch calendar by read scope', () => {
  beforeAll(async () => {
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    const expiries = new Map([
      ['c1.acme.example', 5],
      ['c3.other.example', 9],
    ]);
    t.api.respond('domainInfo', (request) => {
      const days = expiries.get(request.param ?? '');
      if (days === undefined) return { status: 404, body: { error: 'domain not found' } };
      return {
        body: { expirydate: inDays(days), active: 'true', expired: 'false', transferredAway: 'false' },
      };
    });
    await t.bot.watch?.add(
      ['c1.acme.example', 'c2.acme.example', 'c3.other.example'].map((domain) => ({
        domain,
        unicode: domain,
      })),
      'someone',
    );
    await t.bot.watch?.run('manual');
  });
  const calendar: InteractionOptions = { commandName: 'watch', subcommand: 'calendar' };

  it('holds only the watched domains inside, counted among them', async () => {
    const { edit, body } = await publicAnswer(t, t.command({ ...calendar, ...asSupport }));
    expect(textOf(body)).toContain('1 event');
    expect(textOf(body)).toContain('1 domain without a known expiry date is not in it.');
    const ics = edit.files?.[0]?.text ?? '';
    expect(ics).toContain('c1.acme.example');
    expect(ics).not.toContain('other.example');
    expect(JSON.stringify(body)).not.toContain('other.example');
  });

  it('a viewer by role gets every watched domain', async () => {
    const { edit, body } = await publicAnswer(t, t.command({ ...calendar, roles: [ROLES.viewer] }));
    expect(textOf(body)).toContain('2 events');
    expect(edit.files?.[0]?.text ?? '').toContain('c3.other.example');
  });
});

describe('/help by grants', () => {
  const lineOf = (lines: string[], command: string) =>
    lines.find((line) => line.includes(`\`${command}\``)) ?? '';

  it('marks what the grants allow, and where; what neither roles nor grants allow stays 🚫', async () => {
    const cb = await callbackOf(t, t.command({ commandName: 'help', ...asSupport }));
    const lines = str(dig(cb.data, 'embeds', 0, 'description')).split('\n');
    expect(lineOf(lines, '/domain dns')).toMatch(
      /^✅ .* · \*operator\* · on `\*\.acme\.example` \(your grants\)$/,
    );
    expect(lineOf(lines, '/server rdns')).toMatch(/^✅ .* · on `server:100-199` \(your grants\)$/);
    expect(lineOf(lines, '/domain info')).toMatch(/^✅ .* · on `\*\.acme\.example` \(your grants\)$/);
    // A read naming no resource: allowed, filtered by the read scope; no place to name.
    expect(lineOf(lines, '/audit')).toMatch(/^✅ .*\*operator\*$/);
    // A change naming no resource needs a grant on `*` or one naming it; an admin's command, an admin's grant.
    expect(lineOf(lines, '/musicbot create')).toMatch(/^🚫 /);
    expect(lineOf(lines, '/domain register')).toMatch(/^🚫 /);
    expect(lineOf(lines, '/access grant')).toMatch(/^🚫 /);
  });

  it('is as before for a member whose roles allow it all', async () => {
    const cb = await callbackOf(t, t.command({ commandName: 'help', roles: [ROLES.admin] }));
    const text = str(dig(cb.data, 'embeds', 0, 'description'));
    expect(text).not.toContain('your grants');
    expect(text).not.toContain('🚫');
  });
});
