// The SIGKILL column on SQLite: one database file, runs of the deployment one after the other. The
// test's write lock (BEGIN IMMEDIATE) stops a step, and a process waiting for it waits with its event loop
// held, so each run holds one write: four runs each hold one step (a prompt, the hand-over, Confirm,
// Approve); the last holds a change at the provider (which does not answer), one after its settle
// (Discord holding its answers) and one whose settle waits on the lock. Each run is SIGKILLed, the lock
// released, and a restart ends what the dead runs left within the lease and one sweep.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/store/index.js';
import { LEASE_MS } from '../../../src/store/Presence.js';
import { defaultResponders } from '../../support/FakeHostingApi.js';
import {
  type Fakes,
  logged,
  PROCESS_ROLES,
  type SpawnedBot,
  spawnBot,
  startFakes,
  until,
} from '../../support/spawnBot.js';
import { expectAuditedOnce, SWEEP_MS, TERMINAL } from './killChecks.js';
import { dns, prompt, requestApproval } from './killPrompts.js';
import { expectReliabilityTable } from './reliabilityDoc.js';

const AUDIT_CHANNEL = '500000000000000045';

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
      env: {
        DATABASE_URL: url,
        AUDIT_CHANNEL_ID: AUDIT_CHANNEL,
        HOSTING_API_TIMEOUT_MS: '60000',
        APPROVAL_REQUIRED: 'domain register',
      },
    });

  const sentTo = (domain: string) =>
    fakes.api.requestsFor('submitDnsRecords').filter((r) => r.query.get('domain') === domain).length;

  it.concurrent('SIGKILL (sqlite): a run killed at each step it can be held at, then a restart', async () => {
    const hanging = 'kill-written.sqlite.example';
    const answered = 'kill-settle.sqlite.example';
    const noticed = 'kill-notice.sqlite.example';
    const handOverDomain = 'kill-handover.sqlite.example';
    const claimDomain = 'kill-claim.sqlite.example';
    const promptDomain = 'kill-prompt.sqlite.example';
    const approveDomain = 'kill-approve.sqlite.example';
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
    const unlock = () => {
      lock?.prepare('rollback').run();
      lock?.close();
      lock = undefined;
    };
    const holdWrites = () => {
      lock = new Database(path);
      lock.prepare('begin immediate').run();
    };
    // One held write per run (the wait for the lock holds the event loop), one run after another. The run
    // holding a settled change's owed audit line comes last, so that only the restart's sweep posts it (a
    // run killed between a take and its post leaves the line owed: postFaults.ts is that case).
    // Prompt stored: the command waits on the write lock at its first write (its interaction's claim).
    const a4 = await spawn();
    await a4.waitForLog(logged('gateway ready'), 20_000);
    const reader = new Database(path, { readonly: true });
    const stateIn = (id: string) =>
      (reader.prepare('select state from changes where id = ?').get(id) as { state?: string } | undefined)
        ?.state;
    await new Promise((resolve) => setTimeout(resolve, 300));
    holdWrites();
    const roles = [PROCESS_ROLES.operator];
    fakes.discord.dispatchInteraction({ ...dns(promptDomain), roles });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    a4.kill('SIGKILL');
    await a4.exitWithin(5_000);
    unlock();
    // Hand-over: claimed (its acknowledgement held by Discord), then its mark waits on the write lock.
    const a2 = await spawn();
    await a2.waitForLog(logged('gateway ready'), 20_000);
    const handOver = await prompt(fakes.discord, handOverDomain);
    fakes.discord.setRestDelay(1_500);
    handOver.confirm();
    await until(() => (stateIn(handOver.id) === 'sending' ? true : undefined), 'the claim', 10_000, 20);
    holdWrites();
    fakes.discord.setRestDelay(0);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    a2.kill('SIGKILL');
    await a2.exitWithin(5_000);
    unlock();
    // Confirm: the press waits on the write lock at its first write (the interaction's claim, made in
    // the same turn as the change's claim: one writer, so the lock cannot part them).
    const a3 = await spawn();
    await a3.waitForLog(logged('gateway ready'), 20_000);
    const claim = await prompt(fakes.discord, claimDomain);
    holdWrites();
    claim.confirm();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    a3.kill('SIGKILL');
    await a3.exitWithin(5_000);
    unlock();
    // Approve: the press waits on the write lock at its first write, as Confirm's does.
    const a5 = await spawn();
    await a5.waitForLog(logged('gateway ready'), 20_000);
    const approval = await requestApproval(fakes.discord, approveDomain, stateIn);
    holdWrites();
    approval.approve();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    a5.kill('SIGKILL');
    await a5.exitWithin(5_000);
    unlock();
    // Last: a change at the provider, one after its settle and its audit row, one whose settle waits.
    const a = await spawn();
    await a.waitForLog(logged('gateway ready'), 20_000);
    const written = await prompt(fakes.discord, hanging);
    written.confirm();
    await until(() => (sentTo(hanging) === 1 ? true : undefined), 'the request at the provider', 10_000);
    // After the settle and its audit row (one transaction), before the notice: still telling it.
    const notice = await prompt(fakes.discord, noticed);
    notice.confirm();
    const noticeRows = () =>
      reader
        .prepare("select outcome from audit where change_id = ? and outcome in ('done', 'failed', 'unknown')")
        .all(notice.id);
    const noticeState = () =>
      (reader.prepare('select state from changes where id = ?').get(notice.id) as { state?: string })?.state;
    await until(() => (noticeState() === 'done' ? true : undefined), 'the settle', 10_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    fakes.discord.setRestDelay(0);
    const settle = await prompt(fakes.discord, answered);
    settle.confirm();
    await until(() => (lock && sentTo(answered) === 1 ? true : undefined), 'the answer', 10_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    a.kill('SIGKILL');
    await a.exitWithin(5_000);
    // Killed before its notice: the end is recorded with its audit row, and no line is posted yet.
    expect(noticeRows()).toEqual([{ outcome: 'done' }]);
    const { correlation_id: noticeCid } = reader
      .prepare('select correlation_id from changes where id = ?')
      .get(notice.id) as { correlation_id: string };
    const noticeLinesAtKill = fakes.discord
      .channelMessages(AUDIT_CHANNEL)
      .filter((m) => m.content.includes(noticeCid)).length;
    unlock();
    fakes.api.respond('submitDnsRecords', (request) =>
      request.query.get('domain') === hanging ? { hang: true } : defaultResponders.submitDnsRecords(request),
    );
    reader.close();
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
      handOver: await ended(handOver.id),
    };
    expect(outcomes).toEqual({ written: 'unknown', settle: 'unknown', notice: 'done', handOver: 'failed' });
    expect((await db.changes.get(handOver.id))?.result).toMatchObject({ sent: false });
    // The press died with its run: the prompt is still open, and Confirm (pressed again) sends it once.
    expect((await db.changes.get(claim.id))?.state).toBe('pending');
    claim.confirm();
    const claimEnd = await ended(claim.id);
    expect(claimEnd).toBe('done');
    expect((await db.changes.get(approval.id))?.state).toBe('awaiting_approval');
    approval.approve();
    const approveEnd = await ended(approval.id);
    expect(approveEnd).toBe('done');
    const registered = fakes.api.requestsFor('createDomain');
    expect(registered.filter((r) => r.query.get('domain') === approveDomain)).toHaveLength(1);
    expect({
      written: sentTo(hanging),
      settle: sentTo(answered),
      notice: sentTo(noticed),
      handOver: sentTo(handOverDomain),
      claim: sentTo(claimDomain),
      prompt: sentTo(promptDomain),
    }).toEqual({ written: 1, settle: 1, notice: 1, handOver: 0, claim: 1, prompt: 0 });
    const prompted = await db.changes.listByState(['pending', 'sending', 'done', 'failed', 'unknown']);
    expect(prompted.filter((r) => r.target === promptDomain)).toEqual([]);
    for (const [id, outcome] of [
      [written.id, 'unknown'],
      [settle.id, 'unknown'],
      [notice.id, 'done'],
      [handOver.id, 'failed'],
      [claim.id, 'done'],
      [approval.id, 'done'],
    ] as const) {
      await expectAuditedOnce(db, fakes.discord, AUDIT_CHANNEL, id, outcome);
    }
    fakes.api.respond('submitDnsRecords', defaultResponders.submitDnsRecords);
    const next: Record<string, string> = {};
    for (const domain of [hanging, answered, noticed, handOverDomain, claimDomain, promptDomain]) {
      const again = await prompt(fakes.discord, domain);
      again.confirm();
      next[domain] = await ended(again.id);
      expect(next[domain]).toBe('done');
    }
    expectReliabilityTable(
      'sigkill-sqlite',
      [
        '| SIGKILL at (sqlite), then a restart | ended as | sent | next |',
        '| --- | --- | --- | --- |',
        `| prompt stored (held at the command's first write, its interaction claim) | no record (the command died with the process) | 0 | \`${next[promptDomain]}\` |`,
        `| claim at Confirm (held at the press's first write, its interaction claim) | \`pending\` (the press died with the process); Confirm again: \`${claimEnd}\` | 1 | \`${next[claimDomain]}\` |`,
        `| claim at Approve (held at the press's first write, its interaction claim) | \`awaiting_approval\` (the press died with the process); Approve again: \`${approveEnd}\` | 1 | — |`,
        `| hand-over (before the request is written) | \`${outcomes.handOver}\` (not sent) | 0 | \`${next[handOverDomain]}\` |`,
        `| request written (at the provider) | \`${outcomes.written}\` | 1 | \`${next[hanging]}\` |`,
        `| answer read, settle not recorded | \`${outcomes.settle}\` | 1 | \`${next[answered]}\` |`,
        `| after the settle and its audit row, before the notice | \`${outcomes.notice}\`, its audit row in at the kill; its audit line posted ${noticeLinesAtKill === 0 ? "once, by the restart's sweep" : 'before the kill'} | 1 | \`${next[noticed]}\` |`,
      ].join('\n'),
    );
    b.kill('SIGKILL');
    await b.exitWithin(5_000);
  }, 120_000);
}
