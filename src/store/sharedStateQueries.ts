import { type Kysely, type Selectable, sql } from 'kysely';
import type { OpenForm, Store } from './Store.js';
import type { Database, Engine, FormsTable } from './schema.js';
import { storeClockMs } from './storeClockMs.js';

function openForm(row: Selectable<FormsTable>): OpenForm {
  return {
    id: row.id,
    ownerId: row.owner_id,
    command: row.command,
    state: JSON.parse(row.state) as Record<string, unknown>,
    correlationId: row.correlation_id,
    expiresAt: new Date(Number(row.expires_at)),
  };
}

/** Settings every face reads alike, and the forms any replica may receive the submit of. */
export function sharedStateQueries(db: Kysely<Database>, engine: Engine): Pick<Store, 'settings' | 'forms'> {
  const now = storeClockMs(engine);
  return {
    settings: {
      async get(key) {
        const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
        return row?.value;
      },
      async put(key, value, now) {
        await db
          .insertInto('settings')
          .values({ key, value, updated_at: now.getTime() })
          .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: now.getTime() }))
          .execute();
      },
    },
    forms: {
      async open(form) {
        await db
          .insertInto('forms')
          .values({
            id: form.id,
            owner_id: form.ownerId,
            command: form.command,
            state: JSON.stringify(form.state),
            correlation_id: form.correlationId,
            expires_at: sql<number>`${now} + ${form.openForMs}`,
          })
          .execute();
      },
      async take(id, ownerId) {
        const row = await db
          .deleteFrom('forms')
          .where('id', '=', id)
          .where('owner_id', '=', ownerId)
          .where('expires_at', '>', now)
          .returningAll()
          .executeTakeFirst();
        return row && openForm(row);
      },
      async peek(id, ownerId) {
        const row = await db
          .selectFrom('forms')
          .selectAll()
          .where('id', '=', id)
          .where('owner_id', '=', ownerId)
          .where('expires_at', '>', now)
          .executeTakeFirst();
        return row && openForm(row);
      },
      async purgeExpired() {
        const result = await db.deleteFrom('forms').where('expires_at', '<=', now).executeTakeFirst();
        return Number(result.numDeletedRows);
      },
    },
  };
}
