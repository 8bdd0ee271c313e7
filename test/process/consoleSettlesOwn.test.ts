// A console does not act for the bots: what other processes left behind on a shared store — an approval
// request that ran out, a change whose sending replica died — is settled by a bot replica, whose notice and
// edit reach Discord, never by a console session, whose terminal nobody in the channel reads. Real
// processes on PostgreSQL: a bot leaves the records, a console session runs beside them past a sweep
// interval and settles nothing, then a bot settles them in Discord. What the console itself ends (a change
// confirmed, one cancelled) owes the audit channel its line: left owed by the console, whose terminal is
// not the channel, and posted once by the bot's sweep.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { startConsoleProcess } from '../support/consoleProcess.js';
import { postgresProcessSetup } from '../support/postgresProcessSetup.js';
import {
  confirmChange,
  type Json,
  logged,
  nth,
  PROCESS_ROLES,
  spawnBot,
  textOf,
  until,
} from '../support/spawnBot.js';

const setup = postgresProcessSetup('console_settles_own');

/** The change sweep's interval (ChangeSweeper): a console idle past it would have swept twice. */
const SWEEP_INTERVAL_MS = 10_000;

const AUDIT_CHANNEL = '500000000000000046';

/** What a Discord message shows. */
const shown = (message: unknown) => textOf((message ?? {}) as Json);

const recordIn = async (state: 'awaiting_approval' | 'pending') => {
  const [record] = await setup.store.changes.listByState([state]);
  if (!record) throw new Error(`no ${state} change`);
  return record;
};

describe('a console session on a shared store', () => {
  it('settles nothing others left behind; a bot does, in Discord', async () => {
    const { fakes, store, databaseUrl } = setup;
    const { discord, api } = fakes;
    const first = await spawnBot({
      discord,
      api,
      env: { DATABASE_URL: databaseUrl, APPROVAL_REQUIRED: 'server rdns' },
    });
    await first.waitForLog(logged('gateway ready'), 20_000);
    // An approval request, posted in the channel…
    const { click } = await confirmChange(discord, {
      commandName: 'server',
      subcommand: 'rdns',
      options: { id: 42, ip: '203.0.113.7', hostname: 'host.example.com' },
    });
    await nth(discord, click, 1);
    const request = await until(
      () => discord.channelMessages().find((m) => shown(m).includes('Approval needed')),
      'the approval request',
    );
    // …and a prompt that will be a send cut off by its replica's death.
    const bind = discord.dispatchInteraction({
      commandName: 'panel',
      subcommand: 'bind',
      options: { license: 'ORPHANKEY-1234', ip: '203.0.113.9' },
      roles: [PROCESS_ROLES.operator],
    });
    await nth(discord, bind, 0);
    first.kill('SIGTERM');
    expect((await first.exitWithin(20_000)).code).toBe(0);

    const approval = await recordIn('awaiting_approval');
    expect(
      await store.changes.transition(approval.id, 'awaiting_approval', 'awaiting_approval', {
        expiresAt: new Date(Date.now() - 60_000),
      }),
    ).toBe(true);
    const orphan = await recordIn('pending');
    expect(
      await store.changes.transition(orphan.id, 'pending', 'sending', { replicaId: 'gone-host:4242:dead00' }),
    ).toBe(true);
    const discordRequests = discord.requests.length;

    const session = startConsoleProcess(['--as', 'operator'], {
      cwd: mkdtempSync(join(tmpdir(), 'hostops-console-settles-')),
      env: { HOSTING_API_URL: api.url, HOSTING_API_TOKEN: api.token, DATABASE_URL: databaseUrl },
    });
    const output = () => session.stdout + session.stderr;
    try {
      // Interactive and idle: its input stays open while it would sweep.
      await until(() => output().includes('HostOps console'), 'the console session to start', 15_000);
      await sleep(SWEEP_INTERVAL_MS + 2_000);
      // A command of its own still works beside the records it leaves alone.
      session.child.stdin.write('/server logs 42\n');
      await until(() => output().includes('Server 42'), 'the console to answer', 10_000);
      expect((await store.changes.get(approval.id))?.state).toBe('awaiting_approval');
      expect((await store.changes.get(orphan.id))?.state).toBe('sending');
      expect(output()).not.toContain('outcome unknown');
      expect(output()).not.toContain('Expired');
      expect(discord.requests.length).toBe(discordRequests);
      // Its own changes: one sent, one cancelled.
      session.child.stdin.write('/panel bind license:CONSOLEKEY-5678 ip:203.0.113.10\nconfirm\n');
      await until(() => output().includes('[ok]'), 'the console change to be sent', 15_000);
      session.child.stdin.write('/panel bind license:CONSOLEKEY-9012 ip:203.0.113.11\ncancel\n');
      await until(() => output().includes('Cancelled'), 'the console change to be cancelled', 15_000);
    } finally {
      session.child.stdin.end('exit\n');
      await session.exited;
    }
    expect(session.child.exitCode).toBe(0);

    const ownEnds = await store.changes.listByState(['done', 'cancelled']);
    expect(ownEnds.map((r) => r.state).sort()).toEqual(['cancelled', 'done']);
    discord.addChannel({ id: AUDIT_CHANNEL });
    const second = await spawnBot({
      discord,
      api,
      env: { DATABASE_URL: databaseUrl, AUDIT_CHANNEL_ID: AUDIT_CHANNEL },
    });
    await second.waitForLog(logged('gateway ready'), 20_000);
    await until(
      async () => (await store.changes.get(approval.id))?.state === 'expired',
      'the bot to expire the approval request',
      15_000,
    );
    await until(
      async () => (await store.changes.get(orphan.id))?.state === 'unknown',
      'the bot to settle the orphaned send',
      15_000,
    );
    // Both reach Discord: the request edited in place, the channel told of the unknown outcome.
    await until(
      () => shown(discord.getMessage(request.id)).includes('**Expired**'),
      'the approval request edited to expired',
    );
    const notice = await until(
      () => discord.channelMessages().find((m) => shown(m).includes('**outcome unknown**')),
      'the orphan notice in the channel',
    );
    expect(shown(notice)).toContain('`/panel bind`');
    // The console's two ends, each one line in the audit channel, posted by the bot once they were due.
    const lines = (correlationId: string) =>
      discord.channelMessages(AUDIT_CHANNEL).filter((m) => m.content.includes(correlationId));
    for (const { correlationId } of ownEnds) {
      await until(() => (lines(correlationId).length > 0 ? true : undefined), 'the console line', 30_000);
    }
    expect(
      ownEnds.map((r) => lines(r.correlationId).map((m) => m.content.includes(`**${r.state}**`))),
    ).toEqual([[true], [true]]);
    // None of them was printed by the console as if it had been posted.
    expect(output()).not.toContain('**done**');
    second.kill('SIGTERM');
    expect((await second.exitWithin(20_000)).code).toBe(0);
  }, 120_000);
});
