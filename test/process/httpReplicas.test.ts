// Two HostOps processes in INTERACTIONS_MODE=http on one PostgreSQL database, behind the fake Discord acting
// as a round-robin load balancer (it tries the next replica when one refuses the connection): a prompt opened
// through one is confirmed through the other, an interaction delivered to both is answered once, and a
// replica that gets SIGTERM turns unready first, stops accepting, and finishes what it has in flight.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import type { DispatchedInteraction } from '../support/FakeDiscord.js';
import {
  callbackType,
  confirmIdOf,
  type Fakes,
  killSpawned,
  logged,
  messageOf,
  nth,
  PROCESS_ROLES,
  responseOf,
  type SpawnedBot,
  spawnBot,
  startFakes,
  textOf,
  until,
} from '../support/spawnBot.js';
import { createDatabase } from '../support/startPostgres.js';

let f: Fakes;
let store: Store;
let a: SpawnedBot;
let b: SpawnedBot;

beforeAll(async () => {
  f = await startFakes();
  const url = await createDatabase(inject('postgresUrl'), 'http_replicas');
  [a, b] = (await Promise.all(
    [1, 2].map(() =>
      spawnBot({
        discord: f.discord,
        api: f.api,
        env: { INTERACTIONS_MODE: 'http', DATABASE_URL: url, INTERACTIONS_UNREADY_MS: '1500' },
      }),
    ),
  )) as [SpawnedBot, SpawnedBot];
  await Promise.all([a, b].map((bot) => bot.waitForLog(logged('interactions endpoint listening'), 15_000)));
  f.discord.deliverOverHttp([a.interactionsUrl, b.interactionsUrl]);
  store = await openStore(url);
}, 120_000);
afterAll(async () => {
  await killSpawned();
  await store?.close();
  await f?.stop();
});

const read = (domain: string) =>
  f.discord.dispatchInteraction({
    commandName: 'domain',
    subcommand: 'info',
    options: { domain },
    roles: [PROCESS_ROLES.viewer],
  });

describe('two replicas in http mode on PostgreSQL', () => {
  it('neither opens a gateway connection; each answers its share of a burst, every interaction once', async () => {
    expect(f.discord.gatewayConnectionCount).toBe(0);
    const burst = Array.from({ length: 12 }, (_, n) => read(`burst-${n}.example`));
    const responses = await Promise.all(burst.map(responseOf));
    expect(responses.map((r) => r.status)).toEqual(burst.map(() => 200));
    expect(new Set(responses.map((r) => r.endpoint))).toEqual(
      new Set([a.interactionsUrl, b.interactionsUrl]),
    );
    for (const [n, i] of burst.entries()) {
      expect(textOf(messageOf(await nth(f.discord, i, 1)))).toContain(`burst-${n}.example`);
      expect(f.discord.requestsFor(i).filter((r) => r.path.endsWith('/callback'))).toHaveLength(1);
    }
    expect(f.api.requestsFor('domainInfo').filter((r) => r.param?.startsWith('burst-'))).toHaveLength(12);
  });

  it('a change prompt opened through one replica is confirmed through the other and sent once', async () => {
    const command = f.discord.dispatchInteraction({
      commandName: 'panel',
      subcommand: 'bind',
      options: { license: 'HTTP-REPL-0000-ABCD', ip: '203.0.113.21' },
      roles: [PROCESS_ROLES.operator],
    });
    const prompt = await nth(f.discord, command, 0);
    expect(callbackType(prompt)).toBe(4);
    const message = f.discord.originalMessage(command);
    if (!message) throw new Error('no prompt message');
    const click = f.discord.dispatchComponent({
      customId: confirmIdOf(prompt),
      message: { id: message.id },
      roles: [PROCESS_ROLES.operator],
    });
    const [opened, confirmed] = await Promise.all([responseOf(command), responseOf(click)]);
    expect(confirmed.endpoint).not.toBe(opened.endpoint);
    expect(confirmed.status).toBe(200);
    expect(callbackType(await nth(f.discord, click, 0))).toBe(7);
    expect(textOf(messageOf(await nth(f.discord, click, 1)))).toContain('License bound');
    const binds = f.api
      .requestsFor('bindPanelLicense')
      .filter((r) => r.query.get('license') === 'HTTP-REPL-0000-ABCD');
    expect(binds).toHaveLength(1);
    const recordId = confirmIdOf(prompt).split(':')[2] ?? '';
    expect((await store.changes.get(recordId))?.state).toBe('done');
  });

  it('the same interaction delivered to both replicas at once is answered once', async () => {
    for (let round = 0; round < 3; round++) {
      // One delivery to each replica, the second while the first is being answered.
      const i = through(a, () => read(`twice-${round}.example`));
      const [first, again] = await Promise.all([responseOf(i), f.discord.replay(i, b.interactionsUrl)]);
      expect([first.status, again.status].sort()).toEqual([200, 409]);
      await nth(f.discord, i, 1);
      expect(f.discord.requestsFor(i).filter((r) => r.path.endsWith('/callback'))).toHaveLength(1);
      expect(
        f.api.requestsFor('domainInfo').filter((r) => r.param === `twice-${round}.example`),
      ).toHaveLength(1);
    }
    // A Confirm delivered to both: sent once.
    const command = f.discord.dispatchInteraction({
      commandName: 'server',
      subcommand: 'rdns',
      options: { id: 42, ip: '203.0.113.22', hostname: 'twice.example.com' },
      roles: [PROCESS_ROLES.operator],
    });
    const prompt = await nth(f.discord, command, 0);
    const message = f.discord.originalMessage(command);
    if (!message) throw new Error('no prompt message');
    const click = through(b, () =>
      f.discord.dispatchComponent({
        customId: confirmIdOf(prompt),
        message: { id: message.id },
        roles: [PROCESS_ROLES.operator],
      }),
    );
    const [first, again] = await Promise.all([responseOf(click), f.discord.replay(click, a.interactionsUrl)]);
    expect([first.status, again.status].sort()).toEqual([200, 409]);
    expect(textOf(messageOf(await nth(f.discord, click, 1)))).toContain('Reverse DNS set');
    expect(
      f.api.requestsFor('setReverseDns').filter((r) => r.query.get('ip') === '203.0.113.22'),
    ).toHaveLength(1);
  });

  it('SIGTERM: /healthz turns unready first, the listener closes, what was in flight finishes, the other replica takes the rest', async () => {
    f.api.respond('domainInfo', (request) => ({
      body: { expirydate: '2027-06-30', active: 'true', expired: 'false', transferredAway: 'false' },
      delayMs: request.param === 'slow.example' ? 2_500 : 0,
    }));
    const slow = through(a, () => read('slow.example'));
    expect(callbackType(await nth(f.discord, slow, 0))).toBe(5);
    await until(
      () => f.api.requestsFor('domainInfo').find((r) => r.param === 'slow.example'),
      'the slow read',
    );

    const signalledAt = a.kill('SIGTERM');
    await a.waitForLog(logged('shutting down'));
    const unready = await a.get('/healthz');
    expect(unready.status).toBe(503);
    expect(unready.json()).toMatchObject({ status: 'unavailable', endpoint: 'stopping' });
    // Still answering while the load balancer's health check catches up: an interaction sent to it now
    // is handled, not turned away.
    const during = through(a, () => read('during.example'));
    expect(await responseOf(during)).toMatchObject({ status: 200, endpoint: a.interactionsUrl });
    expect(textOf(messageOf(await nth(f.discord, during, 1)))).toContain('during.example');

    await a.waitForLog(logged('interactions endpoint stopped accepting'));
    await expect(fetch(a.interactionsUrl, { method: 'POST', body: '{}' })).rejects.toThrow();
    // Whatever comes now reaches b (a refuses the connection: nothing was sent to it).
    for (let n = 0; n < 4; n++) {
      expect(await responseOf(read(`after-${n}.example`))).toMatchObject({
        status: 200,
        endpoint: b.interactionsUrl,
      });
    }
    // The read in flight when the signal came got its answer, after the signal.
    const answer = await nth(f.discord, slow, 1);
    expect(answer.status).toBe(200);
    expect(answer.at).toBeGreaterThan(signalledAt);
    expect(textOf(messageOf(answer))).toContain('slow.example');
    const exit = await a.exitWithin(15_000);
    expect(exit.code, a.output).toBe(0);
    expect(a.lines.some(logged('stopped', { drained: true })), a.output).toBe(true);
  }, 120_000);
});

/** Dispatches with the load balancer sending to this replica only. */
function through(bot: SpawnedBot, dispatch: () => DispatchedInteraction): DispatchedInteraction {
  f.discord.deliverOverHttp([bot.interactionsUrl]);
  try {
    return dispatch();
  } finally {
    f.discord.deliverOverHttp([a.interactionsUrl, b.interactionsUrl]);
  }
}
