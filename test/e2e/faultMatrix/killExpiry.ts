// The SIGKILL cell of an expiry, on one engine: a run of the built bundle whose prompts run out in 10 s
// lets one expire, and is killed right after the expiry's state change, while Discord holds its edit of
// the prompt (the step between the state change and telling it: the audit row and the line used to come
// after it). Then a restart on the same database: exactly one audit row, one audit-channel line (its
// owed line, posted by the restart's sweep once due), and the domain's next change goes through.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LEASE_MS, openStore, type Store } from '../../../src/store/index.js';
import { type Fakes, logged, type SpawnedBot, spawnBot, startFakes, until } from '../../support/spawnBot.js';
import { expectAuditedOnce, SWEEP_MS, TERMINAL } from './killChecks.js';
import { prompt } from './killPrompts.js';
import { expectReliabilityTable } from './reliabilityDoc.js';

const AUDIT_CHANNEL = '500000000000000047';
/** The shortest CONFIRM_TIMEOUT_S. */
const PROMPT_S = 10;

export function killExpirySuite(engine: 'sqlite' | 'postgres', freshUrl: () => Promise<string>): void {
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
      env: { DATABASE_URL: url, AUDIT_CHANNEL_ID: AUDIT_CHANNEL, CONFIRM_TIMEOUT_S: String(PROMPT_S) },
    });
    running.push(bot);
    await bot.waitForLog(logged('gateway ready'), 20_000);
    return bot;
  };

  it.concurrent(`SIGKILL (${engine}): right after a prompt's expiry, then a restart`, async () => {
    const domain = `kill-expiry.${engine}.example`;
    const a = await spawn();
    store = await openStore(url);
    const db = store;
    const stateOf = async (id: string) => (await db.changes.get(id))?.state;
    const expiring = await prompt(fakes.discord, domain);
    // Discord holds every answer from here: the expiry's edit of the prompt waits, and the run with it.
    fakes.discord.setRestDelay(60_000);
    await until(
      async () => ((await stateOf(expiring.id)) === 'expired' ? true : undefined),
      'the expiry',
      2 * PROMPT_S * 1_000,
      50,
    );
    a.kill('SIGKILL');
    await a.exitWithin(5_000);
    fakes.discord.setRestDelay(0);
    const rows = async () =>
      (await db.audit.query({}, { limit: 100, offset: 0 })).rows.filter(
        (row) => row.changeId === expiring.id && TERMINAL.has(row.outcome),
      );
    const rowsAtKill = (await rows()).map((row) => row.outcome);
    const cid = (await db.changes.get(expiring.id))?.correlationId ?? '';
    const linesAtKill = fakes.discord.channelMessages(AUDIT_CHANNEL).filter((m) => m.content.includes(cid));

    // The restart (on SQLite a second process refuses a live file: the dead run's heartbeat does not).
    const b = await spawn();
    await expectAuditedOnce(db, fakes.discord, AUDIT_CHANNEL, expiring.id, 'expired');
    const next = await prompt(fakes.discord, domain);
    next.confirm();
    const nextState = await until(
      async () => {
        const state = await stateOf(next.id);
        return state && TERMINAL.has(state) ? state : undefined;
      },
      'the next change',
      2 * (LEASE_MS + SWEEP_MS),
      100,
    );
    expect({ rowsAtKill, linesAtKill: linesAtKill.length, nextState }).toEqual({
      rowsAtKill: ['expired'],
      linesAtKill: 0,
      nextState: 'done',
    });
    b.kill('SIGKILL');
    await b.exitWithin(5_000);
    expectReliabilityTable(
      `sigkill-expiry-${engine}`,
      [
        `| SIGKILL at (${engine}), then a restart | ended as | audit rows at the kill | its audit line | next |`,
        '| --- | --- | --- | --- | --- |',
        `| right after a prompt's expiry (Discord holding its edit of the prompt) | \`expired\` | ${rowsAtKill.length} (\`${rowsAtKill.join(', ')}\`), written with the expiry | ${linesAtKill.length} at the kill; 1, by the restart's sweep once due | \`${nextState}\` |`,
      ].join('\n'),
    );
  }, 120_000);
}
