import type { Kysely, Selectable, Transaction } from 'kysely';
import { dnsSetRow } from './rowMapping.js';
import { type DnsSet, REMEMBERED_OUTCOMES, type SentDnsSet, type Store } from './Store.js';
import type { Database, DnsSetsTable } from './schema.js';

/**
 * The DNS record sets HostOps sent, by change and by domain. A set's outcome is its change's state, read
 * with it: nothing else records how a send ended, so no way of settling it can leave the memory behind.
 */
export function dnsSetQueries(db: Kysely<Database>): Store['dnsSets'] {
  const remembered = () =>
    db
      .selectFrom('dns_sets')
      .innerJoin('changes', 'changes.id', 'dns_sets.change_id')
      .selectAll('dns_sets')
      .select('changes.state as outcome')
      .where('changes.state', 'in', REMEMBERED_OUTCOMES);
  return {
    async get(changeId) {
      const row = await remembered().where('dns_sets.change_id', '=', changeId).executeTakeFirst();
      return row && toDnsSet(row);
    },

    async latest(domain, before) {
      let query = remembered().where('dns_sets.domain', '=', domain);
      if (before) {
        const at = before.sentAt.getTime();
        query = query.where((eb) =>
          eb.or([
            eb('dns_sets.sent_at', '<', at),
            eb.and([eb('dns_sets.sent_at', '=', at), eb('dns_sets.change_id', '<', before.changeId)]),
          ]),
        );
      }
      const row = await query
        .orderBy('dns_sets.sent_at', 'desc')
        .orderBy('dns_sets.change_id', 'desc')
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
      return rows.map(toSentDnsSet);
    },
  };
}

/** Writes (or, for a resend of its change, re-times) the set a change sends, as it moves to `sending`. */
export async function recordSentSet(trx: Transaction<Database>, set: SentDnsSet): Promise<void> {
  await trx
    .insertInto('dns_sets')
    .values(dnsSetRow(set))
    .onConflict((oc) => oc.column('change_id').doUpdateSet({ sent_at: set.sentAt.getTime() }))
    .execute();
}

function toSentDnsSet(row: Selectable<DnsSetsTable>): SentDnsSet {
  return {
    changeId: row.change_id,
    domain: row.domain,
    records: row.records,
    sentById: row.sent_by_id,
    sentByName: row.sent_by_name,
    sentAt: new Date(Number(row.sent_at)),
    correlationId: row.correlation_id,
  };
}

function toDnsSet(row: Selectable<DnsSetsTable> & { outcome: string }): DnsSet {
  return { ...toSentDnsSet(row), outcome: row.outcome === 'done' ? 'done' : 'unknown' };
}
