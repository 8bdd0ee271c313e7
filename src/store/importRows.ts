import type { Kysely } from 'kysely';
import { chunksOf } from './chunksOf.js';
import { auditRow, changeRow, dnsSetRow } from './rowMapping.js';
import type { Store } from './Store.js';
import type { Database } from './schema.js';

/** Fills an empty store in one transaction (migrate-store); a store that holds anything is left alone. */
export async function importRows(
  db: Kysely<Database>,
  rows: Parameters<Store['importRows']>[0],
): ReturnType<Store['importRows']> {
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
    for (const chunk of chunksOf(rows.dnsSets ?? [])) {
      await trx.insertInto('dns_sets').values(chunk.map(dnsSetRow)).execute();
    }
    return {
      imported: true,
      changes,
      audit,
      watched: rows.watch?.domains.length ?? 0,
      alerts: rows.watch?.alerts.length ?? 0,
      dnsSets: rows.dnsSets?.length ?? 0,
    };
  });
}
