// `--json` prints each command's answer as data (issue 23): what the embed is rendered from, with ISO
// dates, booleans as booleans and no Discord markup; a change as its record's target, outcome and result.
// Through the built console, against the fake hosting API.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { COUNT_CAP } from '../../commands/audit.js';
import type { AuditData } from '../../src/replies/answerData.js';
import { openStore } from '../../src/store/index.js';
import { runConsoleProcess } from '../support/consoleProcess.js';
import { FakeHostingApi } from '../support/FakeHostingApi.js';

let api: FakeHostingApi;
let dir: string;
let env: Record<string, string>;
beforeAll(async () => {
  api = await FakeHostingApi.start();
  dir = mkdtempSync(join(tmpdir(), 'hostops-console-json-'));
  env = {
    HOSTING_API_URL: api.url,
    HOSTING_API_TOKEN: api.token,
    DATABASE_URL: `sqlite:${join(dir, 'hostops.db')}`,
    RDNS_FORWARD_CHECK: 'off',
  };
});
beforeEach(() => api.reset());
afterAll(async () => {
  await api?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function json(
  args: string[],
  input = '',
  extraEnv: Record<string, string> = {},
): Promise<{ code: number | null; data: unknown; stderr: string }> {
  const { code, stdout, stderr } = await runConsoleProcess(['--json', ...args], {
    cwd: dir,
    env: { ...env, ...extraEnv },
    input,
  });
  // No Discord markup anywhere: timestamps, mentions, check marks, colour integers.
  expect(stdout).not.toMatch(/<t:\d+|<@\d+>|✅|❌|"color"/);
  return { code, data: stdout === '' ? undefined : JSON.parse(stdout), stderr };
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('console --json: reads', { timeout: 60_000 }, () => {
  it('/domain info: the domain, its expiry date and its flags', async () => {
    api.respond('domainInfo', () => ({
      body: { expirydate: '2031-05-17', active: 'true', expired: 'false', transferredAway: 'false' },
    }));
    const { code, data } = await json(['/domain info example.com']);
    expect(code).toBe(0);
    expect(data).toEqual({
      domain: 'example.com',
      expires: '2031-05-17',
      daysLeft: expect.any(Number),
      active: true,
      expired: false,
      transferredAway: false,
    });
    const idn = await json(['/domain info bücher.example']);
    expect(idn.data).toMatchObject({ domain: 'xn--bcher-kva.example', unicode: 'bücher.example' });
  });

  it('/domain expiry: every domain in the order given, a failed look-up with its reason, invalid input', async () => {
    api.respond('domainInfo', (request) =>
      request.param === 'gone.example'
        ? { status: 404, body: { error: 'not found' } }
        : { body: { expirydate: '2027-06-30', active: 'false', expired: 'false', transferredAway: 'true' } },
    );
    const { code, data } = await json([
      '/domain expiry domains:"b.example gone.example not_a_domain" within:14',
    ]);
    expect(code).toBe(0);
    expect(data).toEqual({
      within: 14,
      domains: [
        {
          domain: 'b.example',
          expires: '2027-06-30',
          daysLeft: expect.any(Number),
          active: false,
          expired: false,
          transferredAway: true,
        },
        { domain: 'gone.example', error: expect.any(String) },
      ],
      invalid: [{ input: 'not_a_domain', reason: expect.any(String) }],
    });
  });

  it('/server logs: times as ISO instants, the duration in seconds', async () => {
    const { code, data } = await json(['/server logs 42']);
    expect(code).toBe(0);
    // The fake API's entry: 01.03.2026 10:00:00 to 10:05:30 in Europe/Berlin.
    expect(data).toEqual({
      serverId: 42,
      type: 'reinstall',
      status: 'success',
      statusClass: 'success',
      start: '2026-03-01T09:00:00.000Z',
      end: '2026-03-01T09:05:30.000Z',
      durationSeconds: 330,
    });
  });

  it('/help: the tier, and which commands it may run', async () => {
    const { code, data } = await json(['/help']);
    expect(code).toBe(0);
    const help = data as { tier: string; here: boolean; commands: { command: string; allowed: boolean }[] };
    expect(help.tier).toBe('viewer');
    expect(help.here).toBe(true);
    expect(help.commands).toContainEqual(
      expect.objectContaining({ command: 'server logs', tier: 'viewer', allowed: true }),
    );
    expect(help.commands).toContainEqual(
      expect.objectContaining({ command: 'server rdns', tier: 'operator', allowed: false }),
    );
  });
});

describe('console --json: changes, /domain records and /audit', { timeout: 90_000 }, () => {
  it('a change: its record, target, outcome and result; nothing sent without --yes', async () => {
    const preview = await json([
      '--as',
      'operator',
      '/server rdns id:42 ip:203.0.113.7 hostname:host.example.com',
    ]);
    expect(preview.code).toBe(4);
    expect(preview.data).toEqual({
      change: expect.any(String),
      command: 'server rdns',
      target: 'server 42 203.0.113.7',
      outcome: 'cancelled',
      parameters: { serverId: 42, ip: '203.0.113.7', hostname: 'host.example.com', validate: true },
    });
    expect(api.requestsFor('setReverseDns')).toHaveLength(0);

    const sent = await json([
      '--as',
      'operator',
      '--yes',
      '/server rdns id:42 ip:203.0.113.7 hostname:host.example.com',
    ]);
    expect(sent.stderr).toBe('');
    expect(sent.code).toBe(0);
    expect(sent.data).toMatchObject({
      command: 'server rdns',
      target: 'server 42 203.0.113.7',
      outcome: 'done',
    });
    expect(api.requestsFor('setReverseDns')).toHaveLength(1);
  });

  it('a license key is masked in the data; the generated music-bot password only in the answer to the invoker', async () => {
    const bound = await json(['--as', 'operator', '--yes', '/panel bind SECRETKEY-1234 203.0.113.9']);
    expect(bound.code).toBe(0);
    expect(bound.data).toMatchObject({
      outcome: 'done',
      parameters: { license: '…1234', ip: '203.0.113.9' },
    });
    expect(JSON.stringify(bound.data)).not.toContain('SECRETKEY');

    const created = await json([
      '--as',
      'operator',
      '--yes',
      '--verbose',
      '/musicbot create alice alice@example.com 10GB 2',
    ]);
    expect(created.code).toBe(0);
    const data = created.data as { outcome: string; result: unknown; private: { password: string } };
    expect(data).toMatchObject({
      command: 'musicbot create',
      target: 'alice',
      outcome: 'done',
      result: { accountId: 4711 },
    });
    expect(data.private.password).toMatch(/^\S{24}$/);
    // The password the API got, and nowhere in the log lines (--verbose logs everything on stderr).
    expect(api.requestsFor('createMusicBotUser')[0]?.query.get('password')).toBe(data.private.password);
    expect(created.stderr).not.toContain(data.private.password);
  });

  it('/domain records: null before any set, then the last set with who, when and its records', async () => {
    const none = await json(['/domain records example.org']);
    expect(none.code).toBe(0);
    expect(none.data).toEqual({ domain: 'example.org', lastSet: null });

    const sent = await json(
      ['--as', 'operator', '--yes', '/domain dns example.org'],
      'www 600 A 203.0.113.7\n@ MX 10 mail.example.org.',
    );
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.data).toMatchObject({ command: 'domain dns', target: 'example.org', outcome: 'done' });

    const last = await json(['/domain records example.org']);
    expect(last.data).toEqual({
      domain: 'example.org',
      lastSet: {
        change: (sent.data as { change: string }).change,
        sentAt: expect.stringMatching(ISO_INSTANT),
        sentBy: { id: expect.stringMatching(/^\d{18}$/), name: expect.stringMatching(/^console:/) },
        outcome: 'done',
        records: [
          { name: 'www', type: 'A', content: '203.0.113.7', ttl: 600 },
          // As encoded for the API: a host name without its final dot.
          { name: '@', type: 'MX', content: 'mail.example.org', ttl: 3600, prio: 10 },
        ],
      },
    });
  });

  it('/audit: the filter, the count and the newest entries as data', async () => {
    const { code, data } = await json(['--as', 'operator', '/audit command:"domain records"']);
    expect(code).toBe(0);
    const audit = data as AuditData;
    expect(audit.filter).toEqual({ since: expect.stringMatching(ISO_INSTANT), command: 'domain records' });
    expect([audit.total, audit.totalCapped, audit.offset]).toEqual([2, false, 0]);
    expect(audit.entries[0]).toEqual({
      at: expect.stringMatching(ISO_INSTANT),
      user: { id: expect.any(String), name: expect.stringMatching(/^console:/) },
      command: 'domain records',
      target: 'example.org',
      outcome: 'ok',
      detail: null,
      reference: expect.any(String),
      durationMs: expect.any(Number),
      change: null,
      parameters: null,
    });
  });
});

describe('console --json: /audit past the count’s cap', { timeout: 90_000 }, () => {
  it('says the total is capped, in the answer and in the export', async () => {
    // A store of its own, filled in one transaction by the store's bulk path (`npm run migrate-store`'s):
    // one insert per entry took most of this test's time.
    const capped = { DATABASE_URL: `sqlite:${join(dir, 'capped.db')}` };
    const store = await openStore(capped.DATABASE_URL);
    const at = Date.now() - 60_000;
    try {
      const entries = Array.from({ length: COUNT_CAP + 1 }, (_, n) => ({
        at: new Date(at + n),
        userId: '100000000000000199',
        userName: 'bulk',
        guildId: null,
        channelId: null,
        command: 'domain',
        subcommand: 'info',
        target: `capped-${n}.example`,
        outcome: 'ok' as const,
        detail: null,
        correlationId: n.toString(16).padStart(10, '0'),
        durationMs: 1,
        parameters: null,
        changeId: null,
      }));
      await store.importRows({ changes: [], audit: [entries] });
    } finally {
      await store.close();
    }
    const { code, data } = await json(['--as', 'operator', '/audit target:capped- export:true'], '', capped);
    expect(code).toBe(0);
    const audit = data as AuditData;
    expect([audit.total, audit.totalCapped]).toEqual([COUNT_CAP, true]);
    expect(audit.entries.map((entry) => entry.target)).toEqual(
      Array.from({ length: 10 }, (_, n) => `capped-${COUNT_CAP - n}.example`),
    );
    expect(audit.export).toEqual({
      file: 'hostops-audit.csv',
      rows: COUNT_CAP,
      total: COUNT_CAP,
      totalCapped: true,
    });
    // Below the cap the count is exact.
    const below = await json(['--as', 'operator', '/audit target:capped-1'], '', capped);
    expect(below.data).toMatchObject({ total: 1 + 10 + 100 + 1000 + 1, totalCapped: false });
  });
});

describe('console --json: /watch', { timeout: 60_000 }, () => {
  it('add (with what the look-up of the new domains found), list, check and remove as data', async () => {
    const expiries: Record<string, string> = {
      'w-soon.example': '2026-12-01',
      'w-late.example': '2031-01-01',
    };
    api.respond('domainInfo', (request) => {
      const expirydate = expiries[request.param ?? ''];
      return expirydate
        ? { body: { expirydate, active: 'true', expired: 'false', transferredAway: 'false' } }
        : { status: 404, body: { error: 'not found' } };
    });
    const added = await json([
      '--as',
      'operator',
      '/watch add domains:"w-late.example w-soon.example bad_name"',
    ]);
    expect(added.code).toBe(0);
    expect(added.data).toMatchObject({
      added: ['w-late.example', 'w-soon.example'],
      alreadyWatched: [],
      invalid: [{ input: 'bad_name' }],
      watching: 2,
      lookedUp: {
        failed: 0,
        // Soonest expiry first.
        domains: [
          { domain: 'w-soon.example', expires: '2026-12-01', status: 'ok', daysLeft: expect.any(Number) },
          { domain: 'w-late.example', expires: '2031-01-01', status: 'ok', daysLeft: expect.any(Number) },
        ],
      },
    });
    const list = await json(['/watch list']);
    expect(list.data).toMatchObject({ total: 2, offset: 0 });
    const [first] = (list.data as { domains: { checkedAt: string; active: boolean }[] }).domains;
    expect(first).toMatchObject({ domain: 'w-soon.example', active: true, transferredAway: false });
    expect(first?.checkedAt).toMatch(ISO_INSTANT);
    const check = await json(['--as', 'operator', '/watch check']);
    expect(check.data).toMatchObject({
      checked: 2,
      failed: 0,
      outcome: 'ok',
      durationMs: expect.any(Number),
    });
    const removed = await json(['--as', 'operator', '/watch remove domains:"w-late.example never.example"']);
    expect(removed.data).toEqual({
      removed: ['w-late.example'],
      notWatched: ['never.example'],
      invalid: [],
      watching: 1,
    });
  });
});
