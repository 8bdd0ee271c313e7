import { type Kysely, sql } from 'kysely';
import type { AuditFilter, Page } from './auditRecords.js';
import { escapeLike } from './recentTargetsQuery.js';
import type { Database, Engine } from './schema.js';
import { indexedUpTo } from './targetIndexer.js';

/**
 * Rows per batch of the retention purge. One DELETE of 100,000 held every command for seconds; on a year
 * of history a batch costs ≈ 1.2 ms plus ≈ 36 µs an entry (≈ 2 ms at 25). On SQLite the batches past the
 * first run on a worker's connection (bulkWriter.ts), off the event loop, but a batch still holds the
 * write lock while it runs, and a command's audit entry arriving then waits for it (busy_timeout) on the
 * event loop: short batches keep that wait short (docs/bench/2026-11-26-purge-batches-off-event-loop.md).
 */
export const PURGE_BATCH = 25;
/** The shortest rest after a batch. */
export const PURGE_PAUSE_MS = 20;
/**
 * After each batch the purge rests this many times as long as the batch took, so it has the store at
 * most 1/(1+PURGE_REST) of the time (0.5 %), however fast the machine, where a fixed 20 ms rest left a
 * command in four waiting behind a batch (docs/bench/2026-11-26-purge-batches-off-event-loop.md). A daily purge of a few thousand entries
 * takes a minute or less; 100,000 take about half an hour on SQLite, in the background.
 */
export const PURGE_REST = 200;
/**
 * The longest rest. A batch that took long because the machine was busy (the worker's round trip, not
 * the store) would otherwise rest for tens of seconds a batch: the purge's length would follow the load,
 * not the work (CI saw three batches outlast 30 s beside a second suite).
 */
export const PURGE_MAX_REST_MS = 5_000;

/** How long the purge rests after a batch that took `batchMs`. */
export function purgeRestMs(batchMs: number): number {
  return Math.min(PURGE_MAX_REST_MS, Math.max(PURGE_PAUSE_MS, PURGE_REST * batchMs));
}

/**
 * One page of `/audit` and the count of its matches. The page's ids come first, from the matches'
 * (id, at) alone — index entries (`audit_command_at`, `audit_outcome_at`, `audit_at`, …) — and only
 * those rows are read: a page deep in a year of entries skips index entries, not whole rows.
 *
 * `page.from: 'oldest'` counts the offset from the oldest match: the page's ids are read in ascending
 * order, so the oldest page of a million matches skips none and needs no count. From the newest end,
 * given `total` (the exact count), the page is read from whichever end of the matches is nearer; without
 * it, from the newest end. `count` counts every match; `countUpTo(n)` stops at n
 * (`select count(*) from (select … limit n)`), whatever the matches.
 */
export function auditQueries(
  db: Kysely<Database>,
  engine: Engine,
  filter: AuditFilter,
  page: Page & { from?: 'newest' | 'oldest' },
  options: AuditQueryOptions = {},
) {
  const { total } = options;
  const matches = () => auditMatches(db, engine, filter, options.targetIndex ?? true).as('m');
  const nearerOldest =
    page.from !== 'oldest' && total !== undefined && total - page.offset - page.limit < page.offset;
  const fromOldest = page.from === 'oldest' || nearerOldest;
  const direction = fromOldest ? 'asc' : 'desc';
  // From the oldest end for a page counted from the newest: the page's rows are the `limit` (fewer on
  // the last page) that have total - offset - limit older matches before them.
  const limit = nearerOldest ? Math.max(0, Math.min(page.limit, total - page.offset)) : page.limit;
  const offset = nearerOldest ? Math.max(0, total - page.offset - page.limit) : page.offset;
  const pageIds = db
    .selectFrom(matches())
    .select('m.id')
    .orderBy('m.at', direction)
    .orderBy('m.id', direction)
    .limit(limit)
    .offset(offset);
  return {
    page: db
      .selectFrom('audit')
      .selectAll()
      .where('id', 'in', pageIds)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc'),
    count: db.selectFrom(matches()).select((eb) => eb.fn.countAll<number>().as('total')),
    countUpTo: (cap: number) =>
      db
        .selectFrom(db.selectFrom(matches()).select('m.id').limit(cap).as('c'))
        .select((eb) => eb.fn.countAll<number>().as('total')),
    fromOldest,
  };
}

export interface AuditQueryOptions {
  /** The count of every match, when known: a page counted from the newest end is then read from the nearer end. */
  total?: number | undefined;
  /** SQLite: find the target's entries through `audit_target_search` (default), or read them all. */
  targetIndex?: boolean;
}

/**
 * SQLite: how many entries hold every trigram of `text`, counted up to TARGET_INDEX_LIMIT, or
 * undefined for text too short to have a trigram. Below the limit the trigram index is the way to
 * them; at it (text that half the trail contains, `example`) reading the window is cheaper: the
 * newest page is then found at once, where the index handed over every candidate to be sorted.
 */
export function targetCandidates(db: Kysely<Database>, text: string) {
  const trigrams = targetTrigrams(text.toLowerCase());
  if (trigrams === undefined) return undefined;
  return sql<{ n: number }>`select count(*) as n from (
    select rowid from audit_target_search where audit_target_search match ${trigrams} limit ${TARGET_INDEX_LIMIT}
  )`.compile(db);
}

export const TARGET_INDEX_LIMIT = 50_000;

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
function auditMatches(db: Kysely<Database>, engine: Engine, filter: AuditFilter, targetIndex: boolean) {
  const { userId, ...rest } = filter;
  const matching = () => auditWhere(db, engine, rest, targetIndex).select(['id', 'at']);
  if (userId === undefined) return matching();
  return matching()
    .where('user_id', '=', userId)
    .union(matching().where('acted_by_id', '=', userId));
}

function auditWhere(
  db: Kysely<Database>,
  engine: Engine,
  filter: Omit<AuditFilter, 'userId'>,
  targetIndex: boolean,
) {
  let query = db.selectFrom('audit');
  if (filter.command !== undefined) query = query.where('command', '=', filter.command);
  if (filter.subcommand !== undefined) query = query.where('subcommand', '=', filter.subcommand);
  if (filter.outcome !== undefined) query = query.where('outcome', '=', filter.outcome);
  if (filter.since !== undefined) query = query.where('at', '>=', filter.since.getTime());
  if (filter.before !== undefined) {
    // A range of the index (`at <=`), then the few entries of that very instant by id.
    const { at, id } = filter.before;
    query = query
      .where('at', '<=', at.getTime())
      .where((eb) => eb.or([eb('at', '<', at.getTime()), eb('id', '<', id)]));
  }
  if (filter.targetExact !== undefined) {
    // A range of `audit_target_exact`, the same expression on both engines.
    query = query.where(sql`lower(target)`, '=', filter.targetExact.toLowerCase());
  }
  if (filter.target !== undefined) {
    // On SQLite, the entries holding every trigram of the text first (`audit_target_search`, 0011);
    // the LIKE below keeps those that contain it. Shorter than a trigram, the LIKE alone reads them.
    const part = filter.target.toLowerCase();
    const trigrams = targetTrigrams(part);
    if (engine === 'sqlite' && targetIndex && trigrams !== undefined) {
      // Entries written in the last seconds are not in the index yet (targetIndexer): the LIKE reads them.
      query = query.where(
        sql<boolean>`(id in (select rowid from audit_target_search where audit_target_search match ${trigrams}) or id > ${indexedUpTo})`,
      );
    }
    // lower() on both sides rather than ILIKE: one spelling for both engines, and the expression
    // PostgreSQL's trigram index (`audit_target_trgm`) is built on. SQLite's lower() folds ASCII letters
    // only, so on SQLite non-ASCII letters match case-sensitively.
    const pattern = `%${escapeLike(part)}%`;
    query = query.where(sql<boolean>`lower(target) like ${pattern} escape '\\'`);
  }
  return query;
}

/**
 * The fewest characters (code points) a target substring has for an index to find it: a trigram.
 * `/audit` searches shorter text as a whole target (`targetExact`).
 */
export const TARGET_SUBSTRING_MIN = 3;

/**
 * An FTS5 query for the entries whose target holds every trigram (three characters in a row) of
 * `text`: each one a quoted string, so `%`, `_`, `"` and spaces are only characters. Undefined for
 * text shorter than three characters, which has none.
 */
export function targetTrigrams(text: string): string | undefined {
  const chars = Array.from(text);
  if (chars.length < TARGET_SUBSTRING_MIN) return undefined;
  const trigrams = new Set(chars.slice(2).map((_, n) => chars.slice(n, n + 3).join('')));
  return [...trigrams].map((trigram) => `"${trigram.replaceAll('"', '""')}"`).join(' AND ');
}
