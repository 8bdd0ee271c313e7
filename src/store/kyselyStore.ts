import { setTimeout as sleep } from 'node:timers/promises';
import { type Kysely, type Selectable, sql } from 'kysely';
import { pickLocale } from '../i18n/locales.js';
import { auditPurgeBatch, auditQueries, PURGE_BATCH, PURGE_PAUSE_MS } from './auditQueries.js';
import { batchClaims, type Claim } from './batchClaims.js';
import { chunksOf } from './chunksOf.js';
import { recentTargetsQuery } from './recentTargetsQuery.js';
import type { AuditEntry, ChangePatch, ChangeRecord, DnsSet, NewAuditEntry, Store } from './Store.js';
import type { AuditTable, ChangesTable, Database, DnsSetsTable, Engine } from './schema.js';
import { sharedStateQueries } from './sharedStateQueries.js';
import { watchQueries } from './watchQueries.js';

/** The queries behind `Store`, written once for both engines. */
export function createKyselyStore(db: Kysely<Database>, engine: Engine): Store {
  // On the path of every acknowledgement, and on PostgreSQL a network round trip away.
  const claimBatched = batchClaims(async (claims) => {
    const { rows } = await claimStatement(claims).execute(db);
    return new Set(rows.map((row) => row.interaction_id));
  });
  return {
    engine,
    changes: {
      async insert(change) {
        await db
          .insertInto('changes')
          .values(
            changeRow({
              ...change,
              result: change.result ?? null,
              updatedAt: change.createdAt,
              replicaId: null,
              approval: null,
            }),
          )
          .execute();
      },

      async get(id) {
        const row = await db.selectFrom('changes').selectAll().where('id', '=', id).executeTakeFirst();
        return row && toChange(row);
      },

      async transition(id, from, to, patch = {}, options = {}) {
        const states = typeof from === 'string' ? [from] : from;
        if (states.length === 0) return false;
        let query = db
          .updateTable('changes')
          .set({ ...patchColumns(patch), state: to, updated_at: (options.now ?? new Date()).getTime() })
          .where('id', '=', id)
          .where('state', 'in', states);
        if (options.notExpiredAt) query = query.where('expires_at', '>', options.notExpiredAt.getTime());
        if (options.heldBy !== undefined) query = query.where('replica_id', '=', options.heldBy);
        const result = await query.executeTakeFirst();
        return result.numUpdatedRows === 1n;
      },

      async listByState(states, limit) {
        if (states.length === 0) return [];
        let query = db
          .selectFrom('changes')
          .selectAll()
          .where('state', 'in', states)
          .orderBy('created_at')
          .orderBy('id');
        if (limit !== undefined) query = query.limit(limit);
        return (await query.execute()).map(toChange);
      },

      async orphanSending(live, result, now) {
        // Nobody alive is not a state a caller can be in (it counts itself): never orphan everything.
        if (live.length === 0) return [];
        const query = db
          .updateTable('changes')
          .set({ state: 'unknown', result: JSON.stringify(result), updated_at: now.getTime() })
          .where('state', '=', 'sending')
          .where((eb) => eb.or([eb('replica_id', 'is', null), eb('replica_id', 'not in', live)]));
        return (await query.returningAll().execute()).map(toChange);
      },
    },

    dnsSets: {
      async record(set) {
        const row = {
          change_id: set.changeId,
          domain: set.domain,
          records: set.records,
          outcome: set.outcome,
          sent_by_id: set.sentById,
          sent_by_name: set.sentByName,
          sent_at: set.sentAt.getTime(),
          correlation_id: set.correlationId,
        };
        await db
          .insertInto('dns_sets')
          .values(row)
          .onConflict((oc) => oc.column('change_id').doUpdateSet({ outcome: set.outcome }))
          .execute();
      },

      async get(changeId) {
        const row = await db
          .selectFrom('dns_sets')
          .selectAll()
          .where('change_id', '=', changeId)
          .executeTakeFirst();
        return row && toDnsSet(row);
      },

      async latest(domain, before) {
        let query = db.selectFrom('dns_sets').selectAll().where('domain', '=', domain);
        if (before) {
          const at = before.sentAt.getTime();
          query = query.where((eb) =>
            eb.or([
              eb('sent_at', '<', at),
              eb.and([eb('sent_at', '=', at), eb('change_id', '<', before.changeId)]),
            ]),
          );
        }
        const row = await query
          .orderBy('sent_at', 'desc')
          .orderBy('change_id', 'desc')
          .limit(1)
          .executeTakeFirst();
        return row && toDnsSet(row);
      },
    },

    watch: watchQueries(db, engine),

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
    },

    ...sharedStateQueries(db),

    audit: {
      async insert(entry) {
        const row = await db
          .insertInto('audit')
          .values(auditRow(entry))
          .returning('id')
          .executeTakeFirstOrThrow();
        return row.id;
      },

      async query(filter, page) {
        const { page: pageQuery, count } = auditQueries(db, filter, page);
        const [rows, counted] = await Promise.all([pageQuery.execute(), count.executeTakeFirstOrThrow()]);
        return { rows: rows.map(toAudit), total: Number(counted.total) };
      },

      async purgeOlderThan(cutoff) {
        // In batches with a pause between them (see PURGE_BATCH): one DELETE of a day's expired entries
        // held SQLite's synchronous driver, and so every command, for seconds.
        let purged = 0;
        for (;;) {
          const deleted = Number((await auditPurgeBatch(db, cutoff).executeTakeFirst()).numDeletedRows);
          purged += deleted;
          if (deleted < PURGE_BATCH) return purged;
          await sleep(PURGE_PAUSE_MS);
        }
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

    async importRows(rows) {
      return db.transaction().execute(async (trx) => {
        const count = async (table: 'changes' | 'audit' | 'watched_domains') => {
          const row = await trx
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow();
          return Number(row.n);
        };
        const existing = { changes: await count('changes'), audit: await count('audit') };
        if (existing.changes > 0 || existing.audit > 0 || (await count('watched_domains')) > 0) {
          return { imported: false, existing };
        }
        let changes = 0;
        for await (const batch of rows.changes) {
          for (const chunk of chunksOf(batch)) {
            await trx.insertInto('changes').values(chunk.map(changeRow)).execute();
            changes += chunk.length;
          }
        }
        // One multi-row INSERT assigns ids in the order of its rows, so the order given is kept.
        let audit = 0;
        for await (const batch of rows.audit) {
          for (const chunk of chunksOf(batch)) {
            await trx.insertInto('audit').values(chunk.map(auditRow)).execute();
            audit += chunk.length;
          }
        }
        const flag = (value: boolean | null) => (value === null ? null : value ? 1 : 0);
        for (const chunk of chunksOf(rows.watch?.domains ?? [])) {
          await trx
            .insertInto('watched_domains')
            .values(
              chunk.map((d) => ({
                domain: d.domain,
                unicode: d.unicode,
                added_by_id: d.addedById,
                added_at: d.addedAt.getTime(),
                checked_at: d.checkedAt?.getTime() ?? null,
                status: d.status,
                failures: d.failures,
                expiry_date: d.expiryDate,
                active: flag(d.active),
                expired: flag(d.expired),
                transferred_away: flag(d.transferredAway),
              })),
            )
            .execute();
        }
        for (const chunk of chunksOf(rows.watch?.alerts ?? [])) {
          await trx
            .insertInto('watch_alerts')
            .values(chunk.map((a) => ({ domain: a.domain, alert_key: a.key, sent_at: a.sentAt.getTime() })))
            .execute();
        }
        return {
          imported: true,
          changes,
          audit,
          watched: rows.watch?.domains.length ?? 0,
          alerts: rows.watch?.alerts.length ?? 0,
        };
      });
    },

    async close() {
      await db.destroy();
    },
  };
}

function patchColumns(patch: ChangePatch) {
  return {
    ...(patch.parameters !== undefined && { parameters: JSON.stringify(patch.parameters) }),
    ...(patch.preview !== undefined && { preview: toJson(patch.preview) }),
    ...(patch.result !== undefined && { result: toJsonOrNull(patch.result) }),
    ...(patch.expiresAt !== undefined && { expires_at: patch.expiresAt.getTime() }),
    ...(patch.replicaId !== undefined && { replica_id: patch.replicaId }),
    ...(patch.approval !== undefined && { approval: toJsonOrNull(patch.approval) }),
  };
}

// JSON.stringify(undefined) is undefined, which a NOT NULL column refuses.
const toJson = (value: unknown) => JSON.stringify(value ?? null);
const toJsonOrNull = (value: object | null | undefined) => (value == null ? null : JSON.stringify(value));
const fromJsonOrNull = (text: string | null) =>
  text === null ? null : (JSON.parse(text) as Record<string, unknown>);

function toChange(row: Selectable<ChangesTable>): ChangeRecord {
  return {
    id: row.id,
    operation: row.operation,
    command: row.command,
    target: row.target,
    parameters: JSON.parse(row.parameters) as Record<string, unknown>,
    preview: JSON.parse(row.preview) as unknown,
    requestedById: row.requested_by_id,
    requestedByName: row.requested_by_name,
    guildId: row.guild_id,
    channelId: row.channel_id,
    state: row.state,
    correlationId: row.correlation_id,
    result: fromJsonOrNull(row.result),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    expiresAt: new Date(row.expires_at),
    replicaId: row.replica_id,
    approval: fromJsonOrNull(row.approval),
    locale: pickLocale(row.locale),
  };
}

/** One statement for a whole batch of claims; the database decides each id. */
const claimStatement = (claims: readonly Claim[]) =>
  sql<{ interaction_id: string }>`insert into interaction_claims (interaction_id, replica_id, claimed_at)
    values ${sql.join(claims.map(({ id, replicaId, at }) => sql`(${id}, ${replicaId}, ${at})`))}
    on conflict do nothing returning interaction_id`;

function toDnsSet(row: Selectable<DnsSetsTable>): DnsSet {
  return {
    changeId: row.change_id,
    domain: row.domain,
    records: row.records,
    outcome: row.outcome === 'done' ? 'done' : 'unknown',
    sentById: row.sent_by_id,
    sentByName: row.sent_by_name,
    sentAt: new Date(Number(row.sent_at)),
    correlationId: row.correlation_id,
  };
}

function toAudit(row: Selectable<AuditTable>): AuditEntry {
  return {
    id: row.id,
    at: new Date(row.at),
    userId: row.user_id,
    userName: row.user_name,
    guildId: row.guild_id,
    channelId: row.channel_id,
    command: row.command,
    subcommand: row.subcommand,
    target: row.target,
    outcome: row.outcome,
    detail: row.detail,
    correlationId: row.correlation_id,
    durationMs: row.duration_ms,
    parameters: fromJsonOrNull(row.parameters),
    changeId: row.change_id,
    actedById: row.acted_by_id,
    actedByName: row.acted_by_name,
  };
}

/** Every column of a change as stored (importRows). */
function changeRow(change: ChangeRecord) {
  return {
    id: change.id,
    operation: change.operation,
    command: change.command,
    target: change.target,
    parameters: JSON.stringify(change.parameters),
    preview: toJson(change.preview),
    requested_by_id: change.requestedById,
    requested_by_name: change.requestedByName,
    guild_id: change.guildId,
    channel_id: change.channelId,
    state: change.state,
    correlation_id: change.correlationId,
    result: toJsonOrNull(change.result),
    created_at: change.createdAt.getTime(),
    updated_at: change.updatedAt.getTime(),
    expires_at: change.expiresAt.getTime(),
    replica_id: change.replicaId,
    approval: toJsonOrNull(change.approval),
    locale: change.locale,
  };
}

/** Every column of an audit entry but its id, which the database assigns. */
function auditRow(entry: NewAuditEntry) {
  return {
    at: entry.at.getTime(),
    user_id: entry.userId,
    user_name: entry.userName,
    guild_id: entry.guildId,
    channel_id: entry.channelId,
    command: entry.command,
    subcommand: entry.subcommand,
    target: entry.target,
    outcome: entry.outcome,
    detail: entry.detail,
    correlation_id: entry.correlationId,
    duration_ms: entry.durationMs,
    parameters: toJsonOrNull(entry.parameters),
    change_id: entry.changeId,
    acted_by_id: entry.actedById ?? null,
    acted_by_name: entry.actedByName ?? null,
  };
}

/**
 * The store's own clock in epoch milliseconds. Heartbeats are written and judged by it, so replicas whose
 * local clocks disagree still agree on whose lease ran out.
 */
function storeClockMs(engine: Engine) {
  return engine === 'postgres'
    ? sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`
    : sql<number>`cast((julianday('now') - 2440587.5) * 86400000 as integer)`;
}
