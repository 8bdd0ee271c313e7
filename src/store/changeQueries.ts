import type { ExpressionBuilder, Kysely } from 'kysely';
import { recordSentSet } from './dnsSetQueries.js';
import { auditRow, changeRow, toChange, toJson, toJsonOrNull } from './rowMapping.js';
import { type ChangePatch, NOT_HANDED, type OwedAudit, type Store } from './Store.js';
import type { Database, Engine } from './schema.js';
import { storeClockMs } from './storeClockMs.js';
import { isUniqueViolation, TargetBusyError } from './TargetBusyError.js';

/**
 * The changes' journal rows: each move between states is one conditional update (the database decides
 * which process moved it), and a DNS change's set is written with the move that sends it.
 */
export function changeQueries(
  db: Kysely<Database>,
  engine: Engine,
  onAudit: () => void = () => {},
): Store['changes'] {
  /** A change's end and its audit row land together or not at all: the row is written in its transaction. */
  const insertAudit = async (trx: Kysely<Database>, { entry, owes }: OwedAudit) => {
    const { id } = await trx
      .insertInto('audit')
      .values(auditRow(entry))
      .returning('id')
      .executeTakeFirstOrThrow();
    if (!owes?.kinds.length) return;
    const dueAt = owes.from.getTime();
    await trx
      .insertInto('owed_posts')
      .values(owes.kinds.map((kind) => ({ audit_id: Number(id), kind, due_at: dueAt, attempts: 0 })))
      .execute();
  };
  return {
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
      const now = options.now ?? new Date();
      const update = (on: Kysely<Database>) => {
        let query = on
          .updateTable('changes')
          .set({ ...patchColumns(patch), state: to, updated_at: now.getTime() })
          .where('id', '=', id)
          .where('state', 'in', states);
        if (options.notExpiredAt) query = query.where('expires_at', '>', options.notExpiredAt.getTime());
        if (options.heldBy !== undefined) query = query.where('replica_id', '=', options.heldBy);
        return query;
      };
      const { sends } = patch;
      const { audit } = options;
      try {
        if (!sends && !audit) return (await update(db).executeTakeFirst()).numUpdatedRows === 1n;
        // The set is written with the move that sends it, and an end with its audit row, or not at all.
        const moved = await db.transaction().execute(async (trx) => {
          const sent = await update(trx)
            .returning(['requested_by_id', 'requested_by_name', 'correlation_id'])
            .executeTakeFirst();
          if (!sent) return false;
          if (audit) await insertAudit(trx, audit);
          if (!sends) return true;
          await recordSentSet(trx, {
            changeId: id,
            ...sends,
            sentById: sent.requested_by_id,
            sentByName: sent.requested_by_name,
            sentAt: now,
            correlationId: sent.correlation_id,
          });
          return true;
        });
        if (moved && audit?.entry.target) onAudit();
        return moved;
      } catch (error) {
        // The only unique index an update of these columns can meet is the one sending slot per key.
        if (to === 'sending' && patch.serialKey && isUniqueViolation(error)) {
          throw new TargetBusyError(patch.serialKey);
        }
        throw error;
      }
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

    async due(states, { limit, after, now }) {
      if (states.length === 0) return [];
      // In deadline order, so one page after another (keyset, not offset: the sweep moves what it
      // read out of these states) reaches every due change, however many wait with later deadlines.
      // Found by the (state, expires_at) index of 0001.
      let query = db
        .selectFrom('changes')
        .selectAll()
        .where('state', 'in', states)
        .where('expires_at', '<=', now === undefined ? storeClockMs(engine) : now.getTime())
        .orderBy('expires_at')
        .orderBy('id')
        .limit(limit);
      if (after !== undefined)
        query = query.where((eb) =>
          eb(eb.refTuple('expires_at', 'id'), '>', eb.tuple(after.expiresAt.getTime(), after.id)),
        );
      return (await query.execute()).map(toChange);
    },

    async countAwaiting(dueBefore) {
      const row = await db
        .selectFrom('changes')
        .select((eb) => [
          eb.fn.countAll<number | string>().as('waiting'),
          eb.fn
            .count<number | string>(eb.case().when('expires_at', '<', dueBefore.getTime()).then(1).end())
            .as('due'),
        ])
        .where('state', '=', 'awaiting_approval')
        .executeTakeFirstOrThrow();
      return { waiting: Number(row.waiting), due: Number(row.due) };
    },

    async orphanSending(live, result, now, own, audit) {
      // Nobody alive is not a state a caller can be in (it counts itself): never orphan everything.
      if (live.length === 0) return [];
      const stray = (eb: ExpressionBuilder<Database, 'changes'>) => {
        const gone = [eb('replica_id', 'is', null), eb('replica_id', 'not in', live)];
        // The caller's own rows that none of its sends holds (a settle that could not be written).
        if (own) {
          const mine = eb('replica_id', '=', own.replicaId);
          gone.push(own.held.length === 0 ? mine : eb.and([mine, eb('id', 'not in', own.held)]));
        }
        return eb.and([eb('state', '=', 'sending'), eb.or(gone)]);
      };
      // Never handed to the connection (its mark says so): not sent, so `failed` — and its slot free.
      // Each swept change's end lands with its audit row, or neither does.
      const swept = await db.transaction().execute(async (trx) => {
        const notSent = await trx
          .updateTable('changes')
          .set({
            state: 'failed',
            result: JSON.stringify({ ...result, sent: false }),
            updated_at: now.getTime(),
          })
          .where(stray)
          .where('result', '=', JSON.stringify(NOT_HANDED))
          .returningAll()
          .execute();
        const unknown = await trx
          .updateTable('changes')
          .set({ state: 'unknown', result: JSON.stringify(result), updated_at: now.getTime() })
          .where(stray)
          .returningAll()
          .execute();
        const ended = [...notSent, ...unknown].map(toChange);
        if (audit) for (const change of ended) await insertAudit(trx, audit(change));
        return ended;
      });
      if (audit && swept.length > 0) onAudit();
      return swept;
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
    ...(patch.serialKey !== undefined && { serial_key: patch.serialKey }),
  };
}
