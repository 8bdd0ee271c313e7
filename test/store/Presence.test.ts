import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openStore, Presence } from '../../src/store/index.js';
import { captureLogs } from '../support/captureLogs.js';

const tmp = mkdtempSync(join(tmpdir(), 'hostops-presence-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

it('a replica counts itself alive even when its own heartbeat is missing from the store', async () => {
  const store = await openStore(`sqlite:${join(tmp, 'presence.db')}`);
  const presence = await Presence.start(store, 'me', captureLogs().logger, 'presence.db');
  try {
    expect(await presence.live()).toEqual(['me']);
    // A heartbeat that did not land (a store hiccup) or a row cleaned away: still alive to itself.
    await store.replicas.remove('me');
    expect(await presence.live()).toEqual(['me']);
  } finally {
    await presence.stop();
    await store.close();
  }
});
