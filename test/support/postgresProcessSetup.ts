// A process test file on a shared PostgreSQL store: the fakes, a database of the file's own and the test's
// reader of it, opened before the file's tests and closed after them (spawned bots killed first).
import { afterAll, beforeAll, inject } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { type Fakes, killSpawned, startFakes } from './spawnBot.js';
import { createDatabase } from './startPostgres.js';

export interface PostgresProcessSetup {
  readonly fakes: Fakes;
  readonly store: Store;
  readonly databaseUrl: string;
}

/** Registers the file's beforeAll and afterAll; read the fields inside tests. */
export function postgresProcessSetup(name: string): PostgresProcessSetup {
  let fakes: Fakes | undefined;
  let store: Store | undefined;
  let databaseUrl: string | undefined;
  beforeAll(async () => {
    fakes = await startFakes();
    databaseUrl = await createDatabase(inject('postgresUrl'), name);
    store = await openStore(databaseUrl);
  }, 30_000);
  afterAll(async () => {
    await killSpawned();
    await store?.close();
    await fakes?.stop();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('postgresProcessSetup: read inside a test, after beforeAll');
    return value;
  };
  return {
    get fakes() {
      return ready(fakes);
    },
    get store() {
      return ready(store);
    },
    get databaseUrl() {
      return ready(databaseUrl);
    },
  };
}
