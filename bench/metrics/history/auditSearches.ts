// /audit at scale: each filter to its oldest page, targets with `%` and `_`, and the rows and details they give.
import { setTimeout as sleep } from 'node:timers/promises';
import { decodePageArgs, encodePageId } from '../../../commands/audit/pageId.js';
import { COUNT_CAP } from '../../../commands/audit.js';
import { ROLES } from '../../botSetup.js';
import { serverId, userId } from '../../loadHistory.js';
import { waitForQuietMachine } from '../../procStats.js';
import type { Row } from '../../report.js';
import type { Stage } from '../../stage.js';
import { fmtSummary, ms, type Summary, summarize } from '../../stats.js';
import type { Tracker } from '../../Tracker.js';
import { answered, footerCount, footerTotal, pagingId } from './answered.js';
import { AUDIT_LIMIT_MS, AUDIT_REPEATS, DAY_S, MIDDLE_EVERY, SCALE } from './historySettings.js';
import type { Prepared } from './prepareHistory.js';

/** Each /audit filter alone over the whole retention, plus the default window. */
const AUDIT_CASES: {
  name: string;
  options: Record<string, string | number | boolean>;
  /** Text half the trail contains (its own row): counted up to COUNT_CAP, its oldest page past the count. */
  dense?: true;
}[] = [
  { name: `days ${SCALE.days} (everything)`, options: { days: SCALE.days } },
  { name: 'days 7 (the default)', options: {} },
  { name: 'user', options: { user: userId(7), days: SCALE.days } },
  { name: 'command /domain info', options: { command: 'domain info', days: SCALE.days } },
  { name: 'command /panel bind', options: { command: 'panel bind', days: SCALE.days } },
  { name: 'outcome ok', options: { outcome: 'ok', days: SCALE.days } },
  { name: 'outcome unknown', options: { outcome: 'unknown', days: SCALE.days } },
  { name: 'target site123 (a domain)', options: { target: 'site123', days: SCALE.days } },
  { name: `target server ${serverId(42)}`, options: { target: `server ${serverId(42)}`, days: SCALE.days } },
  // Shorter than three characters: a whole target (an /audit search's own `7d`; `_` is none).
  { name: 'target 7d (whole target)', options: { target: '7d', days: SCALE.days } },
  { name: 'target _ (whole target)', options: { target: '_', days: SCALE.days } },
  {
    name: 'target example (half the entries)',
    options: { target: 'example', days: SCALE.days },
    dense: true,
  },
  // The same text in a month: its matches are the table's newest rows, not its first ones.
  { name: 'target example, days 30', options: { target: 'example', days: 30 }, dense: true },
];
/** Targets whose `%` and `_` must match themselves (the last two whole targets: shorter than three). */
const LITERAL_TARGETS = ['50%', 'dj_12', '_', '%'];

export interface AuditResult {
  name: string;
  dense: boolean;
  total: number;
  /** More than `total` matches (the count stopped at COUNT_CAP). */
  capped: boolean;
  first: Summary;
  oldest: Summary;
  middle: Summary;
}

export async function auditCases(stage: Stage, tracker: Tracker): Promise<AuditResult[]> {
  const results: AuditResult[] = [];
  for (const { name, options, dense } of AUDIT_CASES) {
    // Another process (a build, a test run) holding the CPUs would show as the bot's time.
    await waitForQuietMachine();
    const first: number[] = [];
    const oldest: number[] = [];
    const middle: number[] = [];
    let count = { total: 0, capped: false };
    for (let n = 0; n < AUDIT_REPEATS; n++) {
      const i = stage.discord.dispatchInteraction({ commandName: 'audit', options, roles: [ROLES.operator] });
      const answer = await answered(stage, tracker, i);
      first.push(answer.ms);
      count = footerCount(answer);
      const { total } = count;
      // The search as the bot's own Older button carries it (its `since` fixed when the command ran).
      const older = pagingId(answer, 'Older') ?? '';
      const query = decodePageArgs(older.replace(/^hostops:audit:/, ''))?.query;
      if (query === undefined) {
        // No match, no buttons (a whole target nobody has, or a small BENCH_HISTORY_SCALE).
        if (total === 0) continue;
        throw new Error(`${name}: no paging button in the answer (${older})`);
      }
      // The oldest page: the bot's own Oldest button (read from the oldest end, needing no count); the
      // middle one (not a target) a page counted from the newest, halfway into what was counted.
      const oldestId = pagingId(answer, 'Oldest') ?? '';
      const clicks: [string, number[]][] = [[oldestId, oldest]];
      if (n % MIDDLE_EVERY === 0) clicks.push([encodePageId(query, Math.floor(total / 20) * 10), middle]);
      for (const [customId, into] of clicks) {
        const click = stage.discord.dispatchComponent({ customId, roles: [ROLES.operator] });
        const page = await answered(stage, tracker, click);
        into.push(page.ms);
        // Each /audit adds its own entry, which the unfiltered search counts: a few more, never fewer.
        const seen = footerCount(page);
        const agrees = count.capped
          ? seen.capped && seen.total === total
          : !seen.capped && seen.total >= total && seen.total <= total + 3;
        if (customId === oldestId && !agrees)
          throw new Error(`${name}: the oldest page counts ${JSON.stringify(seen)}, the first ${total}`);
      }
    }
    results.push({
      name,
      dense: dense === true,
      total: count.total,
      capped: count.capped,
      first: summarize(first),
      oldest: summarize(oldest),
      middle: summarize(middle),
    });
  }
  return results;
}

export interface LiteralResult {
  target: string;
  shown: number;
  expected: number;
  ms: number;
}

/**
 * /audit target with `%` and `_`: the count shown against one that knows no wildcards (instr / strpos;
 * for text shorter than three characters, a whole target: `=`), up to the count's cap.
 */
export async function literalTargets(
  prepared: Prepared,
  stage: Stage,
  tracker: Tracker,
): Promise<LiteralResult[]> {
  const results: LiteralResult[] = [];
  for (const target of LITERAL_TARGETS) {
    // Counted first: the search's own audit entry (its target names what it looked for) is written after
    // it has answered, so the one before's is waited for.
    await sleep(500);
    const sinceMs = (Math.floor(Date.now() / 1000) - SCALE.days * DAY_S) * 1000;
    const find = prepared.engine === 'sqlite' ? 'instr' : 'strpos';
    const matches = Array.from(target).length < 3 ? 'lower(target) = ?' : `${find}(lower(target), ?) > 0`;
    const [row] = await prepared.reader.all(`select count(*) as n from audit where at >= ? and ${matches}`, [
      sinceMs,
      target.toLowerCase(),
    ]);
    const i = stage.discord.dispatchInteraction({
      commandName: 'audit',
      options: { target, days: SCALE.days },
      roles: [ROLES.operator],
    });
    const answer = await answered(stage, tracker, i);
    results.push({
      target,
      shown: footerTotal(answer),
      expected: Math.min(COUNT_CAP, Number(row?.n)),
      ms: answer.ms,
    });
  }
  return results;
}

/** What worst page of these searches took (p99), and which. */
function worstOf(cases: AuditResult[]) {
  return cases.reduce(
    (w, c) => {
      for (const [page, summary] of [
        ['first', c.first],
        ['oldest', c.oldest],
      ] as const)
        if (summary.p99 > w.p99) w = { p99: summary.p99, what: `${c.name}, ${page} page` };
      return w;
    },
    { p99: 0, what: '' },
  );
}

const matchCount = (c: { total: number; capped: boolean }) =>
  `${c.capped ? 'more than ' : ''}${c.total.toLocaleString('en-US')}`;

export function auditRows(
  label: (text: string) => string,
  audit: AuditResult[],
  literal: LiteralResult[],
): Row[] {
  const held = AUDIT_CASES.filter((c) => !c.dense).length;
  const worst = worstOf(audit.filter((c) => !c.dense));
  const dense = worstOf(audit.filter((c) => c.dense));
  const denseCase = audit.find((c) => c.dense);
  return [
    {
      metric: label(
        `/audit, ${held} searches (days, user, command, outcome, target, a whole target), first and oldest page, worst p99 (n=${AUDIT_REPEATS} each)`,
      ),
      hostops: ms(worst.p99),
      reference: worst.what,
      ratio: '',
      target: `p99 ≤ ${AUDIT_LIMIT_MS} ms`,
      met: worst.p99 <= AUDIT_LIMIT_MS,
    },
    {
      metric: label(
        `/audit target in half the entries (counted up to ${COUNT_CAP.toLocaleString('en-US')}), first and oldest page, worst p99`,
      ),
      hostops: ms(dense.p99),
      reference: `${dense.what}, ${denseCase === undefined ? '?' : matchCount(denseCase)} matches`,
      ratio: '',
      target: `p99 ≤ ${AUDIT_LIMIT_MS} ms`,
      met: dense.p99 <= AUDIT_LIMIT_MS,
    },
    {
      metric: label(`/audit target with % and _ (${LITERAL_TARGETS.map((t) => `"${t}"`).join(', ')})`),
      hostops: literal.map((l) => l.shown.toLocaleString('en-US')).join(' / '),
      reference: `${literal.map((l) => l.expected.toLocaleString('en-US')).join(' / ')} (instr/strpos; = under three characters)`,
      ratio: '',
      target: 'match literally',
      met: literal.every((l) => l.shown === l.expected),
    },
  ];
}

export function auditDetails(audit: AuditResult[], literal: LiteralResult[]): string[] {
  return [
    `/audit, dispatch → answer (n=${AUDIT_REPEATS} each, the middle page every ${MIDDLE_EVERY}th round; the first page is the command, the oldest a click on its own Oldest button, the middle one on a paging button for that offset from the newest, the bot's own custom id):`,
    ...audit.map(
      (c) =>
        `  - ${c.name}: ${matchCount(c)} matches; first page ${fmtSummary(c.first)}; oldest page ${fmtSummary(c.oldest)}; middle page (not a target) ${fmtSummary(c.middle)}`,
    ),
    `/audit target, literal \`%\` and \`_\` (count shown / count by instr or strpos, by = for a whole target, up to ${COUNT_CAP.toLocaleString('en-US')}): ${literal.map((l) => `"${l.target}" ${l.shown}/${l.expected} in ${ms(l.ms)}`).join('; ')}`,
  ];
}
