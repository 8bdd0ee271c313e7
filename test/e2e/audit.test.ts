// /audit through the fake Discord with the real bot: the audit trail of real invocations, searched,
// paged and exported. Everything /audit shows is only for the invoker (ephemeral).
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuditEntry, AuditFilter } from '../../src/store/index.js';
import {
  arr,
  CallbackType,
  callbackOf,
  confirmAndWait,
  deferredAnswer,
  dig,
  EPHEMERAL,
  ephemeralReply,
  idle,
  isEphemeral,
  type Json,
  openPrompt,
  press,
  rec,
  str,
} from '../support/e2eHelpers.js';
import type { DispatchedInteraction, InteractionOptions, RecordedRequest } from '../support/FakeDiscord.js';
import { ROLES, startTestBot, type TestBot } from '../support/startTestBot.js';

const USERS = {
  reader: '100000000000000101',
  viewer: '100000000000000102',
  operator1: '100000000000000103',
  operator2: '100000000000000104',
  pager: '100000000000000105',
  formula: '100000000000000106',
  auditor: '100000000000000107',
  old: '100000000000000108',
} as const;
const FORMULA_NAME = '=HYPERLINK("http://x")';
const PAGED = 23;
const DAY_MS = 86_400_000;
const HEADER =
  'at,user_id,user_name,guild_id,channel_id,command,subcommand,target,outcome,detail,correlation_id,duration_ms,parameters,change_id,acted_by_id,acted_by_name';

let t: TestBot;

/** Waits until the store holds at least `count` entries matching the filter (they are written after the answer). */
async function entries(filter: AuditFilter, count: number): Promise<AuditEntry[]> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const { rows, total } = await t.bot.store.audit.query(filter, { limit: 1_000, offset: 0 });
    if (total >= count) return rows;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${count} audit entries, saw ${total}`);
    await sleep(10);
  }
}

interface AuditAnswer {
  interaction: DispatchedInteraction;
  body: Json;
  embed: Json;
  description: string;
  footer: string | undefined;
  /** The lines of entries (each starts with a Discord timestamp). */
  lines: string[];
  buttons: Json[];
  edit: RecordedRequest;
}

function read(interaction: DispatchedInteraction, body: Json, edit: RecordedRequest): AuditAnswer {
  const embed = rec(dig(body, 'embeds', 0), 'audit embed');
  const description = str(embed.description, 'description');
  const footer = dig(embed, 'footer', 'text');
  const buttons = (
    Array.isArray(dig(body, 'components', 0, 'components'))
      ? arr(dig(body, 'components', 0, 'components'))
      : []
  ).map((b) => rec(b));
  return {
    interaction,
    body,
    embed,
    description,
    footer: typeof footer === 'string' ? footer : undefined,
    lines: description.split('\n').filter((line) => line.startsWith('<t:')),
    buttons,
    edit,
  };
}

/** Runs /audit (as the auditor, an operator) and waits for its answer: an ephemeral deferral, then the edit. */
async function audit(options: InteractionOptions['options'] = {}): Promise<AuditAnswer> {
  const i = t.command({
    commandName: 'audit',
    options,
    userId: USERS.auditor,
    roles: [ROLES.operator],
  });
  const { ack, edit, body } = await deferredAnswer(t, i);
  expect(rec(ack.body).type).toBe(CallbackType.defer);
  expect(dig(ack.body, 'data', 'flags'), 'the deferral must be ephemeral').toBe(EPHEMERAL);
  return read(i, body, edit);
}

type PagingButton = 'Newest' | 'Newer' | 'Older' | 'Oldest';

function button(answer: { buttons: Json[] }, label: PagingButton): Json {
  const found = answer.buttons.find((b) => String(b.label).includes(label));
  if (!found) throw new Error(`no ${label} button in ${JSON.stringify(answer.buttons)}`);
  return found;
}

/** Presses a paging button on an /audit answer and waits for the message update (type 7). */
async function page(of: AuditAnswer, label: PagingButton): Promise<AuditAnswer> {
  const message = t.discord.originalMessage(of.interaction);
  if (!message) throw new Error('the fake knows no message behind the /audit answer');
  const click = t.discord.dispatchComponent({
    customId: str(button(of, label).custom_id),
    message: { id: message.id },
    userId: USERS.auditor,
    roles: [ROLES.operator],
  });
  const cb = await callbackOf(t, click);
  expect(cb.type, `expected an update, got ${JSON.stringify(cb.request.body)}`).toBe(CallbackType.update);
  return { ...read(of.interaction, cb.data, cb.request) };
}

function csvOf(answer: AuditAnswer): string[] {
  const files = answer.edit.files ?? [];
  expect(files.map((f) => f.name)).toEqual(['hostops-audit.csv']);
  const text = files[0]?.text ?? '';
  expect(text.endsWith('\r\n')).toBe(true);
  return text.slice(0, -2).split('\r\n');
}

const mentionOf = (line: string) => /<@(\d+)>/.exec(line)?.[1];
const correlationIdOf = (line: string) => /`([0-9a-f]{10})`/.exec(line)?.[1];

beforeAll(async () => {
  t = await startTestBot();
  // A read, a refused command (a viewer asking for a change), an invalid input, a change confirmed and
  // a change cancelled — by different members.
  await deferredAnswer(
    t,
    t.command({
      commandName: 'domain',
      subcommand: 'info',
      options: { domain: 'example.com' },
      userId: USERS.reader,
      roles: [ROLES.viewer],
    }),
  );
  await ephemeralReply(
    t,
    t.command({
      commandName: 'server',
      subcommand: 'rdns',
      options: { id: 42, ip: '203.0.113.7', hostname: 'host.example.com' },
      userId: USERS.viewer,
      roles: [ROLES.viewer],
    }),
  );
  await ephemeralReply(
    t,
    t.command({
      commandName: 'domain',
      subcommand: 'info',
      options: { domain: 'not a domain!' },
      userId: USERS.reader,
      roles: [ROLES.viewer],
    }),
  );
  const rdns = await openPrompt(t, {
    commandName: 'server',
    subcommand: 'rdns',
    options: { id: 42, ip: '203.0.113.7/32', hostname: 'host.example.com' },
    userId: USERS.operator1,
  });
  await confirmAndWait(t, rdns);
  const bind = await openPrompt(t, {
    commandName: 'panel',
    subcommand: 'bind',
    options: { license: 'ABCD-1234-EFGH', ip: '2001:db8::7' },
    userId: USERS.operator2,
  });
  const cancel = press(t, bind, 'cancel');
  expect((await callbackOf(t, cancel)).type).toBe(CallbackType.update);
  // More than a page of entries by one member.
  for (let n = 0; n < PAGED; n++) {
    await callbackOf(t, t.command({ commandName: 'help', userId: USERS.pager, roles: [ROLES.viewer] }));
  }
  // A member whose name a spreadsheet would run as a formula.
  await callbackOf(
    t,
    t.command({ commandName: 'help', userId: USERS.formula, username: FORMULA_NAME, roles: [ROLES.viewer] }),
  );
  // An entry from ten days ago, straight into the store.
  await t.bot.store.audit.insert({
    at: new Date(Date.now() - 10 * DAY_MS),
    userId: USERS.old,
    userName: 'oldtimer',
    guildId: t.discord.guildId,
    channelId: t.discord.channelId,
    command: 'domain',
    subcommand: 'info',
    target: 'old.example',
    outcome: 'ok',
    detail: null,
    correlationId: '0123456789',
    durationMs: 5,
    parameters: null,
    changeId: null,
  });
  // Each entry is written once its answer is out: wait for all of them.
  await entries({ since: new Date(Date.now() - DAY_MS) }, 5 + PAGED + 1);
  await entries({ outcome: 'cancelled' }, 1);
});
afterAll(async () => {
  await t?.stop();
});
beforeEach(() => {
  t.api.reset();
});

describe('/audit', () => {
  it('answers only the invoker: the newest 10 as an embed with Newer/Older, and calls no API', async () => {
    const answer = await audit();
    expect(answer.edit.method).toBe('PATCH');
    expect(answer.edit.path).toBe(
      `/webhooks/${t.discord.applicationId}/${answer.interaction.token}/messages/@original`,
    );
    expect(t.discord.originalMessage(answer.interaction)?.flags ?? 0).toBe(EPHEMERAL);
    expect(answer.embed.title).toBe('Audit trail');
    expect(answer.lines).toHaveLength(10);
    expect(answer.description).toMatch(/^Entries since <t:\d+:f>:/);
    expect(answer.footer).toMatch(/^Matches 1–10 of \d+$/);
    // Newest first: the last /help runs come before everything else.
    expect(answer.lines.every((line) => line.includes('`/help`'))).toBe(true);
    expect(button(answer, 'Newer').disabled).toBe(true);
    expect(button(answer, 'Older').disabled).toBe(false);
    // Nothing posted in the channel, no follow-up, no call to the hosting API.
    expect(t.discord.requestsFor(answer.interaction)).toHaveLength(2);
    await idle(t);
    expect(t.api.requests).toHaveLength(0);
  });

  it('is itself in the audit trail: who, where, what it searched for', async () => {
    const answer = await audit({ outcome: 'done', days: 3 });
    const [entry] = await entries({ command: 'audit', target: 'outcome done' }, 1);
    expect(entry).toMatchObject({
      userId: USERS.auditor,
      guildId: t.discord.guildId,
      channelId: t.discord.channelId,
      command: 'audit',
      subcommand: '',
      target: '3d, outcome done',
      outcome: 'ok',
    });
    expect(answer.lines).toHaveLength(1);
  });

  it('filters by user', async () => {
    const answer = await audit({ user: USERS.reader });
    expect(answer.description).toContain(`by <@${USERS.reader}>`);
    expect(answer.footer).toBe('Matches 1–2 of 2');
    expect(answer.lines.map(mentionOf)).toEqual([USERS.reader, USERS.reader]);
    expect(answer.lines[0]).toMatch(/⚠️ \*\*invalid\*\* · `\/domain info` · .* · domain$/);
    expect(answer.lines[1]).toMatch(/✅ \*\*ok\*\* · `\/domain info` · example\.com · /);
  });

  it('filters by command (a path with a subcommand, and one without)', async () => {
    const rdns = await audit({ command: 'server rdns' });
    expect(rdns.description).toContain('command `/server rdns`');
    expect(rdns.lines).toHaveLength(2);
    expect(rdns.lines.every((line) => line.includes('`/server rdns`'))).toBe(true);
    expect(rdns.lines.map(mentionOf).sort()).toEqual([USERS.viewer, USERS.operator1].sort());
    expect(rdns.lines.some((line) => line.includes('**done**'))).toBe(true);
    expect(rdns.lines.some((line) => /\*\*refused\*\* .* · tier$/.test(line))).toBe(true);

    const help = await audit({ command: 'help', user: USERS.formula });
    expect(help.lines).toHaveLength(1);
    expect(help.lines[0]).toContain('`/help`');
  });

  it('filters by a part of the target, ignoring case', async () => {
    const rdns = await audit({ target: '203.0.113' });
    expect(rdns.description).toContain('target containing `203.0.113`');
    expect(rdns.lines).toHaveLength(1);
    expect(rdns.lines[0]).toContain('server 42 203.0.113.7/32');
    expect(mentionOf(rdns.lines[0] ?? '')).toBe(USERS.operator1);

    const domain = await audit({ target: 'EXAMPLE.COM' });
    expect(domain.lines).toHaveLength(1);
    expect(domain.lines[0]).toContain('example.com');
  });

  it('matches a target shorter than three characters only as a whole target, ignoring case', async () => {
    // A music-bot user may be called `al` (1 to 64 characters): a target no trigram index can find.
    for (const target of ['al', 'AL', 'pal', 'al2']) {
      await t.bot.store.audit.insert({
        at: new Date(),
        userId: USERS.operator2,
        userName: 'op2',
        guildId: t.discord.guildId,
        channelId: t.discord.channelId,
        command: 'musicbot',
        subcommand: 'create',
        target,
        outcome: 'done',
        detail: null,
        correlationId: 'a1a1a1a1a1',
        durationMs: 1,
        parameters: null,
        changeId: null,
      });
    }
    const al = await audit({ target: 'Al' });
    expect(al.description).toContain('target exactly `Al`');
    expect(al.lines.map((line) => / · `\/musicbot create` · (\w+) · /.exec(line)?.[1])).toEqual(['AL', 'al']);
    expect(al.footer).toBe('Matches 1–2 of 2');
    // `42` is no whole target (the server's entries say `server 42 …`): none, and the answer says why.
    const short = await audit({ target: '42' });
    expect(short.lines).toEqual([]);
    expect(short.description).toContain('target exactly `42`.');
    expect(short.description).toContain('A target shorter than 3 characters matches only whole targets');
    // Three characters and more search within targets.
    expect((await audit({ target: 'al2' })).lines).toHaveLength(1);
    expect((await audit({ target: 'pal' })).lines).toHaveLength(1);
  });

  it('filters by outcome', async () => {
    const cancelled = await audit({ outcome: 'cancelled' });
    expect(cancelled.lines).toHaveLength(1);
    expect(cancelled.lines[0]).toContain('**cancelled**');
    expect(cancelled.lines[0]).toContain('`/panel bind`');
    expect(mentionOf(cancelled.lines[0] ?? '')).toBe(USERS.operator2);

    const invalid = await audit({ outcome: 'invalid' });
    expect(invalid.lines).toHaveLength(1);
    expect(mentionOf(invalid.lines[0] ?? '')).toBe(USERS.reader);
  });

  it('looks back `days` days (7 by default)', async () => {
    const week = await audit({ user: USERS.old });
    expect(week.lines).toEqual([]);
    expect(week.description).toMatch(/^No audit entries match: since <t:\d+:f>, by <@\d+>\.$/);
    expect(week.buttons).toEqual([]);

    const nine = await audit({ user: USERS.old, days: 9 });
    expect(nine.lines).toEqual([]);

    const eleven = await audit({ user: USERS.old, days: 11 });
    expect(eleven.lines).toHaveLength(1);
    expect(eleven.lines[0]).toContain('old.example');
    expect(eleven.lines[0]).toContain('(oldtimer)');
    expect(eleven.lines[0]).toContain('`0123456789`');
  });

  it('combines filters', async () => {
    const none = await audit({ user: USERS.reader, outcome: 'done' });
    expect(none.lines).toEqual([]);
    expect(none.description).toContain('No audit entries match');
    const one = await audit({
      user: USERS.operator1,
      command: 'server rdns',
      outcome: 'done',
      target: 'server 42',
    });
    expect(one.lines).toHaveLength(1);
  });

  it('refuses a viewer (operator tier), before any search', async () => {
    const i = t.command({ commandName: 'audit', userId: USERS.viewer, roles: [ROLES.viewer] });
    const text = await ephemeralReply(t, i);
    expect(text).toContain('`/audit` needs the **operator** tier');
    const [entry] = await entries({ command: 'audit', outcome: 'refused', userId: USERS.viewer }, 1);
    expect(entry?.detail).toBe('tier');
    await idle(t);
    expect(t.api.requests).toHaveLength(0);
  });

  it('refuses out-of-range days as invalid, ephemerally', async () => {
    const i = t.command({ commandName: 'audit', options: { days: 0 }, userId: USERS.auditor });
    expect(await ephemeralReply(t, i)).toMatch(/^`days`: 0 is out of range/);
  });

  it('pages with Older and Newer, updating the message, the buttons disabled at the ends', async () => {
    const expected = (await entries({ userId: USERS.pager }, PAGED)).map((e) => e.correlationId);
    const first = await audit({ user: USERS.pager });
    expect(first.footer).toBe(`Matches 1–10 of ${PAGED}`);
    expect(button(first, 'Newer').disabled).toBe(true);
    expect(button(first, 'Older').disabled).toBe(false);
    for (const b of first.buttons) expect(str(b.custom_id).length).toBeLessThanOrEqual(100);

    const second = await page(first, 'Older');
    expect(second.footer).toBe(`Matches 11–20 of ${PAGED}`);
    expect(second.lines).toHaveLength(10);
    expect(button(second, 'Newer').disabled).toBe(false);
    expect(button(second, 'Older').disabled).toBe(false);
    // The filter travels with the button: still only the pager's entries.
    expect(second.lines.every((line) => mentionOf(line) === USERS.pager)).toBe(true);

    const third = await page(second, 'Older');
    expect(third.footer).toBe(`Matches 21–${PAGED} of ${PAGED}`);
    expect(third.lines).toHaveLength(PAGED - 20);
    expect(button(third, 'Newer').disabled).toBe(false);
    expect(button(third, 'Older').disabled).toBe(true);

    // Every entry exactly once, newest first.
    const seen = [...first.lines, ...second.lines, ...third.lines].map(correlationIdOf);
    expect(seen).toEqual(expected);

    const back = await page(third, 'Newer');
    expect(back.footer).toBe(`Matches 11–20 of ${PAGED}`);
    expect(back.lines).toEqual(second.lines);
    const start = await page(back, 'Newer');
    expect(start.footer).toBe(`Matches 1–10 of ${PAGED}`);
    expect(start.lines).toEqual(first.lines);
    expect(button(start, 'Newer').disabled).toBe(true);

    // Oldest: the ten oldest, read from the oldest end; the count is exact, so numbered from the newest.
    const oldest = await page(start, 'Oldest');
    expect(oldest.footer).toBe(`Matches ${PAGED - 9}–${PAGED} of ${PAGED}`);
    expect(oldest.lines.map(correlationIdOf)).toEqual(expected.slice(-10));
    expect(button(oldest, 'Older').disabled).toBe(true);
    expect(button(oldest, 'Oldest').disabled).toBe(true);
    const towards = await page(oldest, 'Newer');
    expect(towards.footer).toBe(`Matches ${PAGED - 19}–${PAGED - 10} of ${PAGED}`);
    const top = await page(towards, 'Newer');
    expect(top.footer).toBe(`Matches 1–${PAGED - 20} of ${PAGED}`);
    expect(button(top, 'Newer').disabled).toBe(true);
    expect(button(top, 'Newest').disabled).toBe(true);
    expect(button(top, 'Older').disabled).toBe(false);
    await idle(t);
    expect(t.api.requests).toHaveLength(0);
  });

  it('refuses a page button to a member below operator', async () => {
    const first = await audit({ user: USERS.pager });
    const message = t.discord.originalMessage(first.interaction);
    const click = t.discord.dispatchComponent({
      customId: str(button(first, 'Older').custom_id),
      message: { id: message?.id ?? '0' },
      userId: USERS.viewer,
      roles: [ROLES.viewer],
    });
    const cb = await callbackOf(t, click);
    expect(cb.type).toBe(CallbackType.reply);
    expect(isEphemeral(cb.data)).toBe(true);
    expect(str(cb.data.content)).toContain('needs the **operator** tier');
  });

  it('export: true attaches hostops-audit.csv with a header and one row per match', async () => {
    const rows = await entries({ userId: USERS.pager }, PAGED);
    const answer = await audit({ user: USERS.pager, export: true });
    expect(answer.lines).toHaveLength(10);
    expect(answer.description).toContain(`\`hostops-audit.csv\` holds all ${PAGED} matches.`);
    const csv = csvOf(answer);
    expect(csv[0]).toBe(HEADER);
    expect(csv).toHaveLength(1 + PAGED);
    expect(csv.slice(1).map((line) => line.split(',')[10])).toEqual(rows.map((r) => r.correlationId));
    for (const line of csv.slice(1)) {
      const cells = line.split(',');
      expect(cells[1]).toBe(USERS.pager);
      expect(cells[5]).toBe('help');
      expect(cells[8]).toBe('ok');
      expect(new Date(cells[0] ?? '').toISOString()).toBe(cells[0]);
    }
    await idle(t);
    expect(t.api.requests).toHaveLength(0);
  });

  it('export: a name starting with = shows as text in the CSV', async () => {
    const answer = await audit({ user: USERS.formula, export: true });
    const csv = csvOf(answer);
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain(`,"'=HYPERLINK(""http://x"")",`);
    expect(csv[1]).not.toMatch(/,=/);
    // In the embed the name is shown escaped, not as a link.
    expect(answer.lines[0]).toContain('=HYPERLINK(');
  });

  it('export of nothing is the header alone', async () => {
    const answer = await audit({ user: USERS.old, export: true });
    expect(csvOf(answer)).toEqual([HEADER]);
    expect(answer.description).toContain('No audit entries match');
    expect(answer.description).toContain('`hostops-audit.csv` holds all 0 matches.');
  });

  it('export stops at 10,000 rows and says so', async () => {
    const at = Date.now() - 60_000;
    for (let n = 0; n < 10_003; n++) {
      await t.bot.store.audit.insert({
        at: new Date(at + n),
        userId: '100000000000000199',
        userName: 'bulk',
        guildId: t.discord.guildId,
        channelId: t.discord.channelId,
        command: 'domain',
        subcommand: 'info',
        target: `bulk-${n}.example`,
        outcome: 'ok',
        detail: null,
        correlationId: n.toString(16).padStart(10, '0'),
        durationMs: 1,
        parameters: null,
        changeId: null,
      });
    }
    const answer = await audit({ target: 'bulk-', export: true });
    // Counted up to 10,000: past it the answer says "more than".
    expect(answer.footer).toBe('Matches 1–10 of more than 10,000');
    expect(answer.description).toContain(
      '`hostops-audit.csv` holds the first 10,000 (the newest) of more than 10,000 matches',
    );
    const csv = csvOf(answer);
    expect(csv).toHaveLength(1 + 10_000);
    // The newest 10,000.
    expect(csv[1]?.split(',')[7]).toBe('bulk-10002.example');
    expect(csv.at(-1)?.split(',')[7]).toBe('bulk-3.example');

    // Oldest jumps to the last entries in time order, read from the oldest end, with no count.
    const targetOf = (line: string) => /(bulk-\d+)\.example/.exec(line)?.[1];
    const oldest = await page(answer, 'Oldest');
    expect(oldest.footer).toBe('The oldest matches, 1–10 counted from the oldest, of more than 10,000');
    expect(oldest.lines.map(targetOf)).toEqual(Array.from({ length: 10 }, (_, n) => `bulk-${9 - n}`));
    expect(
      ['Newest', 'Newer', 'Older', 'Oldest'].map((b) => button(oldest, b as PagingButton).disabled),
    ).toEqual([false, false, true, true]);
    const newer = await page(oldest, 'Newer');
    expect(newer.footer).toBe('The oldest matches, 11–20 counted from the oldest, of more than 10,000');
    expect(newer.lines.map(targetOf)).toEqual(Array.from({ length: 10 }, (_, n) => `bulk-${19 - n}`));
    const back = await page(newer, 'Older');
    expect(back.lines.map(targetOf)).toEqual(oldest.lines.map(targetOf));
    const newest = await page(back, 'Newest');
    expect(newest.footer).toBe('Matches 1–10 of more than 10,000');
    // The newest now: the /audit search itself (its target, `7d, target bulk-, export`, holds `bulk-`).
    expect(newest.lines[0]).toContain('`/audit` · 7d, target bulk-, export');
    expect(newest.lines.slice(1).map(targetOf)).toEqual(
      Array.from({ length: 9 }, (_, n) => `bulk-${10_002 - n}`),
    );
  }, 120_000);
});
