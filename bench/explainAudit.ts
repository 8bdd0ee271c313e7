// The query plans of /audit's queries on a loaded store, as the store builds them (auditQueries): for each
// filter the count up to the cap, the newest page and the oldest page (read from the oldest end), one row
// past each page to tell whether there are more. Used by the history benchmark (its details, and
// docs/bench/2026-11-25-history-at-scale.md); `npx tsx bench/explainAudit.ts <DATABASE_URL>` prints them for any store.
import Database from 'better-sqlite3';
import { type Compilable, CompiledQuery, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { COUNT_CAP } from '../commands/audit.js';
import { AUDIT_PAGE_SIZE } from '../src/audit/renderAudit.js';
import { auditQueries, TARGET_INDEX_LIMIT, targetCandidates } from '../src/store/auditQueries.js';
import type { AuditFilter } from '../src/store/index.js';
import type { Database as Schema } from '../src/store/schema.js';
import { serverId, userId } from './loadHistory.js';

const DAY_MS = 86_400_000;

/** Each /audit filter alone over 400 days, as the history benchmark runs them. */
export function auditFilters(now: Date): { name: string; filter: AuditFilter }[] {
  const since = new Date(now.getTime() - 400 * DAY_MS);
  return [
    { name: 'days 400', filter: { since } },
    { name: 'user', filter: { since, userId: userId(7) } },
    { name: 'command /domain info', filter: { since, command: 'domain', subcommand: 'info' } },
    { name: 'outcome unknown', filter: { since, outcome: 'unknown' } },
    { name: 'target site123', filter: { since, target: 'site123' } },
    { name: `target server ${serverId(42)}`, filter: { since, target: `server ${serverId(42)}` } },
    { name: 'target example (half the entries)', filter: { since, target: 'example' } },
    // Shorter than a trigram: /audit searches the whole target (an /audit search's own `7d`).
    { name: 'target 7d (whole)', filter: { since, targetExact: '7d' } },
  ];
}

export async function explainAudit(url: string, now: Date): Promise<string[]> {
  const postgres = /^postgres(ql)?:/i.test(url);
  const engine = postgres ? 'postgres' : 'sqlite';
  const db = new Kysely<Schema>({
    dialect: postgres
      ? new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) })
      : new SqliteDialect({ database: new Database(url.replace(/^sqlite:/, ''), { readonly: true }) }),
  });
  const explain = async (query: Compilable): Promise<string[]> => {
    const compiled = query.compile();
    const text = postgres ? `EXPLAIN (COSTS OFF) ${compiled.sql}` : `EXPLAIN QUERY PLAN ${compiled.sql}`;
    const { rows } = await db.executeQuery<Record<string, unknown>>(
      CompiledQuery.raw(text, [...compiled.parameters]),
    );
    if (postgres) return rows.map((row) => String(row['QUERY PLAN']));
    // SQLite: id, parent, detail; indent children under their parent.
    const depth = new Map<number, number>([[0, 0]]);
    return rows.map((row) => {
      const level = (depth.get(Number(row.parent)) ?? 0) + 1;
      depth.set(Number(row.id), level);
      return `${'  '.repeat(level - 1)}${String(row.detail)}`;
    });
  };
  const lines: string[] = [];
  try {
    for (const { name, filter } of auditFilters(now)) {
      // As the store decides (kyselyStore): SQLite reads the window for text with too many candidates.
      const probe =
        engine === 'sqlite' && filter.target !== undefined ? targetCandidates(db, filter.target) : undefined;
      const targetIndex =
        probe === undefined ||
        Number((await db.executeQuery<{ n: number }>(probe)).rows[0]?.n) < TARGET_INDEX_LIMIT;
      const options = { targetIndex };
      const { count } = auditQueries(db, engine, filter, { limit: 10, offset: 0 }, options);
      const [{ total = 0 } = {}] = (await count.execute()) as { total?: number }[];
      lines.push(
        `${name} (${Number(total).toLocaleString('en-US')} matches${targetIndex ? '' : ', the window read instead of the trigram index'})`,
      );
      const page = { limit: AUDIT_PAGE_SIZE + 1, offset: 0 };
      for (const [what, query] of [
        [
          `count up to ${COUNT_CAP + 1}`,
          auditQueries(db, engine, filter, page, options).countUpTo(COUNT_CAP + 1),
        ],
        ['newest page', auditQueries(db, engine, filter, page, options).page],
        [
          'oldest page (read from the oldest end)',
          auditQueries(db, engine, filter, { ...page, from: 'oldest' }, options).page,
        ],
      ] as const) {
        lines.push(`  ${what}:`, ...(await explain(query)).map((line) => `    ${line}`));
      }
    }
  } finally {
    await db.destroy();
  }
  return lines;
}

if (process.argv[1]?.endsWith('explainAudit.ts') && process.argv[2] !== undefined) {
  const lines = await explainAudit(process.argv[2], new Date(process.argv[3] ?? Date.now()));
  process.stdout.write(`${lines.join('\n')}\n`);
}
