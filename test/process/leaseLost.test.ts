// A replica that stalls while sending (SIGSTOP: a frozen VM, a long pause) loses its lease: the other
// replica records the change `unknown`, audits it and tells the channel. When the stalled replica wakes up
// with the provider's answer, its finishing write is refused (it no longer holds the lease), so the record,
// the audit trail and the channel show one outcome; only the generated password, which nobody else has,
// still reaches the requester, privately.
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { defaultResponders } from '../support/FakeHostingApi.js';
import {
  confirmChange,
  type Fakes,
  isEphemeral,
  killSpawned,
  logged,
  messageOf,
  type SpawnedBot,
  spawnBot,
  startFakes,
  textOf,
  until,
} from '../support/spawnBot.js';
import { createDatabase } from '../support/startPostgres.js';

let fakes: Fakes;
let store: Store;
let replicas: SpawnedBot[] = [];

beforeAll(async () => {
  fakes = await startFakes({ sessions: 'all' });
  const databaseUrl = await createDatabase(inject('postgresUrl'), 'lease_lost');
  // The provider answers after a second: by then the sending replica is stopped, and the answer waits
  // in its socket until it wakes up.
  fakes.api.respond('createMusicBotUser', async (request) => ({
    ...(await defaultResponders.createMusicBotUser(request)),
    delayMs: 1_000,
  }));
  replicas = await Promise.all(
    [0, 1].map(() =>
      spawnBot({
        discord: fakes.discord,
        api: fakes.api,
        env: { DATABASE_URL: databaseUrl, HOSTING_API_TIMEOUT_MS: '120000' },
      }),
    ),
  );
  await Promise.all(replicas.map((bot) => bot.waitForLog(logged('gateway ready'), 20_000)));
  await until(() => fakes.discord.liveSessionCount === 2 || undefined, 'two live gateway sessions');
  store = await openStore(databaseUrl);
}, 120_000);

afterAll(async () => {
  for (const bot of replicas) if (bot.exit === undefined) bot.kill('SIGCONT');
  await killSpawned();
  await store?.close();
  await fakes?.stop();
});

it('a stalled sender loses its lease: one outcome (unknown) in the record, the audit trail and the channel', async () => {
  const { command, click } = await confirmChange(fakes.discord, {
    commandName: 'musicbot',
    subcommand: 'create',
    options: { username: 'djstall', email: 'dj@example.com', storage: '512MB', bots: 1 },
  });
  const sent = await until(
    () => fakes.api.requests.find((r) => r.operation === 'createMusicBotUser'),
    'the musicbot request at the API',
  );
  const sender = await until(
    () => replicas.find((bot) => bot.lines.some(logged('change confirmed, sending'))),
    'the replica that sends',
  );
  sender.kill('SIGSTOP');
  const other = replicas.find((bot) => bot !== sender);
  if (!other) throw new Error('no second replica');

  // The other replica finds the lease gone (15 s by the store's clock, then its next sweep).
  await other.waitForLog(logged('the replica sending this change stopped; outcome unknown'), 45_000);
  const [record] = await store.changes.listByState(['unknown']);
  expect(record?.command).toBe('/musicbot create');

  sender.kill('SIGCONT');
  const woke = await sender.waitForLog(
    (line) =>
      logged('lease lost while sending: another replica recorded the outcome as unknown')(line) ||
      logged('change applied')(line),
  );
  await until(() => fakes.discord.requestsFor(click).length >= 2 || undefined, 'the prompt told');

  // The record keeps the outcome the channel was told.
  const after = record ? await store.changes.get(record.id) : undefined;
  expect(after?.state).toBe('unknown');
  // One audit row for the change, `unknown`; never also `done`.
  const audit = await store.audit.query(
    { command: 'musicbot', subcommand: 'create' },
    { limit: 10, offset: 0 },
  );
  expect(audit.rows.map((row) => row.outcome)).toEqual(['unknown']);
  // The channel was told once, by the replica that took over; no public "created" record follows.
  const channel = fakes.discord.channelMessages().map((m) => m.content ?? '');
  expect(channel.filter((text) => text.includes('djstall') || text.includes('unknown'))).toHaveLength(1);
  const interactionRequests = [...fakes.discord.requestsFor(command), ...fakes.discord.requestsFor(click)];
  const publicOnes = interactionRequests.filter(
    (r) => r.method === 'POST' && r.path.startsWith('/webhooks/') && !isEphemeral(messageOf(r)),
  );
  expect(publicOnes).toEqual([]);
  expect(woke.json.msg).toBe('lease lost while sending: another replica recorded the outcome as unknown');
  // The prompt says what happened; the password reaches the requester only, privately.
  const password = sent.query.get('password') ?? '';
  expect(password.length).toBeGreaterThan(8);
  const prompt = await until(
    () =>
      fakes.discord
        .requestsFor(click)
        .find(
          (r) =>
            r.method === 'PATCH' && textOf(messageOf(r)).includes('another replica took the change over'),
        ),
    'the prompt edited with the lost lease',
  );
  expect(textOf(messageOf(prompt))).toContain('Outcome unknown');
  const carrying = fakes.discord.requests.filter((r) => JSON.stringify(r.body ?? '').includes(password));
  expect(carrying.length).toBe(1);
  expect(carrying.every((r) => isEphemeral(messageOf(r)))).toBe(true);
}, 120_000);
