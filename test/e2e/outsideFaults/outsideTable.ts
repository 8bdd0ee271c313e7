// The fault matrix of the outside (issue 48): every dependency HostOps reaches beyond its own processes ×
// every fault strangers' servers produce — ONE table, from which outsideFaults.test.ts generates its cases
// and docs/reliability.md its "table of the outside". A cell is run, does not apply (and says why), is
// not run yet (and says why), or is pending on a fix another branch brings (PENDING: run with it.fails, so
// the suite stays green and turns red, loudly, the day the fix lands and the entry must go).

export const DEPENDENCIES = [
  'provider API',
  'registry (RDAP)',
  'bootstrap file',
  'Discord REST API',
  'DNS resolver',
] as const;
export type Dependency = (typeof DEPENDENCIES)[number];

export const FAULTS = [
  'no answer',
  'just under the timeout',
  '429 Retry-After: a day',
  '429 Retry-After: more than a timer holds',
  '429 Retry-After: not a number',
  'redirect loop',
  'redirect to an internal address',
  'oversized body',
  'reset connection',
  'TLS failure',
] as const;
export type Fault = (typeof FAULTS)[number];

/** What must still finish while the dependency misbehaves, per dependency. */
export const PATHS: Record<Dependency, string> = {
  'provider API':
    "`/domain info`: acknowledged within 3 s; one answer (the provider's failure said plainly) within the API timeout",
  'registry (RDAP)':
    "`/domain info`: acknowledged within 3 s; the provider's answer within the API timeout, the registry's line after it; at most one answer and one edit",
  'bootstrap file':
    "`/domain info`: acknowledged within 3 s; the provider's answer within the API timeout; at most one answer and one edit",
  'Discord REST API':
    "On a bot of its own whose watch channel's posts fail (the digest): `/watch add` + `/watch check` of a domain expiring in 3 days acknowledged within 3 s and answered once within 30 s; a `/domain info` meanwhile acknowledged within 3 s and answered; the digest line posted at most once",
  'DNS resolver':
    '`/server rdns` (forward check `warn`): acknowledged within 3 s; the prompt once, the forward line saying what was found',
};

/** Cells that do not apply, and why: the table says so instead of leaving them out. */
const NOT_APPLICABLE: Partial<Record<Dependency, Partial<Record<Fault, string>>>> = {
  'DNS resolver': {
    '429 Retry-After: a day': 'DNS has no HTTP status',
    '429 Retry-After: more than a timer holds': 'DNS has no HTTP status',
    '429 Retry-After: not a number': 'DNS has no HTTP status',
    'redirect loop': 'a CNAME chain is the resolver’s to follow, not HostOps’',
    'redirect to an internal address': 'HostOps connects nowhere with the answer: it compares addresses',
    'reset connection': 'UDP: no connection to reset',
    'TLS failure': 'plain DNS over UDP',
  },
};

/** Cells this matrix does not run yet, and why (each is a gap, listed in the report). */
const NOT_RUN: Partial<Record<Dependency, Partial<Record<Fault, string>>>> = {
  'DNS resolver': {
    'just under the timeout': 'not run yet: the fake DNS server answers at once or never',
    'oversized body': 'not run yet: the fake DNS server sends no truncated answers',
  },
  'Discord REST API': Object.fromEntries(
    FAULTS.filter((fault) => fault !== 'no answer' && fault !== 'reset connection').map((fault) => [
      fault,
      'not run yet: the fake Discord fails a channel post only by holding it, dropping it, or a status',
    ]),
  ),
};

/**
 * THE list of cells that fail on this branch's code because of what another branch fixes: run with
 * `it.fails` until then. The lead removes an entry once that branch is merged (the cell then fails loudly).
 */
export const PENDING: readonly {
  dependency: Dependency;
  fault: Fault;
  pendingOn: 'i48-client' | 'i48-callers';
}[] = [];

export interface Cell {
  dependency: Dependency;
  fault: Fault;
  /** Why it does not apply, or why it is not run yet; undefined: run. */
  skip?: { kind: 'n/a' | 'not run'; why: string };
  pendingOn?: 'i48-client' | 'i48-callers';
}

export const CELLS: readonly Cell[] = DEPENDENCIES.flatMap((dependency) =>
  FAULTS.map((fault): Cell => {
    const na = NOT_APPLICABLE[dependency]?.[fault];
    const notRun = NOT_RUN[dependency]?.[fault];
    const pending = PENDING.find((p) => p.dependency === dependency && p.fault === fault);
    return {
      dependency,
      fault,
      ...(na ? { skip: { kind: 'n/a', why: na } } : notRun ? { skip: { kind: 'not run', why: notRun } } : {}),
      ...(pending ? { pendingOn: pending.pendingOn } : {}),
    };
  }),
);

export const cellName = (cell: Pick<Cell, 'dependency' | 'fault'>) => `${cell.dependency} / ${cell.fault}`;

/** What a run cell found, for the doc's table. */
export interface CellResult {
  cell: Cell;
  /** 'holds' or what failed (pending cells: what the other branch is to fix). */
  outcome: string;
}

/** docs/reliability.md's table of the outside: one row per fault, one column per dependency. */
export function renderOutsideTable(results: readonly CellResult[]): string {
  const mark = (cell: Cell) => {
    if (cell.skip) return cell.skip.kind === 'n/a' ? `n/a (${cell.skip.why})` : `— (${cell.skip.why})`;
    const result = results.find((r) => r.cell === cell);
    if (cell.pendingOn) return `❌ pending on ${cell.pendingOn}`;
    return result?.outcome === 'holds' ? '✅' : `❌ ${result?.outcome ?? 'not run'}`;
  };
  const header = `| Fault | ${DEPENDENCIES.join(' | ')} |`;
  const rule = `|---|${DEPENDENCIES.map(() => '---').join('|')}|`;
  const rows = FAULTS.map(
    (fault) =>
      `| ${fault} | ${DEPENDENCIES.map((d) => mark(CELLS.find((c) => c.dependency === d && c.fault === fault) as Cell)).join(' | ')} |`,
  );
  const paths = DEPENDENCIES.map((d) => `- ${d}: ${PATHS[d]}`);
  return [header, rule, ...rows, '', 'What each column checks:', '', ...paths].join('\n');
}
