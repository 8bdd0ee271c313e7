// The SIGKILL column of issue 43's fault matrix, on PostgreSQL: one real HostOps process (the built
// bundle) holds seven DNS changes and an approval, each stopped at a step of its life — its prompt's
// insert, its claim at Confirm or Approve, its recheck, its hand-over to the connection, its request at
// the provider, its settle after the provider answered, the notice after its settle — by PostgreSQL (a
// row or table lock the test holds, a trigger that sleeps), the provider not answering, or Discord
// holding the process's answers. Then the process is SIGKILLed, its
// blocked statements are ended with pg_terminate_backend (so none lands after its death), the locks are
// released, and a second replica, alive all along, ends what the dead one left within the lease and one
// sweep: truthfully, each request at the provider at most once, one audit row and one audit-channel line
// each, and every domain free for its next change.

import pg from 'pg';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { openStore, type Store } from '../../../src/store/index.js';
import { LEASE_MS } from '../../../src/store/Presence.js';
import { defaultResponders } from '../../support/FakeHostingApi.js';
import {
  type Fakes,
  killSpawned,
  logged,
  PROCESS_ROLES,
  type SpawnedBot,
  spawnBot,
  startFakes,
  until,
} from '../../support/spawnBot.js';
import { createDatabase } from '../../support/startPostgres.js';
import { expectAuditedOnce, SWEEP_MS, TERMINAL } from './killChecks.js';
import { dns, prompt, requestApproval } from './killPrompts.js';
import { expectReliabilityTable } from './reliabilityDoc.js';

const AUDIT_CHANNEL = '500000000000000044';

/** The SIGKILL column, run beside the store-fault matrix in the same file (its waits are the lease's). */
export function killMatrixSuite(): void {
  let fakes: Fakes;
  let url: string;
  let store: Store;
  let pool: pg.Pool;
  const locks: pg.PoolClient[] = [];

  beforeAll(async () => {
    fakes = await startFakes({ sessions: 'all' });
    fakes.discord.addChannel({ id: AUDIT_CHANNEL });
    url = await createDatabase(inject('postgresUrl'), 'kill_matrix');
    store = await openStore(url);
    pool = new pg.Pool({ connectionString: url, max: 8 });
    // Made before any lock is held (DDL waits for every lock on the table): the prompt-stored cell's hold.
    await pool.query(`create function hold_insert() returns trigger language plpgsql as $$ begin
      if exists (select 1 from settings where key = 'hold-prompt') then perform pg_sleep(60); end if;
      return new; end $$`);
    await pool.query(`create trigger hold_prompt before insert on changes for each row
      when (new.target = 'kill-prompt.example') execute function hold_insert()`);
  }, 30_000);
  afterAll(async () => {
    await killSpawned();
    for (const client of locks) client.release(true);
    await pool?.end();
    await store?.close();
    await fakes?.stop();
  });

  function spawn(): Promise<SpawnedBot> {
    return spawnBot({
      discord: fakes.discord,
      api: fakes.api,
      env: {
        DATABASE_URL: url,
        AUDIT_CHANNEL_ID: AUDIT_CHANNEL,
        HOSTING_API_TIMEOUT_MS: '60000',
        APPROVAL_REQUIRED: 'domain register',
      },
    });
  }

  /** Holds the change's row locked (FOR UPDATE) in a transaction of its own, until released. */
  async function lockRow(id: string): Promise<void> {
    const client = await pool.connect();
    await client.query('begin');
    await client.query('select id from changes where id = $1 for update', [id]);
    locks.push(client);
  }

  const sentTo = (domain: string) =>
    fakes.api.requestsFor('submitDnsRecords').filter((r) => r.query.get('domain') === domain).length;

  async function stateOf(id: string): Promise<string | undefined> {
    return (await store.changes.get(id))?.state;
  }

  it.concurrent('SIGKILL (postgres): a change killed at each step ends truthfully on the replica that survives', async () => {
    const a = await spawn();
    await a.waitForLog(logged('gateway ready'), 20_000);
    const hanging = 'kill-written.example';
    const answered = 'kill-settle.example';
    const noticed = 'kill-notice.example';
    let settleLocked = false;
    fakes.api.respond('submitDnsRecords', async (request) => {
      const domain = request.query.get('domain');
      if (domain === hanging) return { hang: true };
      // Answered; then Discord holds the process's next answers, so it dies before the notice.
      if (domain === noticed) fakes.discord.setRestDelay(12_000);
      if (domain === answered && !settleLocked) {
        // The provider answers only once the change's row is locked: its settle cannot land.
        const id = (await store.changes.listByState(['sending'])).find((r) => r.target === answered)?.id;
        if (id) await lockRow(id);
        settleLocked = true;
      }
      return defaultResponders.submitDnsRecords(request);
    });

    // Hand-over: the change is claimed; its mark of being handed to the connection waits on the lock.
    const handOver = await prompt(fakes.discord, 'kill-handover.example');
    fakes.discord.setRestDelay(1_500);
    handOver.confirm();
    await until(
      async () => ((await stateOf(handOver.id)) === 'sending' ? true : undefined),
      'the claim',
      10_000,
    );
    await lockRow(handOver.id);
    fakes.discord.setRestDelay(0);
    // Claim at Confirm: the claim itself waits on the lock.
    const claim = await prompt(fakes.discord, 'kill-claim.example');
    await lockRow(claim.id);
    claim.confirm();
    // Request written: at the provider, which does not answer.
    const written = await prompt(fakes.discord, hanging);
    written.confirm();
    await until(() => (sentTo(hanging) === 1 ? true : undefined), 'the request at the provider', 10_000);
    // Settle: the provider answered; the settle waits on the lock.
    const settle = await prompt(fakes.discord, answered);
    settle.confirm();
    await until(() => (settleLocked && sentTo(answered) === 1 ? true : undefined), 'the answer', 10_000);
    await new Promise((resolve) => setTimeout(resolve, 300));

    // Claim at Approve: the approval's claim waits on the lock.
    const approval = await requestApproval(fakes.discord, 'kill-approve.example', stateOf);
    await lockRow(approval.id);
    approval.approve();

    // Prompt stored: the insert of its record sleeps in a trigger (PostgreSQL itself holds the step).
    await pool.query(`insert into settings (key, value, updated_at) values ('hold-prompt', '1', 0)`);
    fakes.discord.dispatchInteraction({ ...dns('kill-prompt.example'), roles: [PROCESS_ROLES.operator] });
    const sleeping = `select 1 from pg_stat_activity where wait_event = 'PgSleep' and datname = current_database()`;
    await until(async () => ((await pool.query(sleeping)).rowCount ? true : undefined), 'the insert', 10_000);
    // Recheck: claimed (its acknowledgement held by Discord); its read of the latest set waits on a lock.
    const recheck = await prompt(fakes.discord, 'kill-recheck.example');
    // After the settle, before the notice: the change's end and its audit row are in (one transaction);
    // the process is still telling it (its prompt's edit held by Discord) when it is killed.
    const notice = await prompt(fakes.discord, noticed);
    notice.confirm();
    await until(async () => ((await stateOf(notice.id)) === 'done' ? true : undefined), 'the settle', 10_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    fakes.discord.setRestDelay(1_500);
    recheck.confirm();
    await until(async () => ((await stateOf(recheck.id)) === 'sending' ? true : undefined), 'claim', 10_000);
    const tableLock = await pool.connect();
    await tableLock.query('begin');
    await tableLock.query('lock table dns_sets in access exclusive mode');
    locks.push(tableLock);
    fakes.discord.setRestDelay(0);
    const waiting = `select 1 from pg_locks l join pg_class c on c.oid = l.relation
      where c.relname = 'dns_sets' and not l.granted`;
    await until(async () => ((await pool.query(waiting)).rowCount ? true : undefined), 'the recheck', 10_000);

    // The survivor starts, then the process holding all eight is killed.
    const b = await spawn();
    await b.waitForLog(logged('gateway ready'), 20_000);
    a.kill('SIGKILL');
    await a.exitWithin(5_000);
    // Its blocked statements must not land after its death: end their backends, then release the locks.
    const lockPids = locks.map((client) => (client as unknown as { processID: number }).processID);
    await pool.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid()
         and (wait_event_type = 'Lock' or wait_event = 'PgSleep')
         and not (pid = any($1::int[]))`,
      [lockPids],
    );
    for (const client of locks.splice(0)) {
      await client.query('rollback');
      client.release();
    }
    const killedAt = performance.now();
    const noticeRows = async () =>
      (await store.audit.query({}, { limit: 200, offset: 0 })).rows.filter(
        (row) => row.changeId === notice.id && TERMINAL.has(row.outcome),
      );
    const auditLines = (correlationId: string | undefined) =>
      fakes.discord
        .channelMessages(AUDIT_CHANNEL)
        .filter((m) => correlationId !== undefined && m.content.includes(correlationId));
    const noticeRecord = await store.changes.get(notice.id);
    // Killed before its notice: the end is recorded with its audit row, and no line is posted yet.
    expect((await noticeRows()).map((row) => row.outcome)).toEqual(['done']);
    const noticeLinesAtKill = auditLines(noticeRecord?.correlationId).length;
    await pool.query(`delete from settings where key = 'hold-prompt'`);
    const prompted = async () =>
      (await store.changes.listByState(['pending', 'sending', 'done', 'failed', 'unknown'])).filter(
        (r) => r.target === 'kill-prompt.example',
      );

    // Within the lease and one sweep (twice that on a loaded machine).
    const ended = async (id: string) =>
      until(
        async () => {
          const state = await stateOf(id);
          return state && TERMINAL.has(state) ? state : undefined;
        },
        `the change ${id} to end`,
        2 * (LEASE_MS + SWEEP_MS),
      );
    const outcomes = {
      handOver: await ended(handOver.id),
      written: await ended(written.id),
      settle: await ended(settle.id),
      recheck: await ended(recheck.id),
    };
    expect(performance.now() - killedAt).toBeLessThan(2 * (LEASE_MS + SWEEP_MS));
    expect(outcomes).toEqual({
      handOver: 'failed',
      written: 'unknown',
      settle: 'unknown',
      recheck: 'failed',
    });
    expect((await store.changes.get(handOver.id))?.result).toMatchObject({ sent: false });
    expect((await store.changes.get(recheck.id))?.result).toMatchObject({ sent: false });
    // The prompt's record never landed (its insert ended with the process): nothing to end, nothing sent.
    expect(await prompted()).toEqual([]);
    // The claim never landed: the prompt is still open, and its Confirm (pressed again) sends it once.
    expect(await stateOf(claim.id)).toBe('pending');
    claim.confirm();
    expect(await ended(claim.id)).toBe('done');
    // So did the approval's: still awaiting approval, and approved again (on the survivor) it is sent once.
    expect(await stateOf(approval.id)).toBe('awaiting_approval');
    approval.approve();
    expect(await ended(approval.id)).toBe('done');
    expect(
      fakes.api.requestsFor('createDomain').filter((r) => r.query.get('domain') === 'kill-approve.example'),
    ).toHaveLength(1);
    expect({
      handOver: sentTo('kill-handover.example'),
      claim: sentTo('kill-claim.example'),
      written: sentTo(hanging),
      settle: sentTo(answered),
      notice: sentTo(noticed),
      recheck: sentTo('kill-recheck.example'),
      prompt: sentTo('kill-prompt.example'),
    }).toEqual({ handOver: 0, claim: 1, written: 1, settle: 1, notice: 1, recheck: 0, prompt: 0 });
    // One audit row and one audit-channel line each, naming the same end (written right after the end).
    for (const [id, outcome] of [
      [handOver.id, 'failed'],
      [written.id, 'unknown'],
      [settle.id, 'unknown'],
      [claim.id, 'done'],
      [approval.id, 'done'],
      [notice.id, 'done'],
      [recheck.id, 'failed'],
    ] as const) {
      await expectAuditedOnce(store, fakes.discord, AUDIT_CHANNEL, id, outcome);
    }
    // Every domain is free: its next change is sent.
    const next: Record<string, string> = {};
    const domains = [
      'kill-claim.example',
      'kill-handover.example',
      'kill-recheck.example',
      'kill-prompt.example',
    ];
    for (const domain of [...domains, hanging, answered, noticed]) {
      fakes.api.respond('submitDnsRecords', defaultResponders.submitDnsRecords);
      const again = await prompt(fakes.discord, domain);
      again.confirm();
      next[domain] = await ended(again.id);
      expect(next[domain]).toBe('done');
    }
    const row = (step: string, end: string, sent: number, domain: string) =>
      `| ${step} | ${end} | ${sent} | \`${next[domain]}\` |`;
    expectReliabilityTable(
      'sigkill-postgres',
      [
        '| SIGKILL at (postgres) | ended as | sent | next |',
        '| --- | --- | --- | --- |',
        row(
          'prompt stored (its insert held by a trigger)',
          'no record (the command died with the process)',
          0,
          'kill-prompt.example',
        ),
        row(
          'claim at Confirm',
          '`pending` (the press died with the process); Confirm again: `done`',
          1,
          'kill-claim.example',
        ),
        '| claim at Approve | `awaiting_approval` (the press died with the process); Approve again: `done` | 1 | — |',
        row(
          'recheck (its read held by a table lock)',
          `\`${outcomes.recheck}\` (not sent)`,
          0,
          'kill-recheck.example',
        ),
        row(
          'hand-over (before the request is written)',
          `\`${outcomes.handOver}\` (not sent)`,
          0,
          'kill-handover.example',
        ),
        row('request written (at the provider)', `\`${outcomes.written}\``, 1, hanging),
        row('answer read, settle not recorded', `\`${outcomes.settle}\``, 1, answered),
        row(
          'after the settle and its audit row, before the notice',
          `\`${noticeRecord?.state}\`, its audit row in at the kill; its audit line posted ${noticeLinesAtKill === 0 ? "once, by the survivor's sweep" : 'before the kill'}`,
          1,
          noticed,
        ),
      ].join('\n'),
    );
  }, 120_000);
}
