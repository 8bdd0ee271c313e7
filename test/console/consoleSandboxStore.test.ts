// On the sandbox HostOps keeps a throwaway store of its own, whatever DATABASE_URL says (the team's .env
// may name production): made-up DNS sets, watch findings, sealed licence keys and `done` audit entries
// never land in a real store. Console processes on both engines, the real store read back afterwards.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { ALL_STATES } from '../support/changeStates.js';
import { runConsoleProcess } from '../support/consoleProcess.js';
import { createDatabase } from '../support/startPostgres.js';

const tmp = mkdtempSync(join(tmpdir(), 'hostops-sandbox-store-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const LICENSE = 'SANDBOXLICENSE-4321';

const engines = [
  { engine: 'sqlite', freshUrl: async () => `sqlite:${join(tmp, 'production.db')}` },
  { engine: 'postgres', freshUrl: () => createDatabase(inject('postgresUrl'), 'sandbox_store') },
] as const;

/** Everything HostOps writes, counted in the store at `url`. */
async function rowsIn(url: string) {
  const store = await openStore(url);
  try {
    return {
      changes: (await store.changes.listByState(ALL_STATES, 1000)).length,
      audit: (await store.audit.query({}, { limit: 1, offset: 0 })).total,
      dnsSets: (await store.dnsSets.all()).length,
      watched: await store.watch.count(),
      alerts: (await store.watch.alerts()).length,
      replicas: (await store.replicas.live(new Date(0))).length,
    };
  } finally {
    await store.close();
  }
}

const NONE = { changes: 0, audit: 0, dnsSets: 0, watched: 0, alerts: 0, replicas: 0 };

describe.each(engines)('a console on the sandbox with DATABASE_URL set ($engine)', ({ engine, freshUrl }) => {
  it('writes nothing to that store, and its notice says the store is a throwaway one', {
    timeout: 90_000,
  }, async () => {
    const databaseUrl = await freshUrl();
    // The real store exists, schema and all, as production's would.
    expect(await rowsIn(databaseUrl)).toEqual(NONE);
    const cwd = mkdtempSync(join(tmp, `${engine}-`));
    // No HOSTING_API_URL: the sandbox, as a console started from the team's checkout would run.
    const env = { DATABASE_URL: databaseUrl };
    const run = (args: string[], input = '') =>
      runConsoleProcess(['--as', 'admin', ...args], { cwd, env, input });

    const dns = await run(['--yes', '/domain dns example.com records:"www 3600 A 203.0.113.7"']);
    expect(dns.stderr).toBe('');
    expect(dns.code).toBe(0);
    expect(dns.stdout).toContain('DNS records submitted');
    expect(dns.stdout).toContain('kept in a throwaway store of its own (`DATABASE_URL` is not used)');

    const watch = await run(['--json', '/watch add domains:example.com']);
    expect(watch.code).toBe(0);
    expect(JSON.parse(watch.stdout)).toMatchObject({ added: ['example.com'] });
    // --json: the notice beside the data, on stderr.
    expect(watch.stderr).toContain('throwaway store');
    expect(watch.stderr).toContain('`DATABASE_URL` is not used');

    // A licence key is sealed while its prompt is open: with the sandbox's key (from an empty token), but
    // only ever in the sandbox's own store.
    const bind = await run([`/panel bind ${LICENSE} 203.0.113.7`]);
    expect(bind.code).toBe(4);
    expect(bind.stdout).toContain(LICENSE);

    // Within one session the throwaway store works: what was sent is remembered.
    const session = await run(
      [],
      [
        '/domain dns example.com records:"www 3600 A 203.0.113.8"',
        'confirm',
        '/domain records example.com',
        '/watch check',
        'exit',
        '',
      ].join('\n'),
    );
    expect(session.code).toBe(0);
    expect(session.stdout).toContain(
      'the SANDBOX API (made-up data, in a throwaway store: DATABASE_URL is not used)',
    );
    expect(session.stdout).toContain('www 3600 A 203.0.113.8');
    expect(session.stdout).toMatch(/1 record, sent/);

    expect(await rowsIn(databaseUrl)).toEqual(NONE);
    if (engine === 'sqlite') {
      const path = databaseUrl.replace(/^sqlite:/, '');
      const bytes = [path, `${path}-wal`]
        .filter((file) => existsSync(file))
        .map((file) => readFileSync(file).toString('latin1'))
        .join('');
      expect(bytes).not.toContain('example.com');
      expect(bytes).not.toContain(LICENSE.slice(-4));
    }
  });
});
