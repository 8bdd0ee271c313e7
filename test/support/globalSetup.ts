// One PostgreSQL server for the whole vitest run (start-up takes about a second); see startPostgres.ts.
import type { TestProject } from 'vitest/node';
import { startPostgres } from './startPostgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the run's PostgreSQL server; pass it to `createDatabase`. */
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
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
