// The SIGKILL column on SQLite: one process, one database file. SQLite has one writer at a time, so a
// process holds two changes at once here: one at the provider (which does not answer) and one whose
// settle waits on the write lock the test holds (BEGIN IMMEDIATE) after the provider answered. The
// process is SIGKILLed, the lock released, and the same deployment restarted on the file (SQLite is one
// process): it ends what the dead run left within the lease and one sweep.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/store/index.js';
import { LEASE_MS } from '../../../src/store/Presence.js';
import { defaultResponders } from '../../support/FakeHostingApi.js';
import {
  callbackType,
  confirmIdOf,
  type Fakes,
  logged,
  nth,
  PROCESS_ROLES,
  type SpawnedBot,
  spawnBot,
  startFakes,
  until,
} from '../../support/spawnBot.js';
import { expectReliabilityTable } from './reliabilityDoc.js';

const AUDIT_CHANNEL = '500000000000000045';
const SWEEP_MS = 10_000;
const TERMINAL = new Set(['done', 'failed', 'unknown']);

export function killMatrixSqliteSuite(): void {
  let fakes: Fakes;
  let path: string;
  let url: string;
  let store: Store | undefined;
  let lock: Database.Database | undefined;

  beforeAll(async () => {
    fakes = await startFakes();
    fakes.discord.addChannel({ id: AUDIT_CHANNEL });
    path = join(mkdtempSync(join(tmpdir(), 'hostops-kill-')), 'kill.db');
    url = `sqlite:${path}`;
  }, 30_000);
  afterAll(async () => {
    lock?.close();
    await store?.close();
    await fakes?.stop();
  });

  const spawn = (): Promise<SpawnedBot> =>
    spawnBot({
      discord: fakes.discord,
      api: fakes.api,
      env: { DATABASE_URL: url, AUDIT_CHANNEL_ID: AUDIT_CHANNEL, HOSTING_API_TIMEOUT_MS: '60000' },
    });

  async function prompt(domain: string) {
    const { discord } = fakes;
    const roles = [PROCESS_ROLES.operator];
    const command = discord.dispatchInteraction({
      commandName: 'domain',
      subcommand: 'dns',
      options: { domain, records: 'www 3600 A 203.0.113.7' },
      roles,
    });
    const first = await nth(discord, command, 0, 10_000);
    const shown = callbackType(first) === 5 ? await nth(discord, command, 1, 10_000) : first;
    const customId = confirmIdOf(shown);
    const message = discord.originalMessage(command);
    if (!message) throw new Error('no prompt message');
    return {
      id: customId.split(':')[2] ?? '',
      confirm: () => discord.dispatchComponent({ customId, message: { id: message.id }, roles }),
    };
  }

  const sentTo = (domain: string) =>
    fakes.api.requestsFor('submitDnsRecords').filter((r) => r.query.get('domain') === domain).length;

  it.concurrent('SIGKILL (sqlite): at the provider and at the settle, then a restart', async () => {
    const hanging = 'kill-written.sqlite.example';
    const answered = 'kill-settle.sqlite.example';
    const noticed = 'kill-notice.sqlite.example';
    fakes.api.respond('submitDnsRecords', (request) => {
      const domain = request.query.get('domain');
      if (domain === hanging) return { hang: true };
      // Answered; then Discord holds the process's next answers, so it dies before the notice.
      if (domain === noticed) fakes.discord.setRestDelay(12_000);
      if (domain === answered && !lock) {
        // Answered only once the test holds the write lock: the settle cannot land.
        lock = new Database(path);
        lock.prepare('begin immediate').run();
      }
      return defaultResponders.submitDnsRecords(request);
    });
    const a = await spawn();
    await a.waitForLog(logged('gateway ready'), 20_000);
    const written = await prompt(hanging);
    written.confirm();
    await until(() => (sentTo(hanging) === 1 ? true : undefined), 'the request at the provider', 10_000);
    // After the settle and its audit row (one transaction), before the notice: still telling it.
    const notice = await prompt(noticed);
    notice.confirm();
    const reader = new Database(path, { readonly: true });
    const noticeRows = () =>
      reader
        .prepare("select outcome from audit where change_id = ? and outcome in ('done', 'failed', 'unknown')")
        .all(notice.id);
    const noticeState = () =>
      (reader.prepare('select state from changes where id = ?').get(notice.id) as { state?: string })?.state;
    await until(() => (noticeState() === 'done' ? true : undefined), 'the settle', 10_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    fakes.discord.setRestDelay(0);
    const settle = await prompt(answered);
    settle.confirm();
    await until(() => (lock && sentTo(answered) === 1 ? true : undefined), 'the answer', 10_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    a.kill('SIGKILL');
    await a.exitWithin(5_000);
    // Killed before its notice: the end is recorded with its audit row, and no line is posted yet.
    expect(noticeRows()).toEqual([{ outcome: 'done' }]);
    reader.close();
    const noticeLinesAtKill = fakes.discord.channelMessages(AUDIT_CHANNEL).length;
    lock?.prepare('rollback').run();
    lock?.close();
    lock = undefined;
    fakes.api.respond('submitDnsRecords', (request) =>
      request.query.get('domain') === hanging ? { hang: true } : defaultResponders.submitDnsRecords(request),
    );
    // The restart (a second process refuses a live file; a dead run's heartbeat does not stop it).
    const b = await spawn();
    await b.waitForLog(logged('gateway ready'), 20_000);
    store = await openStore(url);
    const db = store;
    const ended = (id: string) =>
      until(
        async () => {
          const state = (await db.changes.get(id))?.state;
          return state && TERMINAL.has(state) ? state : undefined;
        },
        `the change ${id} to end`,
        2 * (LEASE_MS + SWEEP_MS),
        100,
      );
    const outcomes = {
      written: await ended(written.id),
      settle: await ended(settle.id),
      notice: await ended(notice.id),
    };
    expect(outcomes).toEqual({ written: 'unknown', settle: 'unknown', notice: 'done' });
    expect({ written: sentTo(hanging), settle: sentTo(answered), notice: sentTo(noticed) }).toEqual({
      written: 1,
      settle: 1,
      notice: 1,
    });
    for (const [id, outcome] of [
      [written.id, 'unknown'],
      [settle.id, 'unknown'],
      [notice.id, 'done'],
    ] as const) {
      const record = await db.changes.get(id);
      const lines = () =>
        fakes.discord
          .channelMessages(AUDIT_CHANNEL)
          .filter((m) => record !== undefined && m.content.includes(record.correlationId));
      // The notice's line is owed: the restart's sweep posts it once due, a lease after its settle.
      await until(
        () => (lines().length > 0 ? true : undefined),
        `${id}: its audit line`,
        LEASE_MS + SWEEP_MS,
      );
      const { rows } = await db.audit.query({}, { limit: 200, offset: 0 });
      const ends = rows.filter((row) => row.changeId === id && TERMINAL.has(row.outcome));
      expect(
        ends.map((r) => r.outcome),
        `${id}: audit rows`,
      ).toEqual([outcome]);
      expect(lines(), `${id}: audit lines`).toHaveLength(1);
    }
    fakes.api.respond('submitDnsRecords', defaultResponders.submitDnsRecords);
    const next: Record<string, string> = {};
    for (const domain of [hanging, answered, noticed]) {
      const again = await prompt(domain);
      again.confirm();
      next[domain] = await ended(again.id);
      expect(next[domain]).toBe('done');
    }
    expectReliabilityTable(
      'sigkill-sqlite',
      [
        '| SIGKILL at (sqlite), then a restart | ended as | sent | next |',
        '| --- | --- | --- | --- |',
        `| request written (at the provider) | \`${outcomes.written}\` | 1 | \`${next[hanging]}\` |`,
        `| answer read, settle not recorded | \`${outcomes.settle}\` | 1 | \`${next[answered]}\` |`,
        `| after the settle and its audit row, before the notice | \`${outcomes.notice}\`, its audit row in at the kill; its audit line posted ${noticeLinesAtKill === 0 ? "once, by the restart's sweep" : 'before the kill'} | 1 | \`${next[noticed]}\` |`,
      ].join('\n'),
    );
    b.kill('SIGKILL');
    await b.exitWithin(5_000);
  }, 120_000);
}
