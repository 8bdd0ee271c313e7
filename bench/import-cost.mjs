// What HostOps' dependencies cost before a single command: time to import each one, and RSS / heap after a
// full GC, cumulatively on top of discord.js (which both HostOps and the bare reference load).
// Usage (after `npm run build`): node --expose-gc bench/import-cost.mjs [module …]
// "intl" stands for the first Intl.DateTimeFormat with a time zone (luxon and the config's zone check),
// which maps the ICU time-zone data.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const defaults = [
  'discord.js',
  'zod',
  'luxon',
  'intl',
  'pino',
  'prom-client',
  'undici',
  'validator',
  'p-limit',
  join(root, 'dist/src/startBot.js'),
];
const modules = process.argv.length > 2 ? process.argv.slice(2) : defaults;

if (typeof globalThis.gc !== 'function') {
  process.stderr.write('run with: node --expose-gc bench/import-cost.mjs\n');
  process.exit(2);
}

function memory() {
  globalThis.gc();
  globalThis.gc();
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? Number.NaN);
  return {
    rss: kb('VmRSS') / 1024,
    anon: kb('RssAnon') / 1024,
    heap: process.memoryUsage().heapUsed / 1048576,
  };
}

const row = (cells) =>
  `${cells[0].padEnd(24)} ${cells
    .slice(1)
    .map((c) => c.padStart(10))
    .join(' ')}\n`;
process.stdout.write(row(['module', 'import ms', 'RSS +MB', 'anon +MB', 'heap +MB']));
let last = memory();
for (const spec of modules) {
  const t0 = performance.now();
  if (spec === 'intl') new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Berlin' }).format();
  else await import(spec);
  const ms = performance.now() - t0;
  const now = memory();
  const name = spec.startsWith(root) ? spec.slice(root.length + 1) : spec;
  process.stdout.write(
    row([
      name,
      ms.toFixed(0),
      (now.rss - last.rss).toFixed(1),
      (now.anon - last.anon).toFixed(1),
      (now.heap - last.heap).toFixed(1),
    ]),
  );
  last = now;
}
process.stdout.write(`after all: RSS ${last.rss.toFixed(1)} MB, heap used ${last.heap.toFixed(1)} MB\n`);
