// The SIGKILL column of issue 43's fault matrix, on PostgreSQL: one real HostOps process (the built
// bundle) holds four DNS changes, each stopped at a step of its life — its claim at Confirm, its hand-over
// to the connection, its request at the provider, its settle after the provider answered — by a row lock
// the test holds in PostgreSQL (or by the provider not answering). Then the process is SIGKILLed, its
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
  callbackType,
  confirmIdOf,
  type Fakes,
  killSpawned,
  logged,
  nth,
  PROCESS_ROLES,
  type SpawnedBot,
  spawnBot,
  startFakes,
  until,
} from '../../support/spawnBot.js';
import { createDatabase } from '../../support/startPostgres.js';
import { expectReliabilityTable } from './reliabilityDoc.js';

const AUDIT_CHANNEL = '500000000000000044';
const SWEEP_MS = 10_000;
const TERMINAL = new Set(['done', 'failed', 'unknown']);

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

  const dns = (domain: string) => ({
    commandName: 'domain',
    subcommand: 'dns',
    options: { domain, records: 'www 3600 A 203.0.113.7' },
  });

  /** Opens a prompt; returns its change id and how to press Confirm. */
  async function prompt(domain: string) {
    const { discord } = fakes;
    const roles = [PROCESS_ROLES.operator];
    const command = discord.dispatchInteraction({ ...dns(domain), roles });
    // Deferred first (the prompt reads the domain's latest set), then the prompt as an edit.
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

  /** Opens a /domain register, confirms it, and returns how to press its approval request's Approve. */
  async function requestApproval(domain: string) {
    const { discord } = fakes;
    const roles = [PROCESS_ROLES.admin];
    const command = discord.dispatchInteraction({
      commandName: 'domain',
      subcommand: 'register',
      options: { domain, ns1: 'ns1.example.net', ns2: 'ns2.example.net' },
      roles,
    });
    const first = await nth(discord, command, 0, 10_000);
    const shown = callbackType(first) === 5 ? await nth(discord, command, 1, 10_000) : first;
    const customId = confirmIdOf(shown);
    const id = customId.split(':')[2] ?? '';
    const message = discord.originalMessage(command);
    if (!message) throw new Error('no prompt message');
    discord.dispatchComponent({ customId, message: { id: message.id }, roles });
    const posted = () =>
      discord
        .channelMessages()
        .find(
          (m) =>
            /^Approval needed/.test(m.embeds[0]?.title ?? '') &&
            JSON.stringify(m.components ?? []).includes(`:${id}`),
        );
    const request = await until(() => posted(), 'the approval request', 10_000);
    await until(
      async () => ((await stateOf(id)) === 'awaiting_approval' ? true : undefined),
      'the change awaiting approval',
      10_000,
    );
    const approveId = JSON.stringify(request.components).match(/"(hostops:approve:[^"]+)"/)?.[1] ?? '';
    return {
      id,
      approve: () =>
        discord.dispatchComponent({
          customId: approveId,
          message: { id: request.id },
          userId: '900000000000000044',
          roles,
        }),
    };
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
    const handOver = await prompt('kill-handover.example');
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
    const claim = await prompt('kill-claim.example');
    await lockRow(claim.id);
    claim.confirm();
    // Request written: at the provider, which does not answer.
    const written = await prompt(hanging);
    written.confirm();
    await until(() => (sentTo(hanging) === 1 ? true : undefined), 'the request at the provider', 10_000);
    // Settle: the provider answered; the settle waits on the lock.
    const settle = await prompt(answered);
    settle.confirm();
    await until(() => (settleLocked && sentTo(answered) === 1 ? true : undefined), 'the answer', 10_000);
    await new Promise((resolve) => setTimeout(resolve, 300));

    // Claim at Approve: the approval's claim waits on the lock.
    const approval = await requestApproval('kill-approve.example');
    await lockRow(approval.id);
    approval.approve();

    // After the settle, before the notice: the change's end and its audit row are in (one transaction);
    // the process is still telling it (its prompt's edit held by Discord) when it is killed.
    const notice = await prompt(noticed);
    notice.confirm();
    await until(async () => ((await stateOf(notice.id)) === 'done' ? true : undefined), 'the settle', 10_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    fakes.discord.setRestDelay(0);

    // The survivor starts, then the process holding all six is killed.
    const b = await spawn();
    await b.waitForLog(logged('gateway ready'), 20_000);
    a.kill('SIGKILL');
    await a.exitWithin(5_000);
    // Its blocked statements must not land after its death: end their backends, then release the locks.
    const lockPids = locks.map((client) => (client as unknown as { processID: number }).processID);
    await pool.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid() and wait_event_type = 'Lock'
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
    };
    expect(performance.now() - killedAt).toBeLessThan(2 * (LEASE_MS + SWEEP_MS));
    expect(outcomes).toEqual({ handOver: 'failed', written: 'unknown', settle: 'unknown' });
    expect((await store.changes.get(handOver.id))?.result).toMatchObject({ sent: false });
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
    }).toEqual({ handOver: 0, claim: 1, written: 1, settle: 1, notice: 1 });
    // One audit row and one audit-channel line each, naming the same end (written right after the end).
    for (const [id, outcome] of [
      [handOver.id, 'failed'],
      [written.id, 'unknown'],
      [settle.id, 'unknown'],
      [claim.id, 'done'],
      [approval.id, 'done'],
      [notice.id, 'done'],
    ] as const) {
      const record = await store.changes.get(id);
      const lines = () =>
        fakes.discord
          .channelMessages(AUDIT_CHANNEL)
          .filter((m) => record !== undefined && m.content.includes(record.correlationId));
      // The notice's line is owed: a sweep (the survivor's) posts it once due, a lease after its settle.
      await until(
        () => (lines().length > 0 ? true : undefined),
        `${id}: its audit line`,
        LEASE_MS + SWEEP_MS,
      );
      const { rows } = await store.audit.query({}, { limit: 200, offset: 0 });
      const ends = rows.filter((row) => row.changeId === id && TERMINAL.has(row.outcome));
      expect(
        ends.map((r) => r.outcome),
        `${id}: audit rows`,
      ).toEqual([outcome]);
      expect(
        lines().map((m) => m.content.includes(`**${outcome}**`)),
        `${id}: audit lines`,
      ).toEqual([true]);
    }
    // Every domain is free: its next change is sent.
    const next: Record<string, string> = {};
    for (const domain of ['kill-claim.example', 'kill-handover.example', hanging, answered, noticed]) {
      fakes.api.respond('submitDnsRecords', defaultResponders.submitDnsRecords);
      const again = await prompt(domain);
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
          'claim at Confirm',
          '`pending` (the press died with the process); Confirm again: `done`',
          1,
          'kill-claim.example',
        ),
        '| claim at Approve | `awaiting_approval` (the press died with the process); Approve again: `done` | 1 | — |',
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
