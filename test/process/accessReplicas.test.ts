// Issue 50: a revoke is in force everywhere by the time its confirmation shows. Two built replicas in
// http mode on one PostgreSQL database; the fake Discord delivers each interaction to the replica a step
// names. A grant confirmed through one lets a support role change inside its scope through the other; a
// revoke confirmed through the first, and the second refuses at once — a new command and the Confirm of a
// prompt it showed before — with nothing sent to the provider.
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import type { DispatchedInteraction, InteractionOptions } from '../support/FakeDiscord.js';
import {
  callbackType,
  confirmIdOf,
  type Fakes,
  killSpawned,
  logged,
  messageOf,
  nth,
  PROCESS_ROLES,
  type SpawnedBot,
  spawnBot,
  startFakes,
  textOf,
} from '../support/spawnBot.js';
import { createDatabase } from '../support/startPostgres.js';

const SUPPORT_ROLE = '200000000000000050';
const SUPPORT_USER = '100000000000000050';

let f: Fakes;
let a: SpawnedBot;
let b: SpawnedBot;

beforeAll(async () => {
  f = await startFakes();
  const url = await createDatabase(inject('postgresUrl'), 'access_replicas');
  [a, b] = (await Promise.all(
    [1, 2].map(() =>
      spawnBot({ discord: f.discord, api: f.api, env: { INTERACTIONS_MODE: 'http', DATABASE_URL: url } }),
    ),
  )) as [SpawnedBot, SpawnedBot];
  await Promise.all([a, b].map((bot) => bot.waitForLog(logged('interactions endpoint listening'), 15_000)));
});
afterAll(async () => {
  await killSpawned();
  await f?.stop();
});

/** Dispatches to one replica alone. */
function on(bot: SpawnedBot, options: InteractionOptions): DispatchedInteraction {
  f.discord.deliverOverHttp([bot.interactionsUrl]);
  return f.discord.dispatchInteraction(options);
}

/** The answer that shows: the HTTP response, or the edit after a deferral. */
async function shown(
  i: DispatchedInteraction,
): Promise<{ text: string; request: Awaited<ReturnType<typeof nth>> }> {
  const first = await nth(f.discord, i, 0);
  const request = callbackType(first) === 5 ? await nth(f.discord, i, 1) : first;
  return { text: textOf(messageOf(request)), request };
}

/** Presses Confirm through a replica and waits for the change's answer (the edit after the update). */
async function confirm(
  bot: SpawnedBot,
  prompt: DispatchedInteraction,
  request: Awaited<ReturnType<typeof nth>>,
) {
  const message = f.discord.originalMessage(prompt);
  if (!message) throw new Error('no prompt message');
  f.discord.deliverOverHttp([bot.interactionsUrl]);
  const click = f.discord.dispatchComponent({
    customId: confirmIdOf(request),
    message: { id: message.id },
    roles: [PROCESS_ROLES.admin],
  });
  expect(callbackType(await nth(f.discord, click, 0))).toBe(7);
  return textOf(messageOf(await nth(f.discord, click, 1)));
}

const asSupport = (id: number): InteractionOptions => ({
  commandName: 'server',
  subcommand: 'rdns',
  options: { id, ip: '198.51.100.7', hostname: 'host.acme.example' },
  userId: SUPPORT_USER,
  roles: [SUPPORT_ROLE],
});

it('a grant and its revoke, each confirmed on one replica, are in force on the other at once', async () => {
  const grant = on(a, {
    commandName: 'access',
    subcommand: 'grant',
    options: { who: `role:${SUPPORT_ROLE}`, what: 'server rdns', on: 'server:100-199' },
    roles: [PROCESS_ROLES.admin],
  });
  const grantPrompt = await shown(grant);
  const id = /`(g[0-9a-f]{8})`/.exec(grantPrompt.text)?.[1];
  if (!id) throw new Error(`no grant id in ${grantPrompt.text}`);
  const granted = await confirm(a, grant, grantPrompt.request);
  expect(granted).toContain(id);

  // Inside the grant, on the other replica: a prompt, kept open for later.
  const before = on(b, asSupport(150));
  const beforePrompt = await shown(before);
  expect(confirmIdOf(beforePrompt.request)).toMatch(/^hostops:confirm:/);
  // Outside it: refused, naming what is not covered.
  expect((await shown(on(b, asSupport(250)))).text).toContain('server:250');

  const revoke = on(a, {
    commandName: 'access',
    subcommand: 'revoke',
    options: { id },
    roles: [PROCESS_ROLES.admin],
  });
  const revokePrompt = await shown(revoke);
  expect(await confirm(a, revoke, revokePrompt.request)).toContain(id);

  // Once the revoke's answer shows, the other replica refuses a new command and the old prompt's Confirm.
  const after = await shown(on(b, asSupport(151)));
  expect(after.text).toMatch(/needs the \*\*operator\*\* tier/);
  const message = f.discord.originalMessage(before);
  if (!message) throw new Error('no prompt message');
  f.discord.deliverOverHttp([b.interactionsUrl]);
  const late = f.discord.dispatchComponent({
    customId: confirmIdOf(beforePrompt.request),
    message: { id: message.id },
    userId: SUPPORT_USER,
    roles: [SUPPORT_ROLE],
  });
  const lateAnswer = textOf(messageOf(await nth(f.discord, late, 0)));
  expect(lateAnswer).toMatch(/needs the \*\*operator\*\* tier/);
  expect(f.api.requestsFor('setReverseDns')).toHaveLength(0);
});
