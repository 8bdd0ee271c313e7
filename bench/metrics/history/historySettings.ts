// The history metric's knobs: which engines, at what scale (BENCH_HISTORY_*), and the targets and repeats.
import { FULL_HISTORY, type HistoryScale } from '../../loadHistory.js';

export type Engine = 'sqlite' | 'postgres';
export const ENGINE_NAME: Record<Engine, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };
export const ENGINES = (process.env.BENCH_HISTORY_ENGINES ?? 'sqlite,postgres')
  .split(',')
  .map((e) => e.trim())
  .filter((e): e is Engine => e === 'sqlite' || e === 'postgres');
export const FACTOR = Number(process.env.BENCH_HISTORY_SCALE ?? 1);
/** BENCH_HISTORY_ONLY=purge: the load and the purge alone (to try a change to the purge). */
export const PURGE_ONLY = process.env.BENCH_HISTORY_ONLY === 'purge';
/** BENCH_HISTORY_ONLY=audit: the load and the /audit searches alone (to try a change to /audit). */
export const AUDIT_ONLY = process.env.BENCH_HISTORY_ONLY === 'audit';

const scaled = (n: number) => Math.max(1, Math.round(n * FACTOR));
export const SCALE: HistoryScale =
  FACTOR === 1
    ? FULL_HISTORY
    : {
        ...FULL_HISTORY,
        audit: scaled(FULL_HISTORY.audit),
        expired: scaled(FULL_HISTORY.expired),
        changes: scaled(FULL_HISTORY.changes),
        watched: scaled(FULL_HISTORY.watched),
        journalDomains: scaled(FULL_HISTORY.journalDomains),
        servers: scaled(FULL_HISTORY.servers),
      };

export const DAY_S = 86_400;
export const AUDIT_LIMIT_MS = 100;
export const SUGGEST_LIMIT_MS = 50;
export const WATCH_PAGE_LIMIT_MS = 100;
export const EXPORT_MB_ALLOWANCE = 20;
export const RSS_MB_ALLOWANCE = 15;
/** Repeats of each /audit query (first page, oldest page). */
export const AUDIT_REPEATS = 100;
/** The middle page (not a target) every this many rounds. */
export const MIDDLE_EVERY = 5;
export const EXPORTS = 3;
export const SUGGEST_REPEATS = 8;
export const LAUNCHES = 5;
export const WATCH_API_MS = 50;
export const WATCH_CONCURRENCY = 4;
/** Commands per second while the purge runs (the ack metric's steady rate), and the API's time for each. */
export const PURGE_RATE = 20;
export const PURGE_API_MS = 50;
/** How long commands are sent while the purge runs (it may go on for minutes: it paces itself). */
export const PURGE_WINDOW_MS = 45_000;
/** Each of bare's two windows, before and after HostOps', pooled into one reference. */
export const BARE_WINDOW_MS = 30_000;
export const SAMPLE_MS = 10;
