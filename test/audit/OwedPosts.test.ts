// An owed post Discord keeps refusing, on the shipped path (OwedPosts → channelPosts → botMessages →
// discord.js → FakeDiscord) and a real store of each engine: each take is one attempt, retried by the next
// take; past POST_ATTEMPTS takes it is given up — logged as an error, counted, no longer owed — and one
// that Discord accepts is posted with the nonce of its row and kind, then no longer owed.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelPosts } from '../../src/audit/channelPosts.js';
import { OwedPosts, POST_ATTEMPTS, postNonce } from '../../src/audit/OwedPosts.js';
import { botMessages } from '../../src/discord/botMessages.js';
import { createDiscordClient } from '../../src/discord/createDiscordClient.js';
import { translator } from '../../src/i18n/Translator.js';
import { openStore, type PostKind, type Store } from '../../src/store/index.js';
import { captureLogs } from '../support/captureLogs.js';
import { FakeDiscord } from '../support/FakeDiscord.js';
import { newChange, rawDatabase, STORE_ENGINES } from '../support/storeEngines.js';

const AUDIT = '500000000000000047';

describe.each(STORE_ENGINES)('$engine: OwedPosts', ({ freshUrl }) => {
  let discord: FakeDiscord;
  let client: ReturnType<typeof createDiscordClient>;
  let store: Store;
  let url: string;
  beforeAll(async () => {
    discord = await FakeDiscord.start();
    discord.addChannel({ id: AUDIT });
    client = createDiscordClient({ apiUrl: discord.apiUrl });
    client.rest.setToken(discord.token);
    url = await freshUrl('owed-posts-flow');
    store = await openStore(url);
  });
  afterAll(async () => {
    await client?.destroy();
    await store?.close();
    await discord?.stop();
  });

  /** A change ended with its line owed and already due. */
  async function owedLine(): Promise<{ id: string; cid: string }> {
    const change = newChange({ expiresAt: new Date(Date.now() + 60_000) });
    await store.changes.insert(change);
    await store.changes.transition(change.id, 'pending', 'sending', { replicaId: 'r1' });
    const entry = {
      at: new Date(),
      userId: '100000000000000001',
      userName: 'alice',
      guildId: null,
      channelId: null,
      command: 'domain',
      subcommand: 'dns',
      target: 'example.com',
      outcome: 'done',
      detail: null,
      correlationId: `cid-${change.id}`,
      durationMs: 1,
      parameters: null,
      changeId: change.id,
    };
    const owes = { kinds: ['line'] as const, from: new Date(0) };
    await store.changes.transition(change.id, 'sending', 'done', {}, { audit: { entry, owes } });
    return { id: change.id, cid: entry.correlationId };
  }
  /** As if the lease of every take had run out. */
  async function leasesRunOut(): Promise<number> {
    const raw = await rawDatabase(url);
    try {
      await sql`update owed_posts set due_at = 0`.execute(raw);
      const { rows } = await sql<{ n: number | string }>`select count(*) as n from owed_posts`.execute(raw);
      return Number(rows[0]?.n);
    } finally {
      await raw.destroy();
    }
  }

  it('refused at every take: given up after POST_ATTEMPTS, as an error, counted, no longer owed', async () => {
    const logs = captureLogs();
    const abandoned: PostKind[] = [];
    const owed = new OwedPosts(
      store,
      logs.logger,
      channelPosts(botMessages(client), AUDIT, translator('en')),
      (kind) => abandoned.push(kind),
    );
    const { cid } = await owedLine();
    discord.faultChannelPosts(AUDIT, { status: 500 });
    for (let take = 1; take <= POST_ATTEMPTS; take++) {
      expect(await leasesRunOut(), `owed before take ${take}`).toBe(1);
      await owed.due();
    }
    expect(await leasesRunOut()).toBe(0);
    const mine = logs.entries().filter((e) => e.cid === cid);
    expect(mine.map((e) => [e.level, e.msg, e.attempt])).toEqual([
      ...Array.from({ length: POST_ATTEMPTS - 1 }, (_, n) => [
        40,
        'could not post to Discord; retried after the lease',
        n + 1,
      ]),
      [50, 'gave up posting to Discord after every attempt', POST_ATTEMPTS],
    ]);
    expect(abandoned).toEqual(['line']);
    expect(discord.channelMessages(AUDIT)).toEqual([]);
    discord.faultChannelPosts(AUDIT);
  }, 120_000);

  it('accepted: posted once, with its nonce and enforce_nonce, and no longer owed', async () => {
    const logs = captureLogs();
    const owed = new OwedPosts(
      store,
      logs.logger,
      channelPosts(botMessages(client), AUDIT, translator('en')),
    );
    const { id, cid } = await owedLine();
    await owed.due();
    expect(await leasesRunOut()).toBe(0);
    const rows = (await store.audit.query({}, { limit: 50, offset: 0 })).rows.filter(
      (r) => r.changeId === id,
    );
    const post = discord.requests.find(
      (r) => r.path === `/channels/${AUDIT}/messages` && JSON.stringify(r.body).includes(cid),
    );
    expect(post?.body).toMatchObject({ nonce: postNonce('line', rows[0]?.id ?? 0), enforce_nonce: true });
    expect(discord.channelMessages(AUDIT).filter((m) => m.content.includes(cid))).toHaveLength(1);
  });
});
