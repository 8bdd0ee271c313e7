// 11. History at scale (issue 25): a year of a busy team's history in the store, on SQLite and on
// PostgreSQL, loaded through the store's own code (bench/loadHistory.ts: Store.importRows), and the built
// bot against it through the fake Discord: /audit with each filter to its oldest page, a target with `%`
// and `_`, a CSV export of 10,000 rows (memory while it is built and sent), autocomplete of domains and
// server ids, /watch list paged through 10,000 domains, a watch run of 10,000 domains, idle RSS, cold
// start, and acknowledgements while the daily purge deletes 100,000 expired entries.
//
// Per engine: load (at the schema of the release before, then openStore upgrades it), the first start
// (bare under commands at random, then HostOps purging under the same, bare again, HostOps without the
// purge), cold starts, idle RSS, then one launch for /audit, the export, autocomplete, /watch list and
// /watch check.
// The metric's details list every figure and the plans of /audit's queries (bench/explainAudit.ts).
//
// `npm run bench -- history` runs this alone (15–20 minutes). BENCH_HISTORY_ENGINES=sqlite (or postgres)
// runs one engine; BENCH_HISTORY_SCALE=0.1 loads a tenth of the data, BENCH_HISTORY_ONLY=purge stops
// after the purge and BENCH_HISTORY_ONLY=audit runs the /audit searches alone, on a bot whose purge finds
// nothing (to try a change out, not for results.md).
import { type BenchPostgres, startBenchPostgres } from '../postgres.js';
import { errorRow, type Metric, type MetricResult, type Row, ratioRow } from '../report.js';
import { fmtSummary, mb, median, ms } from '../stats.js';
import { coldLaunch } from './coldStart.js';
import { auditDetails, auditRows } from './history/auditSearches.js';
import { auditSession, session } from './history/historySessions.js';
import {
  AUDIT_ONLY,
  ENGINE_NAME,
  ENGINES,
  type Engine,
  EXPORT_MB_ALLOWANCE,
  EXPORTS,
  FACTOR,
  LAUNCHES,
  PURGE_ONLY,
  RSS_MB_ALLOWANCE,
  SAMPLE_MS,
  SCALE,
  SUGGEST_LIMIT_MS,
  WATCH_API_MS,
  WATCH_CONCURRENCY,
  WATCH_PAGE_LIMIT_MS,
} from './history/historySettings.js';
import { LOAD_AT_MIGRATION, prepareHistory } from './history/prepareHistory.js';
import { purge, purgeDetail, purgeRows } from './history/purgeUnderLoad.js';
import { type Idle, idleLaunch } from './memory.js';

async function engineRun(engine: Engine, postgres: BenchPostgres | undefined, out: (line: string) => void) {
  const label = (text: string) => `History (${ENGINE_NAME[engine]}): ${text}`;
  const prepared = await prepareHistory(engine, postgres);
  const rows: Row[] = [];
  const details: string[] = [];
  try {
    const env = { DATABASE_URL: prepared.url };
    const counts = prepared.loaded.counts;
    out(`  ${engine}: loaded in ${ms(prepared.loadMs)}`);
    if (AUDIT_ONLY) {
      // A retention longer than the loaded history: the purge at start finds nothing to delete.
      const searched = await auditSession(prepared, { ...env, AUDIT_RETENTION_DAYS: '36500' });
      out(`  ${engine}: /audit measured`);
      rows.push(...auditRows(label, searched.audit, searched.literal));
      details.push(...auditDetails(searched.audit, searched.literal));
      details.push(`Query plans:`, ...prepared.plans.map((line) => `  ${line}`));
      return { rows, details };
    }
    const purged = await purge(prepared, env);
    out(`  ${engine}: purge measured`);
    if (PURGE_ONLY) {
      rows.push(...purgeRows(label, purged));
      details.push(purgeDetail(purged));
      return { rows, details };
    }
    const cold: { ready: number; cpu: number }[] = [];
    const coldBare: { ready: number; cpu: number }[] = [];
    for (let n = 0; n < LAUNCHES; n++) {
      cold.push(await coldLaunch('hostops', env));
      coldBare.push(await coldLaunch('bare'));
    }
    out(`  ${engine}: cold start measured`);
    const idle: Idle[] = [];
    const idleBare: Idle[] = [];
    /** HostOps on the bench's default store (100 watched domains, no history): what the history adds. */
    const idleEmpty: Idle[] = [];
    for (let n = 0; n < LAUNCHES; n++) {
      idle.push(await idleLaunch('hostops', env));
      idleBare.push(await idleLaunch('bare'));
      idleEmpty.push(await idleLaunch('hostops'));
    }
    out(`  ${engine}: idle RSS measured`);
    const s = await session(prepared, env);
    out(`  ${engine}: session measured`);

    const exportOver = Math.max(...s.exported.map((e) => e.peak - e.idle));
    const ideal = (counts.watched / WATCH_CONCURRENCY) * WATCH_API_MS;
    const rssRow = (what: string, key: 'raw' | 'afterGc'): Row => {
      const h = median(idle.map((l) => l[key]));
      const b = median(idleBare.map((l) => l[key]));
      const diff = (h - b) / 1024 / 1024;
      return {
        metric: label(what),
        hostops: mb(h),
        reference: `${mb(b)} (bare)`,
        ratio: `${diff >= 0 ? '+' : ''}${diff.toFixed(1)} MB`,
        target: `≤ bare + ${RSS_MB_ALLOWANCE} MB`,
        met: diff <= RSS_MB_ALLOWANCE,
      };
    };
    rows.push(
      {
        metric: label(
          `load ${counts.audit.toLocaleString('en-US')} audit entries (${SCALE.expired.toLocaleString('en-US')} expired), ${counts.changes.toLocaleString('en-US')} changes, ${counts.watched.toLocaleString('en-US')} watched, ${counts.alerts.toLocaleString('en-US')} alerts (importRows)`,
        ),
        hostops: ms(prepared.loadMs),
        reference: prepared.fileBytes === undefined ? '' : `${mb(prepared.fileBytes)} on disk`,
        ratio: '',
        target: 'report',
        met: null,
      },
      {
        metric: label(
          `first start after the upgrade: ${prepared.upgrade.join(', ') || 'no migration'} on the loaded store`,
        ),
        hostops: ms(prepared.upgradeMs),
        reference: 'indexes built, no table rewritten',
        ratio: '',
        target: 'report (once)',
        met: null,
      },
      ...auditRows(label, s.audit, s.literal),
      {
        metric: label(
          `/audit CSV export of ${Math.max(...s.exported.map((e) => e.rows)).toLocaleString('en-US')} rows, RSS over idle (max of ${EXPORTS})`,
        ),
        hostops: `+${mb(exportOver)}`,
        reference: `built and sent in ${ms(median(s.exported.map((e) => e.ms)))} (median)`,
        ratio: '',
        target: `≤ idle + ${EXPORT_MB_ALLOWANCE} MB`,
        met: exportOver / 1024 / 1024 <= EXPORT_MB_ALLOWANCE,
      },
      {
        metric: label(`autocomplete of domain and server id, p99 (n=${s.suggested.all.n})`),
        hostops: ms(s.suggested.all.p99),
        reference: `domain ${ms(s.suggested.domain.p99)}, id ${ms(s.suggested.server.p99)}`,
        ratio: '',
        target: `p99 ≤ ${SUGGEST_LIMIT_MS} ms`,
        met: s.suggested.all.p99 <= SUGGEST_LIMIT_MS,
      },
      {
        metric: label(
          `/watch list through ${counts.watched.toLocaleString('en-US')} domains, p99 per page (n=${s.listed.pages.n})`,
        ),
        hostops: ms(s.listed.pages.p99),
        reference: `p50 ${ms(s.listed.pages.p50)}`,
        ratio: '',
        target: `p99 ≤ ${WATCH_PAGE_LIMIT_MS} ms`,
        met: s.listed.pages.p99 <= WATCH_PAGE_LIMIT_MS,
      },
      ratioRow(
        label(
          `watch run of ${counts.watched.toLocaleString('en-US')} domains (API ${WATCH_API_MS} ms, concurrency ${WATCH_CONCURRENCY})`,
        ),
        s.run.runMs,
        ideal,
        1.15,
        ms,
        `ideal ${counts.watched}/${WATCH_CONCURRENCY} × ${WATCH_API_MS} ms`,
      ),
      rssRow(`idle RSS, 5,000 members, 1 s after ready (median of ${LAUNCHES})`, 'raw'),
      rssRow(`idle RSS, after a forced full GC (median of ${LAUNCHES})`, 'afterGc'),
      ratioRow(
        label(`cold start, spawn → ready (median of ${LAUNCHES})`),
        median(cold.map((c) => c.ready)),
        median(coldBare.map((c) => c.ready)),
        1.3,
        ms,
        'bare',
      ),
      ...purgeRows(label, purged),
    );
    details.push(
      `**${ENGINE_NAME[engine]}**: ${counts.audit.toLocaleString('en-US')} audit entries (${SCALE.expired.toLocaleString('en-US')} of them past the ${SCALE.days}-day retention) from ${SCALE.users} users, ${counts.changes.toLocaleString('en-US')} change records in every end state, ${counts.watched.toLocaleString('en-US')} watched domains and ${counts.alerts.toLocaleString('en-US')} alerts sent, ${SCALE.journalDomains.toLocaleString('en-US')} distinct domains in the journal; loaded by bench/loadHistory.ts through Store.importRows (schema at ${LOAD_AT_MIGRATION}) in ${ms(prepared.loadMs)}, then opened by openStore, which applied ${prepared.upgrade.join(', ') || 'nothing'} in ${ms(prepared.upgradeMs)}${prepared.vacuumMs === undefined ? '' : `, then VACUUM ANALYZE in ${ms(prepared.vacuumMs)} (${((prepared.allVisible ?? 0) * 100).toFixed(0)} % of audit's pages all-visible)`}; ${mb(prepared.fileBytes ?? 0)} on disk`,
      ...auditDetails(s.audit, s.literal),
      `CSV export (/audit command:/domain info days:${SCALE.days} export:true), VmRSS every ${SAMPLE_MS} ms from dispatch to the answer against the median of 10 samples in the second before: ${s.exported.map((e) => `${e.rows.toLocaleString('en-US')} rows, ${mb(e.bytes)}, ${ms(e.ms)}, idle ${mb(e.idle)} → peak ${mb(e.peak)} (+${mb(e.peak - e.idle)})`).join('; ')}`,
      `Autocomplete (admin: every domain command's sources), dispatch → choices: domain ${fmtSummary(s.suggested.domain)}; server id ${fmtSummary(s.suggested.server)}. Last round: ${s.suggested.perTyped.join('; ')}`,
      `/watch list and Next through every page: ${fmtSummary(s.listed.pages)}; last footer "${s.listed.lastFooter}"`,
      `/watch check: the run took ${ms(s.run.runMs)} (its own figure) against the ideal ${ms(ideal)}; dispatch → answer ${ms(s.run.ms)}; "${s.run.text.replace(/\n/g, ' ')}"; RSS after ${mb(s.rssAfter)}`,
      `Idle RSS, 5,000-member guild, under --inspect, alternating with bare and with HostOps on the bench's default store (100 watched domains, no history): 1 s after ready HostOps ${idle.map((l) => mb(l.raw)).join(', ')}; bare ${idleBare.map((l) => mb(l.raw)).join(', ')}; HostOps without the history ${idleEmpty.map((l) => mb(l.raw)).join(', ')}. After a forced GC HostOps ${idle.map((l) => mb(l.afterGc)).join(', ')} (median ${mb(median(idle.map((l) => l.afterGc)))}); bare ${idleBare.map((l) => mb(l.afterGc)).join(', ')} (median ${mb(median(idleBare.map((l) => l.afterGc)))}); HostOps without the history ${idleEmpty.map((l) => mb(l.afterGc)).join(', ')} (median ${mb(median(idleEmpty.map((l) => l.afterGc)))}). Heap used after GC: HostOps ${mb(median(idle.map((l) => l.heap)))}, without the history ${mb(median(idleEmpty.map((l) => l.heap)))}`,
      `Cold start (spawn → ready), alternating: HostOps ${cold.map((c) => ms(c.ready)).join(', ')}; bare ${coldBare.map((c) => ms(c.ready)).join(', ')}; CPU by then (median) HostOps ${ms(median(cold.map((c) => c.cpu)))}, bare ${ms(median(coldBare.map((c) => c.cpu)))}`,
      purgeDetail(purged),
      `Query plans (the store's own queries, EXPLAIN${engine === 'postgres' ? ' (COSTS OFF)' : ' QUERY PLAN'}):`,
      ...prepared.plans.map((line) => `  ${line}`),
    );
  } finally {
    await prepared.cleanup();
  }
  return { rows, details };
}

export const history: Metric = {
  name: 'history',
  title: 'History at scale (SQLite and PostgreSQL)',
  async run(): Promise<MetricResult> {
    const rows: Row[] = [];
    const details: string[] = [];
    const out = (line: string) => process.stdout.write(`${line}\n`);
    if (FACTOR !== 1) details.push(`BENCH_HISTORY_SCALE=${FACTOR}: not the issue's figures`);
    const postgres = ENGINES.includes('postgres') ? await startBenchPostgres() : undefined;
    try {
      for (const engine of ENGINES) {
        try {
          const result = await engineRun(engine, postgres, out);
          rows.push(...result.rows);
          details.push(...result.details);
        } catch (error) {
          rows.push(errorRow(`History (${ENGINE_NAME[engine]})`, error));
          details.push(
            `${ENGINE_NAME[engine]} failed: ${error instanceof Error ? error.message : String(error)}`,
          );
          console.error(error);
        }
      }
    } finally {
      await postgres?.stop();
    }
    return { rows, details };
  },
};
