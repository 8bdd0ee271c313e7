// The console acts as a Discord user with roles (issue 50): `--as USER_ID --roles ID,…` so grants can be
// tried without Discord — the same gate decides, a refusal makes no API call, and /access explain answers
// for that user with those roles. Through the built console, against the fake hosting API, with grants
// made by the console's admin in a store of its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConsoleProcess } from '../support/consoleProcess.js';
import { FakeHostingApi } from '../support/FakeHostingApi.js';

const SUPPORT_ROLE = '200000000000000071';
const USER = '100000000000000072';

let api: FakeHostingApi;
let dir: string;
let env: Record<string, string>;
beforeAll(async () => {
  api = await FakeHostingApi.start();
  dir = mkdtempSync(join(tmpdir(), 'hostops-console-grants-'));
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

const run = (args: string[]) => runConsoleProcess(args, { cwd: dir, env, input: '' });
const asSupport = (command: string) => run(['--as', USER, '--roles', SUPPORT_ROLE, command]);

describe('console, --as USER_ID --roles', { timeout: 90_000 }, () => {
  it('decides by the grants of that user and those roles, and /access explain agrees', async () => {
    for (const grant of [
      `/access grant who:role:${SUPPORT_ROLE} what:"domain info" on:"*.acme.example server:100-199"`,
      `/access grant who:<@${USER}> what:"access explain" on:*`,
    ]) {
      const made = await run(['--as', 'admin', '--yes', grant]);
      expect(made.stderr).toBe('');
      expect(made.code).toBe(0);
    }
    const list = await run(['--as', 'admin', `/access list who:role:${SUPPORT_ROLE}`]);
    expect(list.stdout).toContain('*.acme.example');
    expect(list.stdout).not.toContain('access explain');

    // Inside: answered from the API.
    const inside = await asSupport('/domain info domain:shop.acme.example');
    expect(inside.code).toBe(0);
    expect(api.requestsFor('domainInfo').map((r) => r.param)).toEqual(['shop.acme.example']);

    // Outside: refused, naming what would allow it, with no API call.
    const outside = await asSupport('/domain info domain:shop.other.example');
    expect(outside.code).toBe(3);
    expect(outside.stderr).toContain('`shop.other.example` is outside your grants');
    expect(api.requestsFor('domainInfo')).toHaveLength(1);

    // The same user without the role: nothing of it.
    const bare = await run(['--as', USER, '/domain info domain:shop.acme.example']);
    expect(bare.code).toBe(3);
    expect(api.requestsFor('domainInfo')).toHaveLength(1);

    // /access explain, for the user --as names, with the roles of --roles: the same decisions.
    const allowed = await asSupport(
      `/access explain user:${USER} command:"domain info" target:shop.acme.example`,
    );
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain('may run `/domain info` `shop.acme.example`, by this grant');
    expect(allowed.stdout).toContain('*.acme.example');
    const denied = await asSupport(
      `/access explain user:${USER} command:"domain info" target:shop.other.example`,
    );
    expect(denied.code).toBe(0);
    expect(denied.stdout).toContain('may not run `/domain info` `shop.other.example`');
    const server = await asSupport(`/access explain user:${USER} command:"domain info" target:server:150`);
    expect(server.stdout).toContain('may run');
    expect(api.requestsFor('domainInfo')).toHaveLength(1);
  });

  it('refuses an --as that is neither a tier nor a user id, and --roles that are not ids', async () => {
    const as = await run(['--as', 'root', '/help']);
    expect(as.code).toBe(2);
    expect(as.stderr).toContain('--as takes one of viewer, operator, admin, or a Discord user id');
    const roles = await run(['--as', USER, '--roles', 'support', '/help']);
    expect(roles.code).toBe(2);
    expect(roles.stderr).toContain('--roles takes Discord role ids, comma-separated');
  });
});
