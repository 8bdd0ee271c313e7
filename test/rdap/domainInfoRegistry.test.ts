// /domain info and /domain expiry with the registry's word beside the provider's, through the built
// console (what `npm run console` runs): a fake registry over HTTPS whose test CA the process trusts only
// through NODE_EXTRA_CA_CERTS, the fake hosting API, and a store of its own per run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ConsoleRun, runConsoleProcess } from '../support/consoleProcess.js';
import { FakeHostingApi } from '../support/FakeHostingApi.js';
import { bootstrapFile, domainObject, FakeRdapServer } from '../support/FakeRdapServer.js';
import { makeTestCa, type TestCa } from '../support/testCa.js';

let ca: TestCa;
let api: FakeHostingApi;
let registry: FakeRdapServer;
let dir: string;
let runs = 0;

beforeAll(async () => {
  ca = makeTestCa();
  dir = mkdtempSync(join(tmpdir(), 'hostops-rdap-console-'));
  [api, registry] = await Promise.all([FakeHostingApi.start(), FakeRdapServer.start(ca)]);
});
afterAll(async () => {
  await Promise.all([api?.stop(), registry?.stop()]);
  ca?.dispose();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  api.reset();
  registry.reset();
  api.respond('domainInfo', () => ({
    body: { expirydate: '2031-01-10', active: 'true', expired: 'false', transferredAway: 'false' },
  }));
  registry.responder = (path) =>
    path === '/dns.json' ? { body: bootstrapFile([[['alpha'], [registry.base]]]) } : undefined;
  registry.domains.set('differ.alpha', {
    body: domainObject('differ.alpha', {
      expires: '2030-12-01T12:00:00Z',
      status: ['active', 'client hold'],
    }),
  });
  registry.domains.set('same.alpha', {
    body: domainObject('same.alpha', { expires: '2031-01-10T12:00:00Z' }),
  });
});

function consoleRun(args: string[], env: Record<string, string> = {}): Promise<ConsoleRun> {
  return runConsoleProcess(args, {
    cwd: dir,
    env: {
      HOSTING_API_URL: api.url,
      HOSTING_API_TOKEN: api.token,
      DATABASE_URL: `sqlite:${join(dir, `store-${++runs}.db`)}`,
      RDAP_CHECK: 'on',
      RDAP_BOOTSTRAP_URL: `${registry.origin}/dns.json`,
      RDAP_MIN_INTERVAL_MS: '0',
      NODE_EXTRA_CA_CERTS: ca.caFile,
      ...env,
    },
  });
}

const domainPaths = () => registry.paths.filter((p) => p.includes('/domain/'));

describe('/domain info and /domain expiry beside the registry', { timeout: 60_000 }, () => {
  it('--json: the registry’s expiry, status and nameservers, with when each side was read', async () => {
    const { code, stdout, stderr } = await consoleRun(['--json', '/domain info differ.alpha']);
    expect(code, stderr).toBe(0);
    const data = JSON.parse(stdout) as Record<string, unknown>;
    expect(data).toMatchObject({
      domain: 'differ.alpha',
      expires: '2031-01-10',
      registry: {
        outcome: 'ok',
        expires: '2030-12-01',
        statuses: ['active', 'client hold'],
        nameservers: ['ns1.example.net', 'ns2.example.net'],
        delegationSigned: false,
        readAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        providerReadAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    });
    expect(domainPaths()).toEqual(['/rdap/domain/differ.alpha']);
  });

  it('shows both dates in English and German, and says when a registry offers no RDAP', async () => {
    const english = await consoleRun(['/domain info differ.alpha']);
    expect(english.code, english.stderr).toBe(0);
    expect(english.stdout).toContain('Registry: expires');
    expect(english.stdout).toContain("2030-12-01 ⚠️ differs from the provider's date");
    expect(english.stdout).toContain('active, client hold');
    const german = await consoleRun(['/domain info differ.alpha'], { LANG: 'de_DE.UTF-8', BOT_LOCALE: 'de' });
    expect(german.code, german.stderr).toBe(0);
    expect(german.stdout).toContain('Registry: läuft ab');
    expect(german.stdout).toContain('01.12.2030 ⚠️ weicht vom Datum des Providers ab');
    const none = await consoleRun(['/domain info example.zzz']);
    expect(none.stdout).toContain("the registry offers no RDAP: only the provider's date");
    const expiry = await consoleRun(['/domain expiry "differ.alpha same.alpha example.zzz"']);
    expect(expiry.code, expiry.stderr).toBe(0);
    expect(expiry.stdout).toMatch(
      /differ\.alpha.*Registry: expires 2030-12-01 ⚠️ differs.*Registry: status: client hold/,
    );
    expect(expiry.stdout).toMatch(/example\.zzz.*the registry offers no RDAP/);
    expect(expiry.stdout).not.toMatch(/same\.alpha.*Registry/);
  });

  it('without the CA in the trust store the registry is not believed; with RDAP_CHECK=off it is not asked', async () => {
    const untrusted = await consoleRun(['--json', '/domain info same.alpha'], { NODE_EXTRA_CA_CERTS: '' });
    expect(untrusted.code, untrusted.stderr).toBe(0);
    // Even the bootstrap file is refused over TLS: no request reaches the fake, the answer says why.
    expect(JSON.parse(untrusted.stdout)).toMatchObject({
      expires: '2031-01-10',
      registry: { outcome: 'not_asked', failed: 'no_bootstrap' },
    });
    expect(registry.paths).toEqual([]);
    registry.paths.length = 0;
    const off = await consoleRun(['--json', '/domain info same.alpha'], { RDAP_CHECK: 'off' });
    expect(off.code, off.stderr).toBe(0);
    expect(JSON.parse(off.stdout)).not.toHaveProperty('registry');
    expect(registry.paths).toEqual([]);
  });
});
