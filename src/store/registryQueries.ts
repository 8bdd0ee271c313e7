import { type Kysely, type Selectable, sql } from 'kysely';
import { chunksOf } from './chunksOf.js';
import type { RegistryFlag, RegistryOutcome, RegistryRecord } from './registryTypes.js';
import type { Store } from './Store.js';
import type { Database, RegistryAnswersTable } from './schema.js';

// The predicate of the partial index registry_answers_flagged (migration 0018), word for word.
const FLAGGED = sql<boolean>`flags <> '[]'`;

const json = (value: unknown) => (value === null ? null : JSON.stringify(value));

/** The registry's answers (RDAP) per domain: migration 0018. */
export function registryQueries(db: Kysely<Database>): Store['registry'] {
  return {
    async get(domains) {
      const rows: RegistryRecord[] = [];
      for (const chunk of chunksOf(domains)) {
        const found = await db
          .selectFrom('registry_answers')
          .selectAll()
          .where('domain', 'in', chunk)
          .execute();
        rows.push(...found.map(toRecord));
      }
      return rows;
    },

    async record(record, previousVersion) {
      const values = {
        read_at: record.readAt.getTime(),
        outcome: record.outcome,
        server: record.server,
        expires_at: record.expiresAt,
        statuses: json(record.statuses),
        nameservers: json(record.nameservers),
        delegation_signed: record.delegationSigned === null ? null : record.delegationSigned ? 1 : 0,
        flags: JSON.stringify(record.flags),
        watched: record.watched ? 1 : 0,
      };
      if (previousVersion === undefined) {
        const inserted = await db
          .insertInto('registry_answers')
          .values({ domain: record.domain, ...values, version: 1 })
          .onConflict((oc) => oc.column('domain').doNothing())
          .executeTakeFirst();
        return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
      }
      const updated = await db
        .updateTable('registry_answers')
        .set({ ...values, version: previousVersion + 1 })
        .where('domain', '=', record.domain)
        .where('version', '=', previousVersion)
        .executeTakeFirst();
      return updated.numUpdatedRows === 1n;
    },

    async flagged() {
      const rows = await db
        .selectFrom('registry_answers')
        .innerJoin('watched_domains', 'watched_domains.domain', 'registry_answers.domain')
        .select(['registry_answers.domain', 'registry_answers.flags'])
        .where(FLAGGED)
        .execute();
      return rows.map((row) => ({ domain: row.domain, flags: JSON.parse(row.flags) as RegistryFlag[] }));
    },

    async expiries(after, limit) {
      const rows = await db
        .selectFrom('registry_answers')
        .innerJoin('watched_domains', 'watched_domains.domain', 'registry_answers.domain')
        .select(['registry_answers.domain', 'registry_answers.expires_at'])
        .where('registry_answers.expires_at', 'is not', null)
        .$if(after !== undefined, (qb) => qb.where('registry_answers.domain', '>', after as string))
        .orderBy('registry_answers.domain')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ domain: row.domain, expiresAt: row.expires_at as string }));
    },

    async claimReask(domain, now, windowMs) {
      const at = now.getTime();
      const result = await db
        .insertInto('registry_reasks')
        .values({ domain, asked_at: at })
        .onConflict((oc) =>
          oc
            .column('domain')
            .doUpdateSet({ asked_at: at })
            .where('registry_reasks.asked_at', '<=', at - windowMs),
        )
        .executeTakeFirst();
      if (Number(result.numInsertedOrUpdatedRows ?? 0n) > 0) return { claimed: true };
      const row = await db
        .selectFrom('registry_reasks')
        .select('asked_at')
        .where('domain', '=', domain)
        .executeTakeFirst();
      return { claimed: false, at: new Date(Number(row?.asked_at ?? at)) };
    },
  };
}

function toRecord(row: Selectable<RegistryAnswersTable>): RegistryRecord {
  return {
    domain: row.domain,
    readAt: new Date(Number(row.read_at)),
    outcome: row.outcome as RegistryOutcome,
    server: row.server,
    expiresAt: row.expires_at,
    statuses: row.statuses === null ? null : (JSON.parse(row.statuses) as string[]),
    nameservers: row.nameservers === null ? null : (JSON.parse(row.nameservers) as string[]),
    delegationSigned: row.delegation_signed === null ? null : row.delegation_signed === 1,
    flags: JSON.parse(row.flags) as RegistryFlag[],
    watched: Number(row.watched) === 1,
    version: Number(row.version),
  };
}
