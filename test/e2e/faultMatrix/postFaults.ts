// The Discord column of issue 43's fault matrix, on one engine: what a change's end owes Discord — its
// audit-channel line, and for a change the sweep ended the notice in its channel (naming the requester)
// — arrives exactly once whatever happens between the owing replica's take and Discord accepting the
// post. Three runs of the built bundle on one database, one after the other (SQLite allows no other):
// A's audit posts are held by Discord (one never created; one created and its answer held) and A is
// killed with a change at the provider; B's sweep ends that change and is killed while Discord holds its
// notice; C ends the rest, and its own audit posts meet a 500 and a dropped connection. Each line and the
// notice is counted in Discord; each row is this run's table in docs/reliability.md.
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LEASE_MS, openStore, type Store } from '../../../src/store/index.js';
import type { ChannelPostFault } from '../../support/FakeDiscord.js';
import { defaultResponders } from '../../support/FakeHostingApi.js';
import { type Fakes, logged, type SpawnedBot, spawnBot, startFakes, until } from '../../support/spawnBot.js';
import { rawDatabase } from '../../support/storeEngines.js';
import { SWEEP_MS, TERMINAL } from './killChecks.js';
import { prompt } from './killPrompts.js';
import { expectReliabilityTable } from './reliabilityDoc.js';

const AUDIT_CHANNEL = '500000000000000046';
/** Within the lease and one sweep of its cause (twice that on a loaded machine). */
const WITHIN = 2 * (LEASE_MS + SWEEP_MS);

export function postFaultsSuite(engine: 'sqlite' | 'postgres', freshUrl: () => Promise<string>): void {
  let fakes: Fakes;
  let url: string;
  let store: Store | undefined;
  const running: SpawnedBot[] = [];

  beforeAll(async () => {
    fakes = await startFakes();
    fakes.discord.addChannel({ id: AUDIT_CHANNEL });
    url = await freshUrl();
  }, 30_000);
  afterAll(async () => {
    for (const bot of running) if (bot.exit === undefined) bot.kill('SIGKILL');
    await store?.close();
    await fakes?.stop();
  });

  const spawn = async (): Promise<SpawnedBot> => {
    const bot = await spawnBot({
      discord: fakes.discord,
      api: fakes.api,
      env: { DATABASE_URL: url, AUDIT_CHANNEL_ID: AUDIT_CHANNEL, HOSTING_API_TIMEOUT_MS: '60000' },
    });
    running.push(bot);
    await bot.waitForLog(logged('gateway ready'), 20_000);
    return bot;
  };
  const kill = async (bot: SpawnedBot) => {
    bot.kill('SIGKILL');
    await bot.exitWithin(5_000);
  };
  const faultAudit = (fault?: ChannelPostFault) => fakes.discord.faultChannelPosts(AUDIT_CHANNEL, fault);
  const posted = (channel: string, cid: string) =>
    fakes.discord.requests.filter(
      (r) =>
        r.method === 'POST' &&
        r.path === `/channels/${channel}/messages` &&
        JSON.stringify(r.body).includes(cid),
    ).length;

  it.concurrent(`Discord faults (${engine}): every audit line and sweep notice arrives once`, async () => {
    const domain = (name: string) => `post-${name}.${engine}.example`;
    fakes.api.respond('submitDnsRecords', (request) =>
      request.query.get('domain') === domain('orphan')
        ? { hang: true }
        : defaultResponders.submitDnsRecords(request),
    );
    const a = await spawn();
    store = await openStore(url);
    const db = store;
    const cidOf = async (id: string) => (await db.changes.get(id))?.correlationId ?? '';
    const ended = (id: string) =>
      until(
        async () => {
          const state = (await db.changes.get(id))?.state;
          return state && TERMINAL.has(state) ? state : undefined;
        },
        `the change ${id} to end`,
        WITHIN,
        100,
      );
    const lines = async (id: string) => {
      const cid = await cidOf(id);
      return fakes.discord.channelMessages(AUDIT_CHANNEL).filter((m) => m.content.includes(cid)).length;
    };
    const done = async (name: string) => {
      const change = await prompt(fakes.discord, domain(name));
      change.confirm();
      expect(await ended(change.id)).toBe('done');
      return change.id;
    };

    // A: Discord creates the line of `accepted` and holds its answer; A is killed with a change at the
    // provider (one held post at a time: the client sends a channel's posts one after another).
    faultAudit('hold-created');
    const accepted = await done('accepted');
    await until(async () => ((await lines(accepted)) === 1 ? true : undefined), 'the created line', 10_000);
    const orphan = await prompt(fakes.discord, domain('orphan'));
    orphan.confirm();
    const sent = () =>
      fakes.api.requestsFor('submitDnsRecords').filter((r) => r.query.get('domain') === domain('orphan'));
    await until(() => (sent().length === 1 ? true : undefined), 'the request at the provider', 10_000);
    await kill(a);

    // B: Discord holds every post, creating none. The line of `held` is taken at its settle and held;
    // B's sweep retakes A's line once due, and ends the orphan, owing its line and its notice: B is
    // killed while Discord holds the notice.
    faultAudit('hold');
    fakes.discord.faultChannelPosts(fakes.discord.channelId, 'hold');
    const b = await spawn();
    const held = await done('held');
    const heldCid = await cidOf(held);
    await until(() => (posted(AUDIT_CHANNEL, heldCid) > 0 ? true : undefined), 'the held post', 10_000);
    const orphanEnd = await ended(orphan.id);
    const orphanCid = await cidOf(orphan.id);
    await until(
      () => (posted(fakes.discord.channelId, orphanCid) > 0 ? true : undefined),
      'the notice',
      WITHIN,
    );
    await kill(b);
    const atKill = {
      held: await lines(held),
      accepted: await lines(accepted),
      orphan: await lines(orphan.id),
      notice: notices(orphanCid),
    };
    faultAudit();
    fakes.discord.faultChannelPosts(fakes.discord.channelId);

    // C: its sweep posts what B held; its own audit posts meet a 500, then a dropped connection.
    const c = await spawn();
    const failedPost = (cid: string) => (line: { json: Record<string, unknown> }) =>
      line.json.msg === 'could not post to Discord; retried after the lease' && line.json.cid === cid;
    faultAudit({ status: 500 });
    const refused = await done('refused');
    await c.waitForLog(failedPost(await cidOf(refused)), 20_000);
    faultAudit('drop');
    const dropped = await done('dropped');
    await c.waitForLog(failedPost(await cidOf(dropped)), 20_000);
    const atFault = { refused: await lines(refused), dropped: await lines(dropped) };
    faultAudit();
    await until(
      async () => {
        const all = [held, accepted, orphan.id, refused, dropped];
        const counted = await Promise.all(all.map(lines));
        return counted.every((n) => n > 0) && notices(orphanCid) > 0 ? true : undefined;
      },
      'every line and the notice',
      WITHIN,
      200,
    );
    // Nothing is owed any more, so nothing more can come: each is in Discord exactly once.
    const raw = await rawDatabase(url);
    try {
      await until(
        async () => {
          const { rows } = await sql<{ n: number | string }>`select count(*) as n from owed_posts`.execute(
            raw,
          );
          return Number(rows[0]?.n) === 0 ? true : undefined;
        },
        'nothing owed',
        WITHIN,
        200,
      );
    } finally {
      await raw.destroy();
    }
    const reposted = posted(AUDIT_CHANNEL, await cidOf(accepted));
    expect(reposted, 'the accepted line was posted again by a later run').toBeGreaterThanOrEqual(2);
    const counts = {
      held: await lines(held),
      accepted: await lines(accepted),
      orphan: await lines(orphan.id),
      notice: notices(orphanCid),
      refused: await lines(refused),
      dropped: await lines(dropped),
    };
    expect(counts).toEqual({ held: 1, accepted: 1, orphan: 1, notice: 1, refused: 1, dropped: 1 });
    expect({ atKill, atFault, orphanEnd }).toEqual({
      atKill: { held: 0, accepted: 1, orphan: 0, notice: 0 },
      atFault: { refused: 0, dropped: 0 },
      orphanEnd: 'unknown',
    });
    await kill(c);
    expectReliabilityTable(
      `discord-${engine}`,
      [
        `| Discord fault at the post (${engine}) | ended as | in Discord at the fault | in Discord once nothing is owed |`,
        '| --- | --- | --- | --- |',
        `| audit line: SIGKILL after Discord created it, its answer held | \`done\` | ${atKill.accepted} | ${counts.accepted} line (posted again by a later run: Discord returned it for the same nonce) |`,
        `| audit line: SIGKILL after its take, Discord holding the post (not created) | \`done\` | ${atKill.held} | ${counts.held} line, by the next run's sweep |`,
        `| sweep's notice of a change it ended: SIGKILL right after the settle, Discord holding it | \`${orphanEnd}\` | ${atKill.notice} notice, ${atKill.orphan} line | ${counts.notice} notice and ${counts.orphan} line, by the next run's sweep |`,
        `| audit line: Discord answers 500 | \`done\` | ${atFault.refused} | ${counts.refused} line, by its own replica's sweep |`,
        `| audit line: Discord unreachable (connection dropped) | \`done\` | ${atFault.dropped} | ${counts.dropped} line, by its own replica's sweep |`,
      ].join('\n'),
    );
  }, 240_000);

  const notices = (cid: string) =>
    fakes.discord
      .channelMessages()
      .filter((m) => m.content.includes(cid) && /outcome unknown/.test(m.content)).length;
}
