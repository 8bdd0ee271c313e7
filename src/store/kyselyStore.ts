import { setTimeout as sleep } from 'node:timers/promises';
import { type Kysely, sql } from 'kysely';
import {
  auditPurgeBatch,
  auditQueries,
  PURGE_BATCH,
  purgeRestMs,
  TARGET_INDEX_LIMIT,
  targetCandidates,
} from './auditQueries.js';
import type { AuditFilter } from './auditRecords.js';
import { batchClaims, type Claim } from './batchClaims.js';
import { type BulkWriter, noBulkWriter, type OffLoop } from './bulkWriter.js';
import { changeQueries } from './changeQueries.js';
import { dnsSetQueries } from './dnsSetQueries.js';
import { grantQueries } from './grantQueries.js';
import { importRows } from './importRows.js';
import { owedPostQueries } from './owedPostQueries.js';
import { recentTargetsQuery } from './recentTargetsQuery.js';
import { registryQueries } from './registryQueries.js';
import { auditRow, toAudit } from './rowMapping.js';
import type { Store } from './Store.js';
import type { Database, Engine } from './schema.js';
import { sharedStateQueries } from './sharedStateQueries.js';
import { storeClockMs } from './storeClockMs.js';
import { targetIndexer } from './targetIndexer.js';
import { watchQueries } from './watchQueries.js';

export interface KyselyStoreOptions {
  /** Hears of failures in the background (SQLite's batches of the trigram index, which the next retries). */
  onError?: (error: unknown) => void;
  /** SQLite with a file: the worker that checkpoints and runs the purge's batches while bulk writes run. */
  bulkWriter?: BulkWriter;
}

/** The queries behind `Store`, written once for both engines. */
export function createKyselyStore(
  db: Kysely<Database>,
  engine: Engine,
  { onError = () => {}, bulkWriter = noBulkWriter }: KyselyStoreOptions = {},
): Store {
  const targets = engine === 'sqlite' ? targetIndexer(db, onError) : undefined;
  // Whatever a process that stopped left unindexed.
  targets?.schedule();
  // On the path of every acknowledgement, and on PostgreSQL a network round trip away.
  const claimBatched = batchClaims(async (claims) => {
    const { rows } = await claimStatement(claims).execute(db);
    return new Set(rows.map((row) => row.interaction_id));
  });
  /** SQLite: whether a target search goes through the trigram index (see targetCandidates). */
  const useTargetIndex = async ({ target }: AuditFilter): Promise<boolean> => {
    const probe = engine === 'sqlite' && target !== undefined ? targetCandidates(db, target) : undefined;
    if (probe === undefined) return false;
    const { rows } = await db.executeQuery(probe);
    return Number(rows[0]?.n) < TARGET_INDEX_LIMIT;
  };
  return {
    engine,
    changes: changeQueries(db, engine, () => targets?.schedule()),

    dnsSets: dnsSetQueries(db),

    watch: watchQueries(db, engine),

    registry: registryQueries(db),

    grants: grantQueries(db),

    replicas: {
      async heartbeat({ replicaId, role, host, pid, startedAt }, now) {
        const at = now === undefined ? storeClockMs(engine) : now.getTime();
        await db
          .insertInto('replicas')
          .values({
            replica_id: replicaId,
            role,
            host,
            pid,
            started_at: startedAt.getTime(),
            heartbeat_at: at,
          })
          .onConflict((oc) => oc.column('replica_id').doUpdateSet({ heartbeat_at: at }))
          .execute();
      },

      async live(since) {
        const from =
          since instanceof Date ? since.getTime() : sql<number>`${storeClockMs(engine)} - ${since.withinMs}`;
        const rows = await db
          .selectFrom('replicas')
          .selectAll()
          .where('heartbeat_at', '>=', from)
          .orderBy('started_at')
          .execute();
        return rows.map((row) => ({
          replicaId: row.replica_id,
          role: row.role,
          host: row.host,
          pid: row.pid,
          startedAt: new Date(row.started_at),
          heartbeatAt: new Date(row.heartbeat_at),
        }));
      },

      async remove(replicaId) {
        await db.deleteFrom('replicas').where('replica_id', '=', replicaId).execute();
      },

      async clock() {
        const { rows } = await sql<{ now: number | string }>`select ${storeClockMs(engine)} as now`.execute(
          db,
        );
        return new Date(Number(rows[0]?.now));
      },
    },

    ...sharedStateQueries(db, engine),

    audit: {
      async insert(entry) {
        const row = await db
          .insertInto('audit')
          .values(auditRow(entry))
          .returning('id')
          .executeTakeFirstOrThrow();
        if (entry.target !== null) targets?.schedule();
        return row.id;
      },

      ...owedPostQueries(db, engine),

      async query(filter, page) {
        const targetIndex = await useTargetIndex(filter);
        const { page: newest, count } = auditQueries(db, engine, filter, page, { targetIndex });
        if (page.offset === 0) {
          const [rows, counted] = await Promise.all([newest.execute(), count.executeTakeFirstOrThrow()]);
          return { rows: rows.map(toAudit), total: Number(counted.total) };
        }
        // Deeper pages: counted first, so the page can be read from the nearer end of the matches.
        const total = Number((await count.executeTakeFirstOrThrow()).total);
        const rows = await auditQueries(db, engine, filter, page, { total, targetIndex }).page.execute();
        return { rows: rows.map(toAudit), total };
      },

      async rows(filter, limit) {
        const targetIndex = await useTargetIndex(filter);
        const query = auditQueries(db, engine, filter, { limit, offset: 0 }, { targetIndex });
        return (await query.page.execute()).map(toAudit);
      },

      async search(filter, { limit, offset, from, countUpTo }) {
        const targetIndex = await useTargetIndex(filter);
        // One more than the cap: exactly `countUpTo` matches is a count, more is "more than".
        const counted = async () => {
          const { countUpTo: count } = auditQueries(db, engine, filter, { limit, offset }, { targetIndex });
          const n = Number((await count(countUpTo + 1).executeTakeFirstOrThrow()).total);
          return n > countUpTo ? { total: countUpTo, capped: true } : { total: n, capped: false };
        };
        const read = async (page: { limit: number; offset: number; from?: 'oldest' }, total?: number) => {
          const query = auditQueries(db, engine, filter, page, { targetIndex, total }).page;
          return (await query.execute()).map(toAudit);
        };
        // One past the page tells whether there are more: the count may have stopped short of them.
        const direct = async () => {
          const rows = await read({ limit: limit + 1, offset, ...(from === 'oldest' ? { from } : {}) });
          const more = rows.length > limit;
          // Newest first: the one past the page is the oldest read from the newest end, else the newest.
          const page = more ? (from === 'oldest' ? rows.slice(1) : rows.slice(0, limit)) : rows;
          return { rows: page, more };
        };
        if (offset === 0) {
          const [page, count] = await Promise.all([direct(), counted()]);
          return { ...page, ...count };
        }
        // Deeper pages: counted first. Under the cap the count is exact, so the page is read from the
        // nearer end of the matches (as positions from the newest end); past it, from its own end.
        const count = await counted();
        if (count.capped) return { ...(await direct()), ...count };
        const { total } = count;
        const end = from === 'oldest' ? total - offset : Math.min(total, offset + limit);
        const start = from === 'oldest' ? Math.max(0, total - offset - limit) : offset;
        const rows = end > start ? await read({ limit: end - start, offset: start }, total) : [];
        return { rows, more: from === 'oldest' ? start > 0 : end < total, ...count };
      },

      async purgeOlderThan(cutoff) {
        // In small batches with a rest in proportion after each (see PURGE_BATCH, PURGE_REST): one
        // DELETE of a day's expired entries held SQLite's synchronous driver, and so every command, for
        // seconds. Past the first batch, SQLite's batches and the checkpoints of the write-ahead log they
        // fill run on a worker's connection, off the event loop (a day with nothing to purge starts none).
        const batch = async (offLoop: OffLoop | undefined) => {
          const started = performance.now();
          const query = auditPurgeBatch(db, cutoff).compile();
          const deleted = offLoop
            ? await offLoop(query)
            : Number((await db.executeQuery(query)).numAffectedRows ?? 0n);
          return { deleted, rest: purgeRestMs(performance.now() - started) };
        };
        const first = await batch(undefined);
        if (first.deleted < PURGE_BATCH) return first.deleted;
        return bulkWriter.during(async (offLoop) => {
          let purged = first.deleted;
          let rest = first.rest;
          for (;;) {
            await sleep(rest);
            const next = await batch(offLoop);
            purged += next.deleted;
            if (next.deleted < PURGE_BATCH) return purged;
            rest = next.rest;
          }
        });
      },
      async recentTargets(sources, part, limit) {
        const query = recentTargetsQuery(db, sources, part, limit);
        if (query === undefined) return [];
        const rows = await query.execute();
        return rows.flatMap((row) => (row.target === null ? [] : [row.target]));
      },
    },

    claims: {
      async claimInteraction(interactionId, replicaId, now) {
        const claim = { id: interactionId, replicaId, at: now.getTime() };
        if (engine === 'postgres') return claimBatched(claim);
        // SQLite answers in microseconds, in process: nothing to gain from batching.
        const { rows } = await claimStatement([claim]).execute(db);
        return rows.length === 1;
      },

      async claimJobRun(job, slot, replicaId, now) {
        const row = await db
          .insertInto('job_runs')
          .values({ job, slot, replica_id: replicaId, claimed_at: now.getTime() })
          .onConflict((oc) => oc.doNothing())
          .returning('job')
          .executeTakeFirst();
        return row !== undefined;
      },

      async purgeOlderThan(cutoff) {
        const [claims, runs] = await Promise.all([
          db.deleteFrom('interaction_claims').where('claimed_at', '<', cutoff.getTime()).executeTakeFirst(),
          db.deleteFrom('job_runs').where('claimed_at', '<', cutoff.getTime()).executeTakeFirst(),
        ]);
        return Number(claims.numDeletedRows + runs.numDeletedRows);
      },
    },

    importRows(rows) {
      return bulkWriter.during(async () => {
        const result = await importRows(db, rows);
        if (result.imported) await targets?.flush();
        return result;
      });
    },

    async close() {
      await targets?.flush().catch(onError);
      await bulkWriter.close();
      await db.destroy();
    },
  };
}

// JSON.stringify(undefined) is undefined, which a NOT NULL column refuses.
/** One statement for a whole batch of claims; the database decides each id. */
const claimStatement = (claims: readonly Claim[]) =>
  sql<{ interaction_id: string }>`insert into interaction_claims (interaction_id, replica_id, claimed_at)
    values ${sql.join(claims.map(({ id, replicaId, at }) => sql`(${id}, ${replicaId}, ${at})`))}
    on conflict do nothing returning interaction_id`;
