// Two real HostOps processes sharing one PostgreSQL database: Confirm of the same record pressed at the
// same moment in both sends once. The fake Discord delivers each press either to one process in turn
// (two presses, one per process) or to every session (one press, handled by both), as Discord does for
// several sessions of one shard.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import type { DispatchedInteraction } from '../support/FakeDiscord.js';
import {
  callbackType,
  confirmIdOf,
  type Fakes,
  isEphemeral,
  killSpawned,
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

const ROUNDS = 5;
const CLOSED = 'This confirmation is no longer open: the change was already confirmed.';

let fakes: Fakes | undefined;
let store: Store | undefined;
let bots: SpawnedBot[] = [];

const dropped = (i: DispatchedInteraction) => logged('handled by another replica', { interaction: i.id });

beforeAll(async () => {
  fakes = await startFakes({ sessions: 'alternate' });
  const url = await createDatabase(inject('postgresUrl'), 'replicas');
  const { discord, api } = fakes;
  bots = await Promise.all([1, 2].map(() => spawnBot({ discord, api, env: { DATABASE_URL: url } })));
  await Promise.all(bots.map((bot) => bot.waitForLog(logged('gateway ready'), 15_000)));
  await until(() => discord.liveSessionCount === 2 || undefined, 'two live gateway sessions');
  store = await openStore(url);
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

/** Opens a /server rdns prompt (in whichever process gets the command); returns how to press Confirm. */
async function openPrompt(hostname: string) {
  const { discord } = started().f;
  const command = discord.dispatchInteraction({
    commandName: 'server',
    subcommand: 'rdns',
    options: { id: 42, ip: '203.0.113.7', hostname },
    roles: [PROCESS_ROLES.operator],
  });
  const prompt = await nth(discord, command, 0);
  expect(callbackType(prompt)).toBe(4);
  expect(isEphemeral(messageOf(prompt))).toBe(true);
  const message = discord.originalMessage(command);
  if (!message) throw new Error('no prompt message');
  const confirmId = confirmIdOf(prompt);
  return {
    recordId: confirmId.split(':')[2] ?? '',
    messageId: message.id,
    press: (): DispatchedInteraction =>
      discord.dispatchComponent({
        customId: confirmId,
        message: { id: message.id },
        roles: [PROCESS_ROLES.operator],
      }),
  };
}

const sentFor = (hostname: string) =>
  started()
    .f.api.requestsFor('setReverseDns')
    .filter((request) => request.query.get('rdns') === hostname);

/** The prompt as the invoker sees it now. */
const promptTitle = (messageId: string) => started().f.discord.getMessage(messageId)?.embeds?.[0]?.title;

describe('two processes sharing one PostgreSQL database', () => {
  it(`two presses at once, one per process: one sends, the other is told it is no longer open (${ROUNDS} rounds)`, async () => {
    const { f, db } = started();
    f.discord.setSessions('alternate');
    for (let round = 1; round <= ROUNDS; round++) {
      const hostname = `race-${round}.example.com`;
      const prompt = await openPrompt(hostname);
      const presses = [prompt.press(), prompt.press()];
      // Each press went to a different process.
      const sessions = presses.map((p) => f.discord.deliveredTo(p));
      expect(sessions.map((s) => s.length)).toEqual([1, 1]);
      expect(sessions[0]?.[0]).not.toBe(sessions[1]?.[0]);

      const callbacks = await Promise.all(presses.map((p) => nth(f.discord, p, 0)));
      expect(callbacks.map((c) => callbackType(c)).sort()).toEqual([4, 7]);
      const winner = presses[callbacks.findIndex((c) => callbackType(c) === 7)] as DispatchedInteraction;
      const refusal = callbacks.find((c) => callbackType(c) === 4);
      if (!refusal) throw new Error('no refusal');
      expect(isEphemeral(messageOf(refusal))).toBe(true);
      expect(textOf(messageOf(refusal))).toBe(CLOSED);
      // The winner's outcome, then its public record: the change is over.
      expect(textOf(messageOf(await nth(f.discord, winner, 1)))).toContain('Reverse DNS set');
      expect(textOf(messageOf(await nth(f.discord, winner, 2)))).toContain('set the reverse DNS');

      expect(sentFor(hostname), `round ${round}`).toHaveLength(1);
      expect((await db.changes.get(prompt.recordId))?.state).toBe('done');
      expect(promptTitle(prompt.messageId)).toBe('Reverse DNS set');
      for (const press of presses)
        expect(f.discord.requestsFor(press)).toHaveLength(press === winner ? 3 : 1);
    }
  });

  it(`one press delivered to both processes at once: sent once, one outcome (${ROUNDS} rounds)`, async () => {
    const { f, db } = started();
    f.discord.setSessions('all');
    const ids: string[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const hostname = `both-${round}.example.com`;
      const prompt = await openPrompt(hostname);
      ids.push(prompt.recordId);
      const press = prompt.press();
      expect(new Set(f.discord.deliveredTo(press)).size).toBe(2);
      // Over once the record has its outcome and, if sent, the prompt shows it.
      const state = await until(async () => {
        const s = (await db.changes.get(prompt.recordId))?.state;
        if (s === 'done') return promptTitle(prompt.messageId) === 'Reverse DNS set' ? s : undefined;
        return s === 'failed' || s === 'unknown' ? s : undefined;
      }, 'the change to end');
      expect({ round, state, sent: sentFor(hostname).length }).toEqual({ round, state: 'done', sent: 1 });
      // One process answered (the update, the outcome, the public record); the other dropped it unanswered.
      await until(() => f.discord.requestsFor(press).length >= 3 || undefined, 'the public record');
      await until(
        () => bots.some((bot) => bot.lines.some(dropped(press))) || undefined,
        'the other process to drop the press',
      );
      expect(f.discord.requestsFor(press).map((r) => `${r.method} ${callbackType(r) ?? ''}`)).toEqual([
        'POST 7',
        'PATCH ',
        'POST ',
      ]);
    }
    // Every command, too, was handled by one process only: one record per prompt, each sent once.
    const records = await db.changes.listByState(['pending', 'sending', 'done', 'failed', 'unknown']);
    const mine = records.filter((r) => String(r.parameters.hostname).startsWith('both-'));
    expect(mine.map((r) => r.id).sort()).toEqual([...ids].sort());
    expect(mine.every((r) => r.state === 'done')).toBe(true);
    const sent = f.api.requestsFor('setReverseDns').filter((r) => r.query.get('rdns')?.startsWith('both-'));
    expect(sent).toHaveLength(ROUNDS);
  });
});
