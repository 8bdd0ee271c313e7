// Issue 49: a prompt's expiry the store recorded but whose answer was lost. The record says `expired`, so
// no sweep finds it overdue again: the replica reads the record again and finishes the prompt itself — its
// Confirm and Cancel taken off, the prompt forgotten — and the expiry is audited once. Was: the buttons
// stayed (a press then answered "expired" only when someone tried) and the prompt was kept until shutdown.
// In-process bots through the fake Discord, prompts of 10 s, on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { arr, dig, idle, openPrompt, rec, textOf, waitUntil } from '../support/e2eHelpers.js';
import { FaultPlan, faultyStore, transitionOf } from '../support/FaultyStore.js';
import { createDatabase } from '../support/startPostgres.js';
import { startTestBot, type TestBot } from '../support/startTestBot.js';

const engines = [
  { engine: 'sqlite', env: async () => ({}) },
  {
    engine: 'postgres',
    env: async () => ({ DATABASE_URL: await createDatabase(inject('postgresUrl'), 'expiry_answer_lost') }),
  },
] as const;

describe.each(engines)('$engine: an expiry recorded with its answer lost', ({ env }) => {
  const plan = new FaultPlan();
  let t: TestBot;
  beforeAll(async () => {
    t = await startTestBot(
      { ...(await env()), CONFIRM_TIMEOUT_S: '10' },
      {},
      { wrapStore: (store) => faultyStore(store, plan) },
    );
  });
  afterAll(() => t.stop());

  it('the prompt is finished at once: its buttons taken off, the expiry audited once', async () => {
    const domain = 'answer-lost.example';
    const fault = plan.add({
      call: 'changes.transition',
      when: transitionOf(domain, 'pending', 'expired'),
      at: 'after',
    });
    const prompt = await openPrompt(t, {
      commandName: 'domain',
      subcommand: 'dns',
      options: { domain, records: 'www 3600 A 203.0.113.7' },
    });
    const id = prompt.confirmId.split(':')[2] ?? '';
    const shown = t.discord.requestsFor(prompt.interaction).length;
    // Nobody presses: the prompt's own timer expires it, and the store's answer is lost.
    await waitUntil(() => fault.hits === 1, 'the expiry', 30_000);
    // The edits after the prompt was shown (a prompt that looked something up first is itself an edit).
    const edits = () =>
      t.discord
        .requestsFor(prompt.interaction)
        .slice(shown)
        .filter((r) => r.method === 'PATCH');
    await waitUntil(() => edits().length > 0, 'the prompt edited', 15_000);
    const body = rec(edits()[0]?.body);
    expect(textOf(body)).toMatch(/expired/i);
    const buttons = arr(dig(body, 'components', 0, 'components')).map((b) => rec(b));
    expect(buttons.length).toBeGreaterThan(0);
    expect(buttons.every((b) => b.disabled === true)).toBe(true);
    await idle(t);
    expect((await t.bot.store.changes.get(id))?.state).toBe('expired');
    const { rows } = await t.bot.store.audit.query({}, { limit: 20, offset: 0 });
    expect(rows.filter((row) => row.changeId === id).map((row) => row.outcome)).toEqual(['expired']);
    // Edited once: a later sweep finds nothing of it to finish.
    expect(edits()).toHaveLength(1);
    expect(t.logs.lines.some((line) => line.includes('the expiry was recorded but its answer lost'))).toBe(
      true,
    );
  }, 120_000);
});
