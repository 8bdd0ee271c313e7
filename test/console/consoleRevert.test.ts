// The console reverts the last DNS change of a domain (issue 24): `--revert DOMAIN` presses Revert on the
// domain's last public record, which opens the ordinary prompt for the set sent before it — difference,
// --yes, the approval refusal where APPROVAL_REQUIRED lists `domain dns`, journal and audit — against the
// fake hosting API, through the built console.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { runConsoleProcess } from '../support/consoleProcess.js';
import { FakeHostingApi } from '../support/FakeHostingApi.js';

let api: FakeHostingApi;
let dir: string;
let env: Record<string, string>;
beforeAll(async () => {
  api = await FakeHostingApi.start();
  dir = mkdtempSync(join(tmpdir(), 'hostops-console-revert-'));
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

const run = (args: string[], extra: { input?: string; env?: Record<string, string> } = {}) =>
  runConsoleProcess(args, { cwd: dir, env: { ...env, ...extra.env }, input: extra.input ?? '' });

/** The records each submitDnsRecords request carried, as sent. */
const sentSets = () =>
  api.requestsFor('submitDnsRecords').map((request) => JSON.parse(request.query.get('records') ?? 'null'));

const FIRST = 'www 3600 A 203.0.113.7\n@ MX 10 mail.example.com.';
const SECOND = 'www 3600 A 203.0.113.8\n@ MX 10 mail.example.com.';

describe('console, --revert', { timeout: 90_000 }, () => {
  it('reverts the last DNS change of a domain like the Revert button: gates, preview, --yes, journal and audit', async () => {
    // Nothing sent for the domain yet: nothing to revert, nothing called.
    const none = await run(['--as', 'operator', '--yes', '--revert', 'example.com']);
    expect(none.code).toBe(4);
    expect(none.stderr).toContain('no DNS record set was sent for example.com through HostOps');

    for (const records of [FIRST, SECOND]) {
      const sent = await run(['--as', 'operator', '--yes', '/domain dns example.com'], { input: records });
      expect(sent.stderr).toBe('');
      expect(sent.code).toBe(0);
    }
    expect(sentSets()).toHaveLength(2);
    const [first, second] = sentSets();
    expect(first).not.toEqual(second);

    // A viewer may not: refused, as the button is, with no API call.
    const viewer = await run(['--revert', 'example.com']);
    expect(viewer.code).toBe(3);
    expect(viewer.stderr).toContain('`/domain dns` needs the operator tier');

    // Without --yes: the prompt's preview, with the difference to the set it replaces; nothing sent.
    const preview = await run(['--as', 'operator', '--revert', 'example.com']);
    expect(preview.code).toBe(4);
    expect(preview.stdout).toContain('203.0.113.8');
    expect(preview.stdout).toMatch(/~ .*203\.0\.113\.8/);
    expect(preview.stdout).toMatch(/→ .*203\.0\.113\.7/);
    expect(preview.stderr).toContain('Run it again with --yes');
    expect(sentSets()).toHaveLength(2);

    // Under APPROVAL_REQUIRED the console refuses before any prompt, as it does the typed command: the
    // second person approves in Discord.
    const held = await run(['--as', 'operator', '--yes', '--revert', 'example.com'], {
      env: { APPROVAL_REQUIRED: 'domain dns' },
    });
    expect(held.code).toBe(3);
    expect(held.stderr).toContain('`/domain dns` needs a second person to approve it (APPROVAL_REQUIRED)');
    expect(held.stdout).toBe('');
    expect(sentSets()).toHaveLength(2);

    // With --yes: exactly the first set is sent again, once.
    const reverted = await run(['--as', 'operator', '--yes', '--revert', 'example.com']);
    expect(reverted.stderr).toBe('');
    expect(reverted.code).toBe(0);
    expect(reverted.stdout).toContain('DNS records submitted');
    expect(sentSets()).toEqual([first, second, first]);

    // A revert can itself be reverted: back to the second set.
    const again = await run(['--as', 'operator', '--yes', '--revert', 'example.com']);
    expect(again.code, again.stderr).toBe(0);
    expect(sentSets()).toEqual([first, second, first, second]);

    // A domain with one set has nothing before it: said, nothing sent.
    const single = await run(['--as', 'operator', '--yes', '/domain dns example.net'], { input: FIRST });
    expect(single.code, single.stderr).toBe(0);
    const nothingBefore = await run(['--as', 'operator', '--yes', '--revert', 'example.net']);
    expect(nothingBefore.code).toBe(4);
    expect(sentSets()).toHaveLength(5);

    // A malformed name is invalid input.
    const invalid = await run(['--as', 'operator', '--revert', 'exa_mple..com']);
    expect(invalid.code).toBe(2);

    // Journal and audit as for any change: the console actor, refusals with their gate.
    const store = await openStore(env.DATABASE_URL ?? '');
    try {
      const { rows } = await store.audit.query(
        { command: 'domain', subcommand: 'dns' },
        { limit: 20, offset: 0 },
      );
      // The refused presses name no target: a gate said no before the change was looked at (tier), or
      // before its prompt (approval), as for the typed command.
      expect(rows.map((row) => [row.outcome, row.detail, row.target]).reverse()).toEqual([
        ['done', null, 'example.com'],
        ['done', null, 'example.com'],
        ['refused', 'tier', null],
        ['cancelled', null, 'example.com'],
        ['refused', 'approval', null],
        ['done', null, 'example.com'],
        ['done', null, 'example.com'],
        ['done', null, 'example.net'],
        ['ok', 'nothing to revert to', null],
      ]);
      expect(new Set(rows.map((row) => row.userName))).toEqual(new Set([expect.stringMatching(/^console:/)]));
      const latest = await store.dnsSets.latest('example.com');
      expect(JSON.parse(latest?.records ?? '[]')).toEqual(second);
    } finally {
      await store.close();
    }
  });

  it('interactive: `revert example.com` opens the prompt, `confirm` sends the set before', async () => {
    const before = sentSets();
    const session = await run(['--as', 'operator'], {
      input: ['revert nothing.example', 'revert example.com', 'confirm', 'exit', ''].join('\n'),
    });
    expect(session.stderr).toBe('');
    expect(session.code).toBe(0);
    expect(session.stdout).toContain('no DNS record set was sent for nothing.example through HostOps');
    expect(session.stdout).toContain('DNS records submitted');
    // Back from the second set (the last one sent) to the first.
    expect(sentSets()).toEqual([...before, before[0]]);
  });
});
