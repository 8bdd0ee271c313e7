// A/B of two HostOps builds against bare: alternating bursts of 200 `/domain info` (API 2 s), each in a fresh
// process after 20 warm-up commands and a quiet machine; prints the median p99 and CPU to the last ack.
// Usage: npx tsx bench/ab.ts <entry A> <entry B> [rounds=8]   (entries: absolute paths to a build's
// src/index.js, e.g. one made with `node scripts/build.mjs --outdir bench/.tmp/buildA` on another commit)
import { setTimeout as sleep } from 'node:timers/promises';
import type { BotKind } from './botSetup.js';
import { ackTimes, domainInfo, waitForAcks, warmUp } from './dispatch.js';
import { withBot } from './launch.js';
import { cpuMs, waitForQuietMachine } from './procStats.js';
import { median, summarize } from './stats.js';

const [aEntry, bEntry, roundsArg = '8'] = process.argv.slice(2);
if (aEntry === undefined || bEntry === undefined) {
  process.stderr.write('usage: npx tsx bench/ab.ts <entry A> <entry B> [rounds]\n');
  process.exit(2);
}
interface Setup {
  name: string;
  kind: BotKind;
  entry?: string;
}
const setups: Setup[] = [
  { name: 'bare', kind: 'bare' },
  { name: 'A', kind: 'hostops', entry: aEntry },
  { name: 'B', kind: 'hostops', entry: bEntry },
];
const results = new Map<string, { p99: number[]; cpu: number[] }>();
for (let round = 0; round < Number(roundsArg); round++) {
  for (const setup of round % 2 === 0 ? setups : [...setups].reverse()) {
    const options = setup.entry === undefined ? {} : { entry: setup.entry };
    const run = await withBot(setup.kind, {}, options, async ({ stage, bot, tracker }) => {
      await warmUp(stage, tracker, 20);
      stage.api.latencyMs = 2000;
      await sleep(200);
      await waitForQuietMachine();
      const before = cpuMs(bot.pid);
      const dispatched = Array.from({ length: 200 }, () => domainInfo(stage));
      await waitForAcks(tracker, dispatched, 10_000);
      const cpu = cpuMs(bot.pid) - before;
      return { p99: summarize(ackTimes(tracker, dispatched).times).p99, cpu };
    });
    const entry = results.get(setup.name) ?? { p99: [], cpu: [] };
    entry.p99.push(run.p99);
    entry.cpu.push(run.cpu);
    results.set(setup.name, entry);
  }
}
const bare = median(results.get('bare')?.p99 ?? []);
for (const [name, { p99, cpu }] of results) {
  const all = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(' ');
  process.stdout.write(
    `${name.padEnd(5)} p99 median ${median(p99).toFixed(0)} ms (${(median(p99) / bare).toFixed(2)}× bare; ${all(p99)}) · CPU to the last ack median ${median(cpu).toFixed(0)} ms (${all(cpu)})\n`,
  );
}
process.exit(0);
