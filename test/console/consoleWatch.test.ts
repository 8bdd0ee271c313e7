// The console has the domain watch (issue 23): /watch add, list and remove work on the store without
// WATCH_CHANNEL_ID, and /watch check runs the watch and prints its digest on stdout, against the fake API.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { runConsoleProcess } from '../support/consoleProcess.js';
import { FakeHostingApi } from '../support/FakeHostingApi.js';

let api: FakeHostingApi;
let dir: string;
let env: Record<string, string>;
beforeAll(async () => {
  api = await FakeHostingApi.start();
  dir = mkdtempSync(join(tmpdir(), 'hostops-console-watch-'));
  env = {
    HOSTING_API_URL: api.url,
    HOSTING_API_TOKEN: api.token,
    DATABASE_URL: `sqlite:${join(dir, 'hostops.db')}`,
  };
});
afterAll(async () => {
  await api?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const run = (...args: string[]) => runConsoleProcess(args, { cwd: dir, env });

describe('console, the domain watch', { timeout: 60_000 }, () => {
  it('adds, lists and removes watched domains without WATCH_CHANNEL_ID, then /watch check prints the digest', async () => {
    const added = await run('--as', 'operator', '/watch add domains:"a.example b.example c.example"');
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.stdout).not.toContain('WATCH_CHANNEL_ID');
    expect(added.stdout).toContain('3 domains added, 0 already watched, 0 invalid');

    const removed = await run('--as', 'operator', '/watch remove c.example');
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain('1 domain removed, 0 not watched, 0 invalid');

    const listed = await run('/watch list');
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('a.example');
    expect(listed.stdout).toContain('b.example');
    expect(listed.stdout).not.toContain('c.example');

    // a.example now expires in two days (in the API's zone): the 3-day threshold alerts, once; b.example
    // stays as the fake API's default has it.
    const soon = DateTime.now().setZone('Europe/Berlin').startOf('day').plus({ days: 2 }).toISODate();
    api.respond('domainInfo', (request) => ({
      body: {
        expirydate: request.param === 'a.example' ? soon : '2027-06-30',
        active: 'true',
        expired: 'false',
        transferredAway: 'false',
      },
    }));
    const lookupsBefore = api.requestsFor('domainInfo').length;
    const checked = await run('--as', 'operator', '/watch check');
    expect(checked.stderr).toBe('');
    expect(checked.code).toBe(0);
    expect(api.requestsFor('domainInfo').length - lookupsBefore).toBe(2);
    // The digest, on stdout where Discord would have had it, then the check's own answer.
    expect(checked.stdout).toContain('Domain watch: 1 alert');
    expect(checked.stdout).toContain(`⏰ a.example expires in 2 days`);
    expect(checked.stdout).not.toContain('b.example');
    expect(checked.stdout).toContain('Checked 2 domains');
    expect(checked.stdout.indexOf('Domain watch: 1 alert')).toBeLessThan(checked.stdout.indexOf('Checked 2'));

    // An alert goes out once: a second check has nothing new.
    const again = await run('--as', 'operator', '/watch check');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).not.toContain('Domain watch: 1 alert');
    expect(again.stdout).toContain('Nothing new to report.');

    // A viewer may list but not check.
    const refused = await run('/watch check');
    expect(refused.code).toBe(3);

    // Every one of them is in the audit trail as it ended, none as a failure.
    const store = await openStore(env.DATABASE_URL ?? '');
    try {
      const { rows } = await store.audit.query({ command: 'watch' }, { limit: 20, offset: 0 });
      expect(rows.map((row) => [row.subcommand, row.outcome]).reverse()).toEqual([
        ['add', 'ok'],
        ['remove', 'ok'],
        ['list', 'ok'],
        ['check', 'ok'],
        ['check', 'ok'],
        ['check', 'refused'],
      ]);
    } finally {
      await store.close();
    }
  });

  it('gives the expiry calendar as data (--json) and writes its file (--out), the same entries', async () => {
    api.respond('domainInfo', () => ({
      body: { expirydate: '2027-06-30', active: 'true', expired: 'false', transferredAway: 'false' },
    }));
    expect((await run('--as', 'operator', '/watch check')).code).toBe(0);
    const json = await run('--json', '/watch calendar');
    expect(json.code, json.stderr).toBe(0);
    const data = JSON.parse(json.stdout) as { events: { uid: string; date: string }[]; withoutDate: number };
    expect(data.withoutDate).toBe(0);
    expect(data.events.map((e) => [e.uid, e.date])).toEqual([
      ['expiry-a.example@hostops', '2027-06-30'],
      ['expiry-b.example@hostops', '2027-06-30'],
    ]);

    const out = join(dir, 'expiry.ics');
    const written = await run('/watch calendar', '--out', out);
    expect(written.code, written.stderr).toBe(0);
    expect(written.stderr).toContain(`Wrote hostops-expiry.ics to ${out}.`);
    // Named, not printed as well.
    expect(written.stdout).not.toContain('BEGIN:VCALENDAR');
    const ics = readFileSync(out, 'utf8');
    const uids = [...ics.matchAll(/^UID:(.+)$/gm)].map((m) => m[1]?.trim());
    expect(uids).toEqual(data.events.map((e) => e.uid));

    // An answer with no file writes nothing, and says so.
    const none = await run('/watch list', '--out', join(dir, 'none.ics'));
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('the answer attaches no file');
    expect(existsSync(join(dir, 'none.ics'))).toBe(false);
  });
});
