// The sandbox's made-up registry: what the console shows without network, disagreeing with the sandbox's
// provider on purpose, through the real RDAP client (plain http: its bootstrap URL is http).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import type { RegistryCheck } from '../../src/rdap/RegistryCheck.js';
import { registryDate } from '../../src/rdap/registryFindings.js';
import { createRegistryCheck } from '../../src/runtime/createRegistryCheck.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { captureLogs } from '../support/captureLogs.js';

let sandbox: Sandbox;
let store: Store;
let registry: RegistryCheck;

beforeAll(async () => {
  sandbox = await startSandbox({ timeZone: 'Europe/Berlin' });
  store = await openStore('sqlite::memory:');
  const config = parseConfig({
    DISCORD_TOKEN: 'x',
    DISCORD_GUILD_ID: '300000000000000001',
    HOSTING_API_URL: 'sandbox',
  });
  registry = createRegistryCheck({
    config,
    store,
    logger: captureLogs().logger,
    sandboxBootstrapUrl: sandbox.registryBootstrapUrl,
  }) as RegistryCheck;
});
afterAll(async () => {
  await registry?.close();
  await store?.close();
  await sandbox?.close();
});

describe('the sandbox registry', () => {
  it('answers as the provider does, but for the disagreements it is made to show', async () => {
    const provider = (name: string) => sandbox.state.domains.get(name)?.expiryDate ?? '';
    const same = await registry.ask('example.com');
    expect(same).toMatchObject({ kind: 'ok', statuses: ['client transfer prohibited'] });
    if (same.kind === 'ok')
      expect(registryDate(same.expiresAt ?? '', 'Europe/Berlin')).toBe(provider('example.com'));
    const shop = await registry.ask('shop.example');
    expect(shop.kind).toBe('ok');
    if (shop.kind === 'ok') {
      const days =
        (Date.parse(provider('shop.example')) -
          Date.parse(registryDate(shop.expiresAt ?? '', 'Europe/Berlin'))) /
        86_400_000;
      expect(days).toBe(20);
    }
    expect(await registry.ask('moved-away.example')).toMatchObject({
      statuses: ['active', 'pending transfer'],
    });
    expect(await registry.ask('old-brand.example')).toMatchObject({ statuses: ['redemption period'] });
    expect(await registry.ask('staging.test')).toEqual({ kind: 'no_rdap' });
    expect(await registry.ask('nothing-here.example')).toMatchObject({ kind: 'not_found' });
  });
});
