// /domain info shows each registry field on one line (issue 49, point 12): in the built console on the
// sandbox (whose made-up registry answers), and in the embed fields Discord gets.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { registryFields } from '../../commands/domain/registryBeside.js';
import { translator } from '../../src/i18n/Translator.js';
import type { RegistryBeside } from '../../src/rdap/registryData.js';
import { runConsoleProcess } from '../support/consoleProcess.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('/domain info, the registry fields', { timeout: 60_000 }, () => {
  it.each([
    [
      'C',
      'Registry: expires: ',
      /^ {2}Registry: expires: 2\d{3}-\d\d-\d\d · read .+ · Provider's date read .+$/,
    ],
    [
      'de_DE.UTF-8',
      'Registry: läuft ab: ',
      /^ {2}Registry: läuft ab: \d\d\.\d\d\.2\d{3} · gelesen .+ · Datum des Providers gelesen .+$/,
    ],
  ])('LANG=%s: one line per field in the console', async (lang, name, line) => {
    const dir = mkdtempSync(join(tmpdir(), 'hostops-domain-info-'));
    dirs.push(dir);
    const run = await runConsoleProcess(['/domain info example.com'], {
      cwd: dir,
      env: { LANG: lang, HOSTING_API_URL: 'sandbox', RDAP_CHECK: 'on' },
    });
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    const registry = lines.filter((l) => l.includes(name));
    expect(registry).toHaveLength(1);
    expect(registry[0]).toMatch(line);
    // Every line of the answer is a field of its own: nothing continues one on the next line.
    expect(lines.filter((l) => /^ {3,}\S/.test(l))).toEqual([]);
  });

  const readAt = new Date('2026-11-22T09:00:00Z');
  const views: [string, RegistryBeside][] = [
    [
      'answered',
      {
        record: {
          domain: 'example.com',
          readAt,
          outcome: 'ok',
          server: 'https://rdap.example',
          expiresAt: '2027-07-01T00:00:00Z',
          statuses: ['client transfer prohibited'],
          nameservers: ['ns1.example.net'],
          delegationSigned: false,
          flags: [],
          watched: false,
          version: 1,
        },
        providerReadAt: readAt,
      },
    ],
    ['still asking', { record: undefined, pending: true, providerReadAt: readAt }],
    ['not asked', { record: undefined, failed: 'timeout', providerReadAt: readAt }],
  ];
  it.each(views)('%s: every embed field is one line, in English and German', (_what, view) => {
    for (const locale of ['en', 'de'] as const) {
      const fields = registryFields(view, '2027-06-30', 'Europe/Berlin', translator(locale));
      expect(fields.length).toBeGreaterThan(0);
      for (const field of fields) expect(field.value, `${locale} ${field.name}`).not.toContain('\n');
    }
  });
});
