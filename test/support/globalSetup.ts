// One PostgreSQL server for the whole vitest run (start-up takes about a second); see startPostgres.ts.
// And an id for the run, so the build the process tests run (built.ts) is made once per run.
import { randomUUID } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { requireSupportedNode } from '../../src/node/requireSupportedNode.js';
import { startPostgres } from './startPostgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the run's PostgreSQL server; pass it to `createDatabase`. */
    postgresUrl: string;
    /** Unique per vitest run. */
    testRunId: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // On an unsupported Node the store tests would crash their workers (Node 20 segfaults in the native
  // SQLite module): the one line every entry point gives, before any test file is loaded.
  requireSupportedNode('npm test');
  project.provide('testRunId', randomUUID());
  const postgres = await startPostgres();
  try {
    project.provide('postgresUrl', postgres.url);
  } catch (error) {
    // vitest only runs the teardown of a setup that returned.
    await postgres.stop();
    throw error;
  }
  return () => postgres.stop();
}
