import { type Kysely, sql } from 'kysely';
import { escapeLike } from './recentTargetsQuery.js';
import type { AuditFilter, Page } from './Store.js';
import type { Database } from './schema.js';

/**
 * Rows per batch of the retention purge, and the pause after each. On SQLite a statement holds the
 * event loop (the driver is synchronous): a batch of 500 is a few milliseconds, so a command arriving
 * during the purge waits that long at most, where one DELETE of 100,000 entries held it for seconds.
 */
export const PURGE_BATCH = 500;
export const PURGE_PAUSE_MS = 20;

/**
 * One page of `/audit` and the count of every match. The page's ids come first, from the matches'
 * (id, at) alone — index entries (`audit_command_at`, `audit_outcome_at`, `audit_at`, …) — and only
 * those rows are read: a page deep in a year of entries skips index entries, not whole rows.
 */
export function auditQueries(db: Kysely<Database>, filter: AuditFilter, page: Page) {
  const matching = auditMatches(db, filter).as('m');
  const pageIds = db
    .selectFrom(matching)
    .select('m.id')
    .orderBy('m.at', 'desc')
    .orderBy('m.id', 'desc')
    .limit(page.limit)
    .offset(page.offset);
  return {
    page: db
      .selectFrom('audit')
      .selectAll()
      .where('id', 'in', pageIds)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc'),
    count: db.selectFrom(matching).select((eb) => eb.fn.countAll<number>().as('total')),
  };
}

/** One batch of the purge: the oldest PURGE_BATCH entries before `cutoff`, one range of `audit_at`. */
export function auditPurgeBatch(db: Kysely<Database>, cutoff: Date) {
  const batch = db
    .selectFrom('audit')
    .select('id')
    .where('at', '<', cutoff.getTime())
    .orderBy('at')
    .limit(PURGE_BATCH);
  return db.deleteFrom('audit').where('id', 'in', batch);
}

/**
 * The (id, at) of every entry that matches. `user:` matches the requester or whoever acted: two index
 * ranges (`audit_user_id_at`, `audit_acted_by_at`) joined by UNION, where one OR over both columns made
 * SQLite read and sort the whole rows of every match.
 */
function auditMatches(db: Kysely<Database>, filter: AuditFilter) {
  const { userId, ...rest } = filter;
  const matching = () => auditWhere(db, rest).select(['id', 'at']);
  if (userId === undefined) return matching();
  return matching()
    .where('user_id', '=', userId)
    .union(matching().where('acted_by_id', '=', userId));
}

function auditWhere(db: Kysely<Database>, filter: Omit<AuditFilter, 'userId'>) {
  let query = db.selectFrom('audit');
  if (filter.command !== undefined) query = query.where('command', '=', filter.command);
  if (filter.subcommand !== undefined) query = query.where('subcommand', '=', filter.subcommand);
  if (filter.outcome !== undefined) query = query.where('outcome', '=', filter.outcome);
  if (filter.since !== undefined) query = query.where('at', '>=', filter.since.getTime());
  if (filter.target !== undefined) {
    // lower() on both sides rather than ILIKE: one spelling for both engines, and the expression
    // PostgreSQL's trigram index (`audit_target_trgm`) is built on. SQLite's lower() folds ASCII letters
    // only, so on SQLite non-ASCII letters match case-sensitively.
    const pattern = `%${escapeLike(filter.target.toLowerCase())}%`;
    query = query.where(sql<boolean>`lower(target) like ${pattern} escape '\\'`);
  }
  return query;
}
