import type { Kysely } from 'kysely';
import { type DnsRecord, encodeDnsRecords } from '../../hosting/dnsRecords.js';

type Tables = {
  changes: {
    id: string;
    operation: string;
    state: string;
    parameters: string;
    requested_by_id: string;
    requested_by_name: string;
    correlation_id: string;
    updated_at: number;
  };
  dns_sets: {
    change_id: string;
    domain: string;
    records: string;
    sent_by_id: string;
    sent_by_name: string;
    sent_at: number;
    correlation_id: string;
  };
};

// Migrations are frozen once released: never edit this file, add the next one instead.
export async function up(untyped: Kysely<unknown>): Promise<void> {
  const db = untyped.withTables<Tables>();
  // A set's outcome is its change's state from now on, read with it (dnsSetQueries): the copy kept here
  // was written only on the sender's normal path, so it said nothing of sends settled otherwise.
  await db.schema.alterTable('dns_sets').dropColumn('outcome').execute();

  // Sets sent by DNS changes that ended `done` or `unknown` without their sender writing them — a lease
  // lost, the orphan sweep, a shutdown's abandon — were never kept. Their changes hold them; when each was
  // sent is not recorded, so its last move (when it was settled) stands in for it.
  const missed = await db
    .selectFrom('changes')
    .select(['id', 'parameters', 'requested_by_id', 'requested_by_name', 'correlation_id', 'updated_at'])
    .where('operation', '=', 'submitDnsRecords')
    .where('state', 'in', ['done', 'unknown'])
    .where('id', 'not in', db.selectFrom('dns_sets').select('change_id'))
    .execute();
  for (const change of missed) {
    const { domain, records } = JSON.parse(change.parameters) as {
      domain?: { ascii?: unknown };
      records?: DnsRecord[];
    };
    if (typeof domain?.ascii !== 'string' || !Array.isArray(records)) continue;
    await db
      .insertInto('dns_sets')
      .values({
        change_id: change.id,
        domain: domain.ascii,
        records: encodeDnsRecords(records),
        sent_by_id: change.requested_by_id,
        sent_by_name: change.requested_by_name,
        sent_at: Number(change.updated_at),
        correlation_id: change.correlation_id,
      })
      .execute();
  }
}
