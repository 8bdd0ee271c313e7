import type { Kysely, Selectable } from 'kysely';
import { dnsSetRow } from './rowMapping.js';
import type { DnsSet, Store } from './Store.js';
import type { Database, DnsSetsTable } from './schema.js';

/** The DNS record sets HostOps sent, by change and by domain. */
export function dnsSetQueries(db: Kysely<Database>): Store['dnsSets'] {
  return {
    async record(set) {
      await db
        .insertInto('dns_sets')
        .values(dnsSetRow(set))
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

    async all() {
      const rows = await db
        .selectFrom('dns_sets')
        .selectAll()
        .orderBy('sent_at')
        .orderBy('change_id')
        .execute();
      return rows.map(toDnsSet);
    },
  };
}

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
