// The console as built (what `npm run console` runs) on the sandbox, with RDAP_CHECK on: the sandbox's
// made-up registry shows the feature without network. RDAP_BOOTSTRAP_URL points at a closed port, so an
// answer from any registry but the sandbox's own could not come.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { afterAll, describe, expect, it } from 'vitest';
import { runConsoleProcess } from '../support/consoleProcess.js';

const cwd = mkdtempSync(join(tmpdir(), 'hostops-sandbox-rdap-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

const run = (args: string[]) =>
  runConsoleProcess(args, {
    cwd,
    env: { RDAP_CHECK: 'on', RDAP_BOOTSTRAP_URL: 'https://127.0.0.1:1/dns.json' },
  });

describe('the console on the sandbox, beside its made-up registry', { timeout: 60_000 }, () => {
  it('--json: the registry’s date 20 days before the provider’s for shop.example', async () => {
    const { code, stdout, stderr } = await run(['--json', '/domain info shop.example']);
    expect(code, stderr).toBe(0);
    const data = JSON.parse(stdout) as { expires: string; registry: { outcome: string; expires: string } };
    expect(data.registry.outcome).toBe('ok');
    const days = DateTime.fromISO(data.expires).diff(DateTime.fromISO(data.registry.expires), 'days').days;
    expect(days).toBe(20);
  });

  it('shows a transfer pending at the registry, and a TLD whose registry has no RDAP', async () => {
    const moving = await run(['/domain info moved-away.example']);
    expect(moving.code, moving.stderr).toBe(0);
    expect(moving.stdout).toContain('Registry: status');
    expect(moving.stdout).toContain('active, pending transfer');
    const none = await run(['/domain info staging.test']);
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toContain("the registry offers no RDAP: only the provider's date");
  });
});
