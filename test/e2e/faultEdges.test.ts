// Issue 43's edges, in-process bots through the fake Discord on PostgreSQL (where every interaction is
// claimed in the store): a claim the store cannot decide is not won — the interaction is answered "try
// again" and nothing is done; and a change still being checked again when the drain runs out was never
// handed to the connection, so the give-up records it `failed`, not "may have been applied".
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import {
  CallbackType,
  callbackOf,
  idle,
  openPrompt,
  press,
  textOf,
  waitUntil,
} from '../support/e2eHelpers.js';
import { FaultPlan, faultyStore } from '../support/FaultyStore.js';
import { createDatabase } from '../support/startPostgres.js';
import { startTestBot, type TestBot } from '../support/startTestBot.js';

const dns = (domain: string) => ({
  commandName: 'domain',
  subcommand: 'dns',
  options: { domain, records: 'www 3600 A 203.0.113.7' },
});

describe('a claim that cannot be decided is not won', () => {
  const plan = new FaultPlan();
  let t: TestBot;
  beforeAll(async () => {
    const url = await createDatabase(inject('postgresUrl'), 'claim_undecided');
    t = await startTestBot({ DATABASE_URL: url }, {}, { wrapStore: (store) => faultyStore(store, plan) });
  });
  afterAll(() => t.stop());

  it('the interaction is answered "try again" and nothing is done; the same command again works', async () => {
    plan.add({ call: 'claims.claimInteraction', times: 1 });
    const refused = t.command(dns('undecided.example'));
    const answer = await callbackOf(t, refused);
    expect(answer.type).toBe(CallbackType.reply);
    expect(textOf(answer.data)).toMatch(/could not reach its store .*nothing was done\. Try again/);
    await idle(t);
    expect(await t.bot.store.changes.listByState(['pending'])).toEqual([]);
    // A second delivery of the same interaction (a retrying proxy, Discord's retry) is claimed normally.
    const prompt = await openPrompt(t, dns('undecided.example'));
    expect(prompt.confirmId).toMatch(/:confirm:/);
    expect(plan.faults[0]?.hits).toBe(1);
  });
});

describe('the give-up at shutdown', () => {
  const plan = new FaultPlan();
  let t: TestBot;
  let url: string;
  beforeAll(async () => {
    url = await createDatabase(inject('postgresUrl'), 'give_up_recheck');
    t = await startTestBot({ DATABASE_URL: url }, {}, { wrapStore: (store) => faultyStore(store, plan) });
  });
  afterAll(async () => {
    await Promise.all([t.discord.stop(), t.api.stop()]);
  });

  it('records a change still in its recheck `failed`, never sent, and tells it so', async () => {
    const prompt = await openPrompt(t, dns('slow-recheck.example'));
    const id = prompt.confirmId.split(':')[2] ?? '';
    // The recheck's read of the latest set is slow: the drain runs out while it waits.
    const slow = plan.add({ call: 'dnsSets.latest', delayMs: 3_000 });
    expect((await callbackOf(t, press(t, prompt, 'confirm'))).type).toBe(CallbackType.update);
    await waitUntil(() => slow.hits === 1, 'the recheck');
    const { drained } = await t.bot.stop(200);
    expect(drained).toBe(false);
    const store = await openStore(url);
    try {
      expect(await store.changes.get(id)).toMatchObject({
        state: 'failed',
        result: { reason: 'shutdown', sent: false },
      });
      const { rows } = await store.audit.query({}, { limit: 10, offset: 0 });
      expect(rows.filter((row) => row.changeId === id).map((row) => row.outcome)).toEqual(['failed']);
    } finally {
      await store.close();
    }
    expect(t.api.requestsFor('submitDnsRecords')).toHaveLength(0);
  });
});
