import type { Kysely, Transaction } from 'kysely';
import type { Grant, GrantQueries } from './grantRecords.js';
import { auditRow } from './rowMapping.js';
import type { AccessGrantsTable, Database } from './schema.js';

function toGrant(row: AccessGrantsTable): Grant {
  return {
    id: row.id,
    subject: { kind: row.subject_kind === 'user' ? 'user' : 'role', id: row.subject_id },
    what: JSON.parse(row.what) as string[],
    patterns: JSON.parse(row.patterns) as string[],
    until: row.until_at === null ? null : new Date(Number(row.until_at)),
    createdBy: row.created_by,
    createdAt: new Date(Number(row.created_at)),
    requestId: row.request_id,
  };
}

function grantRow(grant: Grant): AccessGrantsTable {
  return {
    id: grant.id,
    subject_kind: grant.subject.kind,
    subject_id: grant.subject.id,
    what: JSON.stringify(grant.what),
    patterns: JSON.stringify(grant.patterns),
    until_at: grant.until?.getTime() ?? null,
    created_by: grant.createdBy,
    created_at: grant.createdAt.getTime(),
    request_id: grant.requestId,
  };
}

/** Bumps the generation within `trx`: every replica's next decision reads the grants anew. */
async function bump(trx: Transaction<Database>): Promise<void> {
  await trx
    .updateTable('access_generation')
    .set((eb) => ({ generation: eb('generation', '+', 1) }))
    .where('id', '=', 1)
    .execute();
}

/** The /access grants (migration 0021): every write and its generation bump in one transaction. */
export function grantQueries(db: Kysely<Database>): GrantQueries {
  return {
    async generation() {
      const row = await db
        .selectFrom('access_generation')
        .select('generation')
        .where('id', '=', 1)
        .executeTakeFirstOrThrow();
      return Number(row.generation);
    },
    load() {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('access_generation')
          .select('generation')
          .where('id', '=', 1)
          .executeTakeFirstOrThrow();
        const rows = await trx
          .selectFrom('access_grants')
          .selectAll()
          .orderBy('created_at')
          .orderBy('id')
          .execute();
        return { generation: Number(row.generation), grants: rows.map(toGrant) };
      });
    },
    async add(grant) {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('access_grants').values(grantRow(grant)).execute();
        await bump(trx);
      });
    },
    revoke(id) {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .deleteFrom('access_grants')
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirst();
        if (!row) return undefined;
        await bump(trx);
        return toGrant(row);
      });
    },
    async endedElevations(now) {
      const rows = await db
        .selectFrom('access_grants')
        .selectAll()
        .where('request_id', 'is not', null)
        .where('until_at', '<=', now.getTime())
        .orderBy('until_at')
        .execute();
      return rows.map(toGrant);
    },
    endElevation(id, now, entry) {
      return db.transaction().execute(async (trx) => {
        // The delete decides: of two replicas' sweeps, one removes the row and writes its one "ended".
        const row = await trx
          .deleteFrom('access_grants')
          .where('id', '=', id)
          .where('request_id', 'is not', null)
          .where('until_at', '<=', now.getTime())
          .returning('id')
          .executeTakeFirst();
        if (!row) return false;
        await trx.insertInto('audit').values(auditRow(entry)).execute();
        await bump(trx);
        return true;
      });
    },
    replace(generation, remove, add) {
      return db.transaction().execute(async (trx) => {
        // The conditional bump decides: of two imports shown the same generation, one applies.
        const moved = await trx
          .updateTable('access_generation')
          .set({ generation: generation + 1 })
          .where('id', '=', 1)
          .where('generation', '=', generation)
          .executeTakeFirst();
        if (moved.numUpdatedRows !== 1n) return false;
        if (remove.length > 0) await trx.deleteFrom('access_grants').where('id', 'in', remove).execute();
        if (add.length > 0) await trx.insertInto('access_grants').values(add.map(grantRow)).execute();
        return true;
      });
    },
  };
}
