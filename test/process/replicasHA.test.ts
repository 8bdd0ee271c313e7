// High availability end to end: two real HostOps processes on one PostgreSQL database behind the fake
// Discord, which sends each interaction to every connected session (`all`, as Discord does for several
// sessions of one shard) or to one session in turn (`alternate`, to make a button land on the other
// replica). Every interaction is answered once; prompts and approval requests are records, so any replica
// takes their buttons; a replica killed outright leaves the others answering at once, and what it was
// sending ends `unknown` once its lease has run out — never sent again.
//
// The tests run in order on shared processes. The SIGKILL comes first, so that the 15 s lease runs out
// while the other scenarios run; the last test waits for it. A replica that was stopped is replaced
// (`ensureTwo`) before the next scenario that needs two. A replica draining after SIGTERM leaves new
// commands to the one that is not stopping.
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { LEASE_MS } from '../../src/store/Presence.js';
import type { DispatchedInteraction, InteractionOptions, RecordedRequest } from '../support/FakeDiscord.js';
import { defaultResponders } from '../support/FakeHostingApi.js';
import {
  callbackType,
  confirmIdOf,
  type Fakes,
  isEphemeral,
  type Json,
  killSpawned,
  type LogLine,
  logged,
  messageOf,
  nth,
  PROCESS_ROLES,
  type SpawnedBot,
  spawnBot,
  startFakes,
  textOf,
  until,
} from '../support/spawnBot.js';
import { createDatabase } from '../support/startPostgres.js';

const APPROVER = '900000000000000001';
const SECOND_APPROVER = '900000000000000002';
/** The license whose binding the provider never answers: the replica sending it is killed meanwhile. */
const HANGING_LICENSE = 'HANG-0000-KILL';
const READ_LABELS = new Set(['/domain info', '/server logs']);
/** Commands dispatched while a replica drains (each claim is a race: enough that it wins some). */
const DRAIN_READS = 30;

let fakes: Fakes | undefined;
let store: Store | undefined;
let databaseUrl = '';
/** Every replica started, in order; the dead ones stay (their logs are evidence). */
const bots: SpawnedBot[] = [];
/** The change the killed replica was sending, for the last test. */
let orphan: { recordId: string; killedAtMs: number; dead: SpawnedBot } | undefined;
/** First answer to each command dispatched while a replica was draining: `<callback type> <text>`. */
let drainAnswers: string[] = [];

async function spawnReplica(): Promise<SpawnedBot> {
  if (!fakes) throw new Error('the fakes did not start');
  const { discord, api } = fakes;
  const bot = await spawnBot({
    discord,
    api,
    env: {
      DATABASE_URL: databaseUrl,
      APPROVAL_REQUIRED: 'server rdns',
      // Far beyond the moment the replica is killed: the lease, not the client's timeout, ends the change.
      HOSTING_API_TIMEOUT_MS: '30000',
    },
  });
  bots.push(bot);
  return bot;
}

beforeAll(async () => {
  fakes = await startFakes({ sessions: 'all' });
  databaseUrl = await createDatabase(inject('postgresUrl'), 'replicas_ha');
  fakes.api.respond('bindPanelLicense', (request) =>
    request.query.get('license') === HANGING_LICENSE
      ? { hang: true }
      : defaultResponders.bindPanelLicense(request),
  );
  const [a, b] = await Promise.all([spawnReplica(), spawnReplica()]);
  await Promise.all([a, b].map((bot) => bot?.waitForLog(logged('gateway ready'), 20_000)));
  await until(() => fakes?.discord.liveSessionCount === 2 || undefined, 'two live gateway sessions', 10_000);
  store = await openStore(databaseUrl);
}, 120_000);
afterAll(async () => {
  await killSpawned();
  await store?.close();
  await fakes?.stop();
});

function started(): { f: Fakes; db: Store } {
  if (!fakes || !store) throw new Error('the replicas did not start');
  return { f: fakes, db: store };
}

const running = () =>
  bots.filter(
    (bot) => bot.exit === undefined && bot.child.exitCode === null && bot.child.signalCode === null,
  );

/** Two replicas with live gateway sessions: starts a replacement for one that was stopped. */
async function ensureTwo(): Promise<SpawnedBot[]> {
  const { f } = started();
  while (running().length < 2) {
    const bot = await spawnReplica();
    await bot.waitForLog(logged('gateway ready'), 20_000);
  }
  await until(() => f.discord.liveSessionCount === 2 || undefined, 'two live gateway sessions', 10_000);
  return running();
}

/** The replicas that wrote a line matching `predicate`. */
const writers = (predicate: (line: LogLine) => boolean) => bots.filter((bot) => bot.lines.some(predicate));

/** The one replica that wrote such a line (waits for it). */
function writer(msg: string, fields: Json, timeoutMs = 10_000): Promise<SpawnedBot> {
  return until(
    () => {
      const found = writers(logged(msg, fields));
      if (found.length > 1)
        throw new Error(`${found.length} replicas logged "${msg}" ${JSON.stringify(fields)}`);
      return found[0];
    },
    `one replica to log "${msg}" ${JSON.stringify(fields)}`,
    timeoutMs,
  );
}

async function claims(bot: SpawnedBot): Promise<{ won: number; lost: number }> {
  const { text } = await bot.get('/metrics');
  const read = (result: string) =>
    Number(
      new RegExp(`^hostops_interaction_claims_total\\{result="${result}"\\} (\\d+)$`, 'm').exec(text)?.[1] ??
        0,
    );
  return { won: read('won'), lost: read('lost') };
}

/** What Discord received for one interaction, in order: `callback <type>`, `edit @original`, `follow-up`. */
function shapeOf(discord: Fakes['discord'], i: DispatchedInteraction): string[] {
  return discord.requestsFor(i).map((r: RecordedRequest) => {
    if (r.path.endsWith('/callback')) return `callback ${callbackType(r) ?? '?'}`;
    if (r.path.endsWith('/messages/@original'))
      return `${r.method === 'PATCH' ? 'edit' : r.method} @original`;
    return r.method === 'POST' ? 'follow-up' : `${r.method} ${r.path}`;
  });
}

function read(kind: 'domain' | 'server', n: number): InteractionOptions {
  return kind === 'domain'
    ? {
        commandName: 'domain',
        subcommand: 'info',
        options: { domain: `ha-${n}.example.com` },
        roles: [PROCESS_ROLES.viewer],
      }
    : {
        commandName: 'server',
        subcommand: 'logs',
        options: { id: 10_000 + n },
        roles: [PROCESS_ROLES.viewer],
      };
}

/** Waits until a read has its deferral and its one edit, and no more. */
async function answered(i: DispatchedInteraction): Promise<void> {
  const { discord } = started().f;
  await nth(discord, i, 1, 15_000);
  expect(shapeOf(discord, i), `interaction ${i.id}`).toEqual(['callback 5', 'edit @original']);
}

/** Runs a change command; returns its record id and how to press its Confirm. */
async function openPrompt(command: InteractionOptions) {
  const { discord } = started().f;
  const roles = command.roles ?? [PROCESS_ROLES.operator];
  const dispatched = discord.dispatchInteraction({ ...command, roles });
  const prompt = await nth(discord, dispatched, 0, 10_000);
  expect(callbackType(prompt)).toBe(4);
  expect(isEphemeral(messageOf(prompt))).toBe(true);
  const message = discord.originalMessage(dispatched);
  if (!message) throw new Error('no prompt message');
  const confirmId = confirmIdOf(prompt);
  return {
    command: dispatched,
    recordId: confirmId.split(':')[2] ?? '',
    messageId: message.id,
    confirm: (): DispatchedInteraction =>
      discord.dispatchComponent({
        customId: confirmId,
        message: { id: message.id },
        roles,
      }),
  };
}

const rdns = (host: string): InteractionOptions => ({
  commandName: 'server',
  subcommand: 'rdns',
  options: { id: 42, ip: '203.0.113.7', hostname: host },
  roles: [PROCESS_ROLES.operator],
});

const bind = (license: string): InteractionOptions => ({
  commandName: 'panel',
  subcommand: 'bind',
  options: { license, ip: '203.0.113.9' },
  roles: [PROCESS_ROLES.operator],
});

const rdnsCalls = (host: string) =>
  started()
    .f.api.requestsFor('setReverseDns')
    .filter((r) => r.query.get('rdns') === host);
const bindCalls = (license: string) =>
  started()
    .f.api.requestsFor('bindPanelLicense')
    .filter((r) => r.query.get('license') === license);

/**
 * Confirms an /server rdns prompt (approval required) and returns the public approval request. With
 * `confirmOn` (and `alternate` delivery) the Confirm is steered to that gateway session: a read in between
 * takes the other one's turn when needed.
 */
async function requestApproval(host: string, confirmOn?: string) {
  const { discord } = started().f;
  const prompt = await openPrompt(rdns(host));
  if (confirmOn !== undefined && discord.deliveredTo(prompt.command)[0] === confirmOn) {
    await answered(discord.dispatchInteraction(read('domain', 990)));
  }
  const confirm = prompt.confirm();
  expect(callbackType(await nth(discord, confirm, 0, 10_000))).toBe(7);
  const pending = textOf(messageOf(await nth(discord, confirm, 1, 10_000)));
  expect(pending).toContain('**Approval pending**');
  const message = discord
    .channelMessages()
    .find((m) => m.embeds?.[0]?.title?.startsWith('Approval needed') && JSON.stringify(m).includes(host));
  if (!message) throw new Error(`no approval request for ${host}`);
  const approveId = `hostops:approve:${prompt.recordId}`;
  expect(JSON.stringify(message.components)).toContain(approveId);
  return {
    prompt,
    confirm,
    messageId: message.id,
    approve: (userId: string): DispatchedInteraction =>
      discord.dispatchComponent({
        customId: approveId,
        message: { id: message.id },
        userId,
        roles: [PROCESS_ROLES.operator],
      }),
  };
}

describe('replicas on one PostgreSQL database (real processes)', () => {
  it('SIGKILL of the replica sending a change: the other answers the next commands at once', async () => {
    const { f, db } = started();
    f.discord.setSessions('all');
    const prompt = await openPrompt(bind(HANGING_LICENSE));
    const confirm = prompt.confirm();
    // The provider has the request (and never answers it); the replica that sent it is killed right then.
    await until(() => bindCalls(HANGING_LICENSE).length === 1 || undefined, 'the binding to reach the API');
    const sender = await writer('change confirmed, sending', { change: prompt.recordId });
    const killedAtMs = Date.now();
    sender.kill('SIGKILL');
    orphan = { recordId: prompt.recordId, killedAtMs, dead: sender };
    const survivor = running().find((bot) => bot !== sender);
    if (!survivor) throw new Error('no other replica');
    const before = { claims: await claims(survivor), finished: survivor.lines.length };

    const reads = Array.from({ length: 10 }, (_, n) =>
      f.discord.dispatchInteraction(read('domain', 900 + n)),
    );
    const deliveries = reads.map((i) => f.discord.deliveredTo(i).length);
    await Promise.all(reads.map(answered));
    // Answered while the dead replica's change still waited for its lease to run out: no gap.
    const record = await db.changes.get(prompt.recordId);
    expect(record?.state).toBe('sending');
    expect(record?.replicaId?.startsWith(`${hostname()}:${sender.child.pid}:`), record?.replicaId ?? '').toBe(
      true,
    );
    expect(await sender.exited).toMatchObject({ signal: 'SIGKILL' });
    // All ten by the survivor, each exactly once.
    const after = await claims(survivor);
    expect(after.won - before.claims.won).toBe(10);
    // Its log line follows the answer: wait for all ten, then make sure there are no more.
    const finished = () =>
      survivor.lines
        .slice(before.finished)
        .filter(logged('command finished', { command: '/domain info', outcome: 'ok' }));
    await until(() => finished().length >= 10 || undefined, 'ten "command finished" lines', 10_000);
    expect(finished()).toHaveLength(10);
    for (const n of reads.keys()) {
      expect(
        f.api.requestsFor('domainInfo').filter((r) => r.param === `ha-${900 + n}.example.com`),
      ).toHaveLength(1);
    }
    // The Confirm was acknowledged before the provider got the request; nothing more reached Discord.
    expect(shapeOf(f.discord, confirm)).toEqual(['callback 7']);

    // A replacement keeps two replicas running for the scenarios below, while the lease runs out.
    await ensureTwo();
    const replacement = bots[bots.length - 1] as SpawnedBot;
    // Had the dead replica held the fake's latest session, the reads sent while none was latest are handed
    // to the next session that identifies: the replacement finds them claimed and drops them, unanswered.
    const replayed = reads.filter((i, k) => f.discord.deliveredTo(i).length > (deliveries[k] ?? 0));
    await until(
      () =>
        replayed.every((i) =>
          replacement.lines.some(logged('handled by another replica', { interaction: i.id })),
        ) || undefined,
      `the replacement to drop the ${replayed.length} reads replayed to it`,
      15_000,
    );
    for (const i of reads) expect(shapeOf(f.discord, i)).toEqual(['callback 5', 'edit @original']);
  }, 120_000);

  it('50 reads dispatched at once to both replicas: 50 answers, each handled by exactly one', async () => {
    const { f } = started();
    const pair = await ensureTwo();
    f.discord.setSessions('all');
    const before = await Promise.all(pair.map(claims));
    const marks = pair.map((bot) => bot.lines.length);

    const reads = Array.from({ length: 50 }, (_, n) =>
      f.discord.dispatchInteraction(read(n % 2 === 0 ? 'domain' : 'server', n)),
    );
    for (const i of reads) expect(new Set(f.discord.deliveredTo(i)).size).toBe(2);
    await Promise.all(reads.map(answered));

    // The losing replica of each interaction dropped it, without a word to Discord.
    const dropped = (i: DispatchedInteraction) =>
      pair.reduce(
        (sum, bot) =>
          sum + bot.lines.filter(logged('handled by another replica', { interaction: i.id })).length,
        0,
      );
    await until(
      () => reads.every((i) => dropped(i) >= 1) || undefined,
      'every interaction to be dropped once',
      15_000,
    );
    expect(reads.map(dropped)).toEqual(reads.map(() => 1));
    // The winners' ends: one "command finished" per interaction across both logs.
    const finishedLines = () =>
      pair.flatMap((bot, k) =>
        bot.lines
          .slice(marks[k])
          .filter(
            (line) => line.json.msg === 'command finished' && READ_LABELS.has(String(line.json.command)),
          ),
      );
    await until(() => finishedLines().length >= 50 || undefined, '50 "command finished" lines', 15_000);
    const finished = finishedLines();
    expect(finished).toHaveLength(50);
    expect(new Set(finished.map((line) => line.json.cid)).size).toBe(50);
    expect(finished.every((line) => line.json.outcome === 'ok')).toBe(true);
    // Nothing came late: still exactly one deferral and one edit each, one API call each.
    for (const i of reads) expect(shapeOf(f.discord, i)).toEqual(['callback 5', 'edit @original']);
    for (let n = 0; n < 50; n++) {
      const calls =
        n % 2 === 0
          ? f.api.requestsFor('domainInfo').filter((r) => r.param === `ha-${n}.example.com`)
          : f.api.requestsFor('serverLog').filter((r) => r.param === String(10_000 + n));
      expect(calls, `read #${n}`).toHaveLength(1);
    }
    // The claim metrics agree: 50 won and 50 lost between the two.
    const after = await Promise.all(pair.map(claims));
    const delta = (key: 'won' | 'lost') =>
      after.reduce((sum, c, k) => sum + c[key] - (before[k]?.[key] ?? 0), 0);
    expect({ won: delta('won'), lost: delta('lost') }).toEqual({ won: 50, lost: 50 });
  }, 120_000);

  it('Confirm on a prompt the other replica created sends once and the prompt shows the outcome', async () => {
    const { f, db } = started();
    await ensureTwo();
    f.discord.setSessions('alternate');
    const license = 'CROS-5678-ABCD';
    const prompt = await openPrompt(bind(license));
    const creator = await writer('change prompted', { change: prompt.recordId });
    const press = prompt.confirm();
    expect(f.discord.deliveredTo(press)).toHaveLength(1);
    expect(f.discord.deliveredTo(press)).not.toEqual(f.discord.deliveredTo(prompt.command));

    expect(callbackType(await nth(f.discord, press, 0, 10_000))).toBe(7);
    expect(textOf(messageOf(await nth(f.discord, press, 1, 10_000)))).toContain('License bound');
    expect(textOf(messageOf(await nth(f.discord, press, 2, 10_000)))).toContain('bound panel license');
    const sender = await writer('change confirmed, sending', { change: prompt.recordId });
    expect(sender).not.toBe(creator);
    expect(bindCalls(license)).toHaveLength(1);
    expect((await db.changes.get(prompt.recordId))?.state).toBe('done');
    const shown = f.discord.getMessage(prompt.messageId);
    expect(shown?.embeds?.[0]?.title).toBe('License bound');
    expect(shown?.components ?? []).toEqual([]);
    expect(shapeOf(f.discord, press)).toEqual(['callback 7', 'edit @original', 'follow-up']);
  }, 120_000);

  it('a /domain dns form opened by one replica is submitted on the other: every submit gets its prompt', async () => {
    const { f } = started();
    await ensureTwo();
    f.discord.setSessions('alternate');
    for (let n = 0; n < 4; n++) {
      const command = f.discord.dispatchInteraction({
        commandName: 'domain',
        subcommand: 'dns',
        options: { domain: `form-${n}.example` },
        roles: [PROCESS_ROLES.operator],
      });
      const modal = await nth(f.discord, command, 0, 10_000);
      expect(callbackType(modal)).toBe(9);
      const customId = String((modal.body as { data: { custom_id: string } }).data.custom_id);
      const submit = f.discord.dispatchModalSubmit({
        customId,
        fields: { records: `www 3600 A 203.0.113.${n + 1}` },
        roles: [PROCESS_ROLES.operator],
      });
      expect(f.discord.deliveredTo(submit)).toHaveLength(1);
      expect(f.discord.deliveredTo(submit)).not.toEqual(f.discord.deliveredTo(command));
      // On PostgreSQL the look-up of the earlier set is I/O: acknowledged first, the prompt is the edit.
      const first = await nth(f.discord, submit, 0, 10_000);
      const prompt = callbackType(first) === 5 ? await nth(f.discord, submit, 1, 10_000) : first;
      const text = textOf(messageOf(prompt));
      expect(text).not.toContain('no longer open');
      expect(text).toContain(`203.0.113.${n + 1}`);
      // A second submit of the same form (a replayed interaction) finds it gone.
      const again = f.discord.dispatchModalSubmit({
        customId,
        fields: { records: 'www 3600 A 198.51.100.1' },
        roles: [PROCESS_ROLES.operator],
      });
      expect(textOf(messageOf(await nth(f.discord, again, 0, 10_000)))).toMatch(
        /form .*closed|no longer open/i,
      );
    }
  }, 120_000);

  it('approval: the requester cannot approve; two approvers on different replicas at once send once', async () => {
    const { f, db } = started();
    await ensureTwo();
    f.discord.setSessions('alternate');
    const host = 'approve-race.example.com';
    const request = await requestApproval(host);
    expect(rdnsCalls(host)).toHaveLength(0);
    expect((await db.changes.get(request.prompt.recordId))?.state).toBe('awaiting_approval');

    const self = request.approve(f.discord.userId);
    const refusal = await nth(f.discord, self, 0, 10_000);
    expect(callbackType(refusal)).toBe(4);
    expect(isEphemeral(messageOf(refusal))).toBe(true);
    expect(textOf(messageOf(refusal))).toBe(
      'You asked for this change: someone else has to approve it. Nothing was sent.',
    );
    expect(rdnsCalls(host)).toHaveLength(0);

    const pair = running();
    const before = await Promise.all(pair.map(claims));
    const clicks = [request.approve(APPROVER), request.approve(SECOND_APPROVER)];
    const sessions = clicks.map((click) => f.discord.deliveredTo(click));
    expect(sessions.map((s) => s.length)).toEqual([1, 1]);
    expect(sessions[0]?.[0]).not.toBe(sessions[1]?.[0]);
    const first = await Promise.all(clicks.map((click) => nth(f.discord, click, 0, 10_000)));
    expect(first.map((c) => callbackType(c)).sort()).toEqual([4, 7]);
    const loser = first.find((c) => callbackType(c) === 4);
    if (!loser) throw new Error('no refusal');
    expect(isEphemeral(messageOf(loser))).toBe(true);
    expect(textOf(messageOf(loser))).toBe('This change was already approved.');

    await until(
      async () => ((await db.changes.get(request.prompt.recordId))?.state === 'done' ? true : undefined),
      'the change to be done',
      10_000,
    );
    await until(
      () =>
        textOf(f.discord.getMessage(request.messageId) as unknown as Json).includes('**Done**') || undefined,
      'the approval request to show the outcome',
      10_000,
    );
    expect(rdnsCalls(host)).toHaveLength(1);
    // The winner updated the request, edited it to the outcome and sent the private and public follow-ups.
    const winner = clicks[first.findIndex((c) => callbackType(c) === 7)] as DispatchedInteraction;
    await nth(f.discord, winner, 3, 10_000);
    expect(shapeOf(f.discord, winner)).toEqual(['callback 7', 'edit @original', 'follow-up', 'follow-up']);
    expect(shapeOf(f.discord, clicks.find((c) => c !== winner) as DispatchedInteraction)).toEqual([
      'callback 4',
    ]);
    expect(shapeOf(f.discord, self)).toEqual(['callback 4']);
    // Each replica took one of the two clicks; one of them approved and sent.
    const after = await Promise.all(pair.map(claims));
    expect(after.map((c, k) => c.won - (before[k]?.won ?? 0))).toEqual([1, 1]);
    expect(writers(logged('change approved', { change: request.prompt.recordId }))).toHaveLength(1);
    const record = await db.changes.get(request.prompt.recordId);
    expect(record?.approval).toMatchObject({
      approvedById: expect.stringMatching(/^90000000000000000[12]$/),
    });
  }, 120_000);

  it('SIGTERM of the replica that posted an approval request: it drains, then Approve on the other sends once', async () => {
    const { f, db } = started();
    await ensureTwo();
    // The replica to stop is the one the fake sends each interaction to first when it sends to all: in
    // the claim race it then wins its share, which is what the defect pinned below needs to show.
    f.discord.setSessions('all');
    const probe = f.discord.dispatchInteraction(read('domain', 980));
    await answered(probe);
    const [firstSession] = f.discord.deliveredTo(probe);
    f.discord.setSessions('alternate');
    const host = 'approve-restart.example.com';
    const request = await requestApproval(host, firstSession);
    const poster = await writer('approval requested', { change: request.prompt.recordId });
    const posterSession = f.discord.deliveredTo(request.confirm);
    expect(posterSession).toEqual([firstSession]);

    // One slow read in flight on each replica (alternate: one each) keeps the poster draining a while.
    f.api.respond('domainInfo', async (r) => ({
      ...(await defaultResponders.domainInfo(r)),
      ...(r.param?.startsWith('slow-') ? { delayMs: 6_000 } : {}),
    }));
    const slow = [1, 2].map((n) =>
      f.discord.dispatchInteraction({ ...read('domain', 0), options: { domain: `slow-${n}.example.com` } }),
    );
    expect(new Set(slow.flatMap((i) => f.discord.deliveredTo(i))).size).toBe(2);
    await until(
      () =>
        f.api.requestsFor('domainInfo').filter((r) => r.param?.startsWith('slow-')).length === 2 || undefined,
      'both slow reads to reach the API',
    );
    poster.kill('SIGTERM');
    try {
      await poster.waitForLog(logged('shutting down'), 5_000);
      // While it drains, both replicas still receive every new command; each is answered exactly once.
      f.discord.setSessions('all');
      const reads = Array.from({ length: DRAIN_READS }, (_, n) =>
        f.discord.dispatchInteraction(read('domain', 700 + n)),
      );
      for (const i of reads) expect(f.discord.deliveredTo(i)).toHaveLength(2);
      for (const i of reads) expect(f.discord.deliveredTo(i)[0]).toBe(firstSession);
      const first = await Promise.all(reads.map((i) => nth(f.discord, i, 0, 10_000)));
      drainAnswers = first.map((c) => `${callbackType(c)} ${textOf(messageOf(c))}`.trim());
      for (const i of reads)
        expect(f.discord.requestsFor(i).filter((r) => r.path.endsWith('/callback'))).toHaveLength(1);
    } finally {
      f.api.respond('domainInfo', defaultResponders.domainInfo);
    }
    expect((await poster.exitWithin(20_000)).code, poster.output.slice(-2_000)).toBe(0);
    // It finished its slow read before it stopped; so did the other one.
    expect(poster.lines.some(logged('stopped', { drained: true }))).toBe(true);
    await Promise.all(slow.map(answered));
    await until(() => f.discord.liveSessionCount === 1 || undefined, 'one live gateway session', 10_000);
    const other = running();
    expect(other).toHaveLength(1);
    expect(other[0]).not.toBe(poster);

    // The request outlived the replica that posted it: Approve goes to the other one, which sends once.
    const click = request.approve(APPROVER);
    expect(f.discord.deliveredTo(click)).toHaveLength(1);
    expect(f.discord.deliveredTo(click)).not.toEqual(posterSession);
    expect(callbackType(await nth(f.discord, click, 0, 10_000))).toBe(7);
    await until(
      async () => ((await db.changes.get(request.prompt.recordId))?.state === 'done' ? true : undefined),
      'the change to be done',
      10_000,
    );
    await until(
      () =>
        textOf(f.discord.getMessage(request.messageId) as unknown as Json).includes('**Done**') || undefined,
      'the approval request to show the outcome',
      10_000,
    );
    expect(rdnsCalls(host)).toHaveLength(1);
    expect(await writer('change approved', { change: request.prompt.recordId })).toBe(other[0]);
    await nth(f.discord, click, 3, 10_000);
    expect(shapeOf(f.discord, click)).toEqual(['callback 7', 'edit @original', 'follow-up', 'follow-up']);
  }, 120_000);

  // In a rolling restart nothing is refused: the draining replica leaves new commands to the live one.
  it('… and while it drained, no command was turned away with "restarting" (another replica was up)', () => {
    expect(drainAnswers).toHaveLength(DRAIN_READS);
    expect(drainAnswers.filter((answer) => answer.includes('restarting'))).toEqual([]);
  });

  it('the change the killed replica was sending ends unknown once its lease ran out, sent only once', async () => {
    const { db } = started();
    if (!orphan) throw new Error('the SIGKILL scenario did not run');
    const { recordId, killedAtMs, dead } = orphan;
    // Lease (15 s) + sweep interval (10 s) + margin, counted from the kill.
    const budget = Math.max(5_000, killedAtMs + LEASE_MS + 10_000 + 15_000 - Date.now());
    const record = await until(
      async () => {
        const r = await db.changes.get(recordId);
        return r?.state === 'sending' ? undefined : r;
      },
      'the orphaned change to leave `sending`',
      budget,
      250,
    );
    expect(record.state).toBe('unknown');
    expect(record.result).toEqual({ reason: 'the replica sending it stopped' });
    // Not before the lease ran out: the dead replica's last heartbeat + LEASE_MS.
    const beats = await db.replicas.live(new Date(0));
    const last = beats.find((beat) => beat.replicaId === record.replicaId);
    if (!last) throw new Error(`no heartbeat row for ${record.replicaId}`);
    expect(last.pid).toBe(dead.child.pid);
    expect(record.updatedAt.getTime()).toBeGreaterThanOrEqual(last.heartbeatAt.getTime() + LEASE_MS);
    expect(record.updatedAt.getTime()).toBeGreaterThan(killedAtMs);

    // Recorded once, by one replica, in the audit trail.
    await until(
      async () => {
        const { rows } = await db.audit.query({ outcome: 'unknown' }, { limit: 100, offset: 0 });
        return rows.some((row) => row.changeId === recordId) || undefined;
      },
      'the audit entry',
      5_000,
    );
    const { rows } = await db.audit.query({ outcome: 'unknown' }, { limit: 100, offset: 0 });
    const entries = rows.filter((row) => row.changeId === recordId);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ command: 'panel', subcommand: 'bind', detail: 'replica stopped' });
    expect(
      writers(logged('the replica sending this change stopped; outcome unknown', { change: recordId })),
    ).toHaveLength(1);
    expect(dead.lines.some(logged('the replica sending this change stopped; outcome unknown'))).toBe(false);
    // Never sent again.
    expect(bindCalls(HANGING_LICENSE)).toHaveLength(1);
    // The prompt still says "Sending…" (only the dead replica held its token): the channel is told
    // instead, once, naming the requester and the reference.
    const { discord } = started().f;
    const told = await until(
      () => {
        const found = discord
          .channelMessages()
          .filter((m) => m.content.includes('**outcome unknown** for `/panel bind`'));
        return found.length > 0 ? found : undefined;
      },
      'the channel told of the unknown outcome',
      5_000,
    );
    expect(told).toHaveLength(1);
    expect(told[0]?.content).toMatch(
      /^⚠️ <@\d+>: \*\*outcome unknown\*\* for `\/panel bind` .* Reference: `[^`]+`\.$/,
    );
    expect(told[0]?.content).not.toContain(HANGING_LICENSE);
  }, 120_000);
});
