import { sql } from 'kysely';
import type { Engine } from './schema.js';

/**
 * The store's clock in epoch milliseconds, as SQL: what every time two processes compare is judged by
 * (leases, open forms, deadlines due), since their local clocks may disagree. PostgreSQL's server clock;
 * SQLite's is the host's own, which is the only host that can open the file.
 */
export function storeClockMs(engine: Engine) {
  return engine === 'postgres'
    ? sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`
    : sql<number>`cast((julianday('now') - 2440587.5) * 86400000 as integer)`;
}
