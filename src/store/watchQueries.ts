import { type Kysely, type Selectable, sql } from 'kysely';
import { chunksOf } from './chunksOf.js';
import { escapeLike } from './recentTargetsQuery.js';
import type { Store, WatchedDomain } from './Store.js';
import type { Database, Engine, WatchedDomainsTable } from './schema.js';

// The predicate of the partial index watched_domains_flagged (migration 0017), word for word: a planner
// uses a partial index only for a query whose WHERE matches it.
export const FLAGGED = sql<boolean>`status = 'not_found' or active = 0 or expired = 1 or transferred_away = 1 or failures > 0`;

/** The watch list and the alerts sent for it. */
export function watchQueries(db: Kysely<Database>, engine: Engine): Store['watch'] {
  return {
    async add(domains, addedById, now, limit = Number.POSITIVE_INFINITY) {
      // A name given twice is one domain: the second would otherwise count as added too.
      const unique = [...new Map(domains.map((d) => [d.domain, d])).values()];
      return db.transaction().execute(async (trx) => {
        // Two adds at once must not pass the cap together: PostgreSQL queues them on this lock (readers
        // are not blocked); SQLite runs one writer at a time anyway.
        if (engine === 'postgres')
          await sql`lock table watched_domains in share row exclusive mode`.execute(trx);
        const watchedAlready = new Set<string>();
        for (const chunk of chunksOf(unique)) {
          const rows = await trx
            .selectFrom('watched_domains')
            .select('domain')
            .where(
              'domain',
              'in',
              chunk.map((d) => d.domain),
            )
            .execute();
          for (const row of rows) watchedAlready.add(row.domain);
        }
        const fresh = unique.filter((d) => !watchedAlready.has(d.domain));
        const already = unique.filter((d) => watchedAlready.has(d.domain)).map((d) => d.domain);
        if (fresh.length > 0 && Number.isFinite(limit)) {
          const watched = await countWatched(trx);
          if (watched + fresh.length > limit) {
            return { added: [], already, full: { watched, adding: fresh.length, limit } };
          }
        }
        for (const chunk of chunksOf(fresh)) {
          await trx
            .insertInto('watched_domains')
            .values(
              chunk.map(({ domain, unicode }) => ({
                domain,
                unicode,
                added_by_id: addedById,
                added_at: now.getTime(),
                status: 'new',
                failures: 0,
              })),
            )
            .execute();
        }
        return { added: fresh.map((d) => d.domain), already };
      });
    },

    async remove(domains) {
      const removed: string[] = [];
      for (const chunk of chunksOf(domains)) {
        const rows = await db
          .deleteFrom('watched_domains')
          .where('domain', 'in', chunk)
          .returning('domain')
          .execute();
        removed.push(...rows.map((row) => row.domain));
      }
      const gone = new Set(removed);
      return { removed, notWatched: domains.filter((domain) => !gone.has(domain)) };
    },

    async list({ limit, offset }) {
      const [rows, total] = await Promise.all([
        db
          .selectFrom('watched_domains')
          .selectAll()
          // Unknown expiry last on both engines (SQLite sorts NULL first, PostgreSQL last).
          .orderBy(sql`case when expiry_date is null then 1 else 0 end`)
          .orderBy('expiry_date')
          .orderBy('domain')
          .limit(limit)
          .offset(offset)
          .execute(),
        db
          .selectFrom('watched_domains')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows: rows.map(toWatched), total: Number(total.n) };
    },

    async all() {
      return (await db.selectFrom('watched_domains').selectAll().orderBy('domain').execute()).map(toWatched);
    },

    async page(after, limit) {
      // By the primary key from where the last page ended: every page costs the same, however deep.
      const rows = await db
        .selectFrom('watched_domains')
        .selectAll()
        .$if(after !== undefined, (qb) => qb.where('domain', '>', after as string))
        .orderBy('domain')
        .limit(limit)
        .execute();
      return rows.map(toWatched);
    },

    async get(domains) {
      const rows: WatchedDomain[] = [];
      for (const chunk of chunksOf(domains)) {
        const found = await db
          .selectFrom('watched_domains')
          .selectAll()
          .where('domain', 'in', chunk)
          .execute();
        rows.push(...found.map(toWatched));
      }
      return rows.sort((a, b) => a.domain.localeCompare(b.domain));
    },

    count() {
      return countWatched(db);
    },

    async flagged() {
      const rows = await db
        .selectFrom('watched_domains')
        .select(['domain', 'status', 'active', 'expired', 'transferred_away', 'failures'])
        .where(FLAGGED)
        .execute();
      return rows.map((row) => ({
        domain: row.domain,
        notFound: row.status === 'not_found',
        inactive: row.active === 0,
        expired: row.expired === 1,
        transferredAway: row.transferred_away === 1,
        failures: row.failures,
      }));
    },

    async expiries(after, limit) {
      // By the primary key from where the last page ended: every page costs the same, however deep.
      return db
        .selectFrom('watched_domains')
        .select(['domain', 'expiry_date as expiryDate'])
        .where('expiry_date', 'is not', null)
        .$if(after !== undefined, (qb) => qb.where('domain', '>', after as string))
        .orderBy('domain')
        .limit(limit)
        .$narrowType<{ expiryDate: string }>()
        .execute();
    },

    async search(part, limit) {
      const pattern = `%${escapeLike(part.toLowerCase())}%`;
      const rows = await db
        .selectFrom('watched_domains')
        .select('domain')
        .where((eb) =>
          eb.or([
            eb(sql`lower(domain)`, 'like', sql`${pattern} escape '\\'`),
            eb(sql`lower(unicode)`, 'like', sql`${pattern} escape '\\'`),
          ]),
        )
        .orderBy('domain')
        .limit(limit)
        .execute();
      return rows.map((row) => row.domain);
    },

    async record(seen, findings, now) {
      const flag = (value: boolean | null) => (value === null ? null : value ? 1 : 0);
      const result = await db
        .updateTable('watched_domains')
        .set({
          status: findings.status,
          failures: findings.failures,
          expiry_date: findings.expiryDate,
          active: flag(findings.active),
          expired: flag(findings.expired),
          transferred_away: flag(findings.transferredAway),
          checked_at: now.getTime(),
        })
        .where('domain', '=', seen.domain)
        .where('status', '=', seen.status)
        .where('failures', '=', seen.failures)
        .where((eb) =>
          eb.and([
            seen.expiryDate === null
              ? eb('expiry_date', 'is', null)
              : eb('expiry_date', '=', seen.expiryDate),
            ...(
              [
                ['active', seen.active],
                ['expired', seen.expired],
                ['transferred_away', seen.transferredAway],
              ] as const
            ).map(([column, value]) =>
              value === null ? eb(column, 'is', null) : eb(column, '=', flag(value) as number),
            ),
          ]),
        )
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },

    async alerts() {
      const rows = await db.selectFrom('watch_alerts').selectAll().orderBy('sent_at').execute();
      return rows.map((row) => ({ domain: row.domain, key: row.alert_key, sentAt: new Date(row.sent_at) }));
    },

    async claimAlert(domain, key, now) {
      const result = await db
        .insertInto('watch_alerts')
        .values({ domain, alert_key: key, sent_at: now.getTime() })
        .onConflict((oc) => oc.columns(['domain', 'alert_key']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
    },
  };
}

async function countWatched(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('watched_domains')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function toWatched(row: Selectable<WatchedDomainsTable>): WatchedDomain {
  const flag = (value: number | null) => (value === null ? null : value === 1);
  return {
    domain: row.domain,
    unicode: row.unicode,
    addedById: row.added_by_id,
    addedAt: new Date(row.added_at),
    checkedAt: row.checked_at === null ? null : new Date(row.checked_at),
    status: row.status as WatchedDomain['status'],
    failures: row.failures,
    expiryDate: row.expiry_date,
    active: flag(row.active),
    expired: flag(row.expired),
    transferredAway: flag(row.transferred_away),
  };
}
