// `npm run bench` runs every metric; `npm run bench -- ack latency` runs those alone. Builds HostOps first
// and benchmarks the compiled product. Writes bench/results.md on a full run; a partial run with --write
// updates only its metrics' rows and details there (mergeResults). Never fails on a missed target.
// results.md is wholly generated (the table, the details, bench/method.md, the machine): hand-written
// analyses go to dated notes under docs/bench/, never into it.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  botNodeVersion,
  fillCompileCache,
  HOSTOPS_ENV,
  HOSTOPS_NODE_ARGS,
  LOG_LEVEL,
  prepareBotCwd,
  ROOT,
  WATCHED_DOMAINS,
} from './botSetup.js';
import { access } from './metrics/access.js';
import { accessAck } from './metrics/accessAck.js';
import { ack } from './metrics/ack.js';
import { claims } from './metrics/claims.js';
import { coldStart } from './metrics/coldStart.js';
import { dnsDiff, dnsLookup } from './metrics/dns.js';
import { expiry } from './metrics/expiry.js';
import { history } from './metrics/history.js';
import { http } from './metrics/http.js';
import { httpFlood } from './metrics/httpFlood.js';
import { idleAck } from './metrics/idleAck.js';
import { journal } from './metrics/journal.js';
import { knee } from './metrics/knee.js';
import { latency } from './metrics/latency.js';
import { load } from './metrics/load.js';
import { longRunMemory } from './metrics/longRun.js';
import { memory } from './metrics/memory.js';
import { operatorPages } from './metrics/operatorPages.js';
import { rdap } from './metrics/rdap.js';
import { rdapCallers } from './metrics/rdapCallers.js';
import { rdnsAck } from './metrics/rdnsAck.js';
import { replicas } from './metrics/replicas.js';
import { scrape } from './metrics/scrape.js';
import { watch } from './metrics/watch.js';
import {
  errorRow,
  machine,
  markdownTable,
  mergeResults,
  type Row,
  type Section,
  textTable,
} from './report.js';

const METRICS = [
  ack,
  latency,
  expiry,
  knee,
  memory,
  longRunMemory,
  idleAck,
  coldStart,
  journal,
  replicas,
  claims,
  watch,
  rdap,
  rdapCallers,
  dnsDiff,
  dnsLookup,
  rdnsAck,
  history,
  load,
  http,
  httpFlood,
  scrape,
  operatorPages,
  access,
  accessAck,
];

const out = (text: string) => process.stdout.write(`${text}\n`);

/** The production build (`npm run build`: scripts/build.mjs, esbuild), which `npm start` runs. */
function build(): void {
  try {
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--quiet'], {
      cwd: ROOT,
      stdio: 'pipe',
    });
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? '';
    throw new Error(`build failed:\n${stderr}`);
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const write = args.includes('--write');
  const names = args.filter((a) => !a.startsWith('--'));
  const unknown = names.filter((n) => !METRICS.some((m) => m.name === n));
  if (unknown.length > 0) {
    process.stderr.write(
      `unknown metric ${unknown.join(', ')}; choose from ${METRICS.map((m) => m.name).join(', ')}\n`,
    );
    process.exitCode = 2;
    return;
  }
  const selected = names.length === 0 ? METRICS : METRICS.filter((m) => names.includes(m.name));
  const started = performance.now();
  const date = new Date().toISOString();

  const botNode = botNodeVersion();
  out(`HostOps benchmarks · ${machine(botNode)} · ${date}`);
  out('building HostOps (npm run build: scripts/build.mjs)…');
  build();
  if (HOSTOPS_NODE_ARGS.length > 0) out(`HostOps runs with ${HOSTOPS_NODE_ARGS.join(' ')} (npm start)`);
  await prepareBotCwd();
  fillCompileCache();
  out(`HostOps runs on SQLite with the domain watch on and ${WATCHED_DOMAINS} watched domains`);

  const rows: Row[] = [];
  const sections: Section[] = [];
  for (const metric of selected) {
    const t0 = performance.now();
    out(`\n▶ ${metric.name}: ${metric.title}`);
    const heading = `### ${metric.name}: ${metric.title}`;
    try {
      const result = await metric.run();
      rows.push(...result.rows);
      sections.push({
        heading,
        lines: ['', ...result.details.map((d) => (d.startsWith('  ') ? d : `- ${d}`)), ''],
      });
      out(textTable(result.rows));
      for (const line of result.details) out(line.startsWith('  ') ? line : `- ${line}`);
    } catch (error) {
      const row = errorRow(metric.title, error);
      rows.push(row);
      sections.push({ heading, lines: ['', `- failed: ${row.target}`, ''] });
      console.error(error);
    }
    out(`(${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  }

  const seconds = (performance.now() - started) / 1000;
  out(`\n${textTable(rows)}`);
  out(`\ntotal ${seconds.toFixed(0)} s`);

  const resultsPath = join(ROOT, 'bench', 'results.md');
  const method = readFileSync(join(ROOT, 'bench', 'method.md'), 'utf8').trim();
  const tail = [method, ''];
  if (names.length === 0) {
    const markdown = [
      '# HostOps benchmark results',
      '',
      `Generated by \`npm run bench\` on ${date} · ${machine(botNode)} · HostOps \`LOG_LEVEL=${LOG_LEVEL}\`${Object.entries(
        HOSTOPS_ENV,
      )
        .map(([name, value]) => ` \`${name}=${value}\``)
        .join(
          '',
        )}${HOSTOPS_NODE_ARGS.map((arg) => ` \`${arg}\``).join('')}, SQLite store, watch on with ${WATCHED_DOMAINS} domains · run took ${seconds.toFixed(0)} s.`,
      '',
      markdownTable(rows),
      '',
      '## Details',
      '',
      ...sections.flatMap((section) => [section.heading, ...section.lines]),
      ...tail,
    ].join('\n');
    writeFileSync(resultsPath, markdown);
    out('written to bench/results.md');
  } else if (write && existsSync(resultsPath)) {
    // A partial run replaces its own rows and details sections and leaves every other metric's figures
    // (and the line saying when the full run was) as they are, noting the partial run beneath it.
    const note = `Rows and details of ${selected.map((m) => `\`${m.name}\``).join(', ')} from \`npm run bench -- ${names.join(' ')} --write\` on ${date} · ${machine(botNode)} · run took ${seconds.toFixed(0)} s.`;
    const existing = readFileSync(resultsPath, 'utf8');
    writeFileSync(resultsPath, mergeResults(existing, { note, rows, sections, tail: tail.join('\n') }));
    out('merged into bench/results.md');
  } else {
    out('(partial run: bench/results.md not written; add --write to update its rows of these metrics)');
  }
}

await main();
