import { type Kysely, sql } from 'kysely';
import type { TargetSource } from './auditRecords.js';
import type { Database } from './schema.js';

/**
 * How many of the newest entries of each command and outcome are looked at. Suggestions are what was
 * used lately; a bounded window keeps their cost flat however long the audit trail grows (a year of it
 * is a million rows), where a scan of every entry grew with it on every keystroke.
 */
export const RECENT_WINDOW = 1000;

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * Distinct targets among the newest RECENT_WINDOW entries of each source that contain `part`
 * (case-insensitive, wildcards literal), most recent use first. Each window is one range of the
 * covering index `audit_suggestions` (command, subcommand, outcome, at, target), read backwards.
 */
export function recentTargetsQuery(
  db: Kysely<Database>,
  sources: readonly TargetSource[],
  part: string,
  limit: number,
) {
  const windows = sources.flatMap(({ command, subcommand, outcomes }) =>
    outcomes.map((outcome) =>
      db
        .selectFrom((eb) =>
          eb
            .selectFrom('audit')
            .select(['target', 'at'])
            .where('command', '=', command)
            .where('subcommand', '=', subcommand)
            .where('outcome', '=', outcome)
            .orderBy('at', 'desc')
            .limit(RECENT_WINDOW)
            .as('w'),
        )
        .select(['w.target', 'w.at']),
    ),
  );
  const [first, ...rest] = windows;
  if (first === undefined) return undefined;
  const recent = rest.reduce((union, window) => union.unionAll(window), first);
  const pattern = `%${escapeLike(part.toLowerCase())}%`;
  return db
    .selectFrom(recent.as('recent'))
    .select('recent.target')
    .select((eb) => eb.fn.max('recent.at').as('last'))
    .where('recent.target', 'is not', null)
    .where(sql`lower(recent.target)`, 'like', sql`${pattern} escape '\\'`)
    .groupBy('recent.target')
    .orderBy('last', 'desc')
    .limit(limit);
}
