// Summarises a .cpuprofile (from BENCH_CPU_PROF=hostops npm run bench -- latency): self time by package and
// by function, so "where does the time go" can be answered without opening DevTools.
// Usage: npx tsx bench/profile-summary.ts bench/.tmp/profiles/<file>.cpuprofile [top] [fromSeconds] [toSeconds]
// (the window is counted from the start of the profile, i.e. the start of the process).
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

function packageOf(url: string): string {
  if (url === '') return '(native/VM)';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith('node:')) return 'node core';
  if (url.includes('/dist/'))
    return `hostops ${url
      .slice(url.indexOf('/dist/') + 6)
      .split('/')
      .slice(0, 2)
      .join('/')}`;
  if (url.includes('/bench/')) return 'bench reference';
  return url;
}

function main(): void {
  const [file, topArg, fromArg, toArg] = process.argv.slice(2);
  if (file === undefined) {
    process.stderr.write('usage: tsx bench/profile-summary.ts <file.cpuprofile> [top]\n');
    process.exitCode = 2;
    return;
  }
  const top = Number(topArg ?? 25);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const from = Number(fromArg ?? 0) * 1e6;
  const to = toArg === undefined ? Number.POSITIVE_INFINITY : Number(toArg) * 1e6;
  const self = new Map<number, number>();
  let clock = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    clock += delta;
    if (clock >= from && clock <= to) self.set(id, (self.get(id) ?? 0) + delta);
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, us] of self) {
    const node = byId.get(id);
    if (node === undefined) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const pkg = packageOf(url);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
    const key = `${functionName || '(anonymous)'} ${pkg} ${url.split('/').pop() ?? ''}:${lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  }
  const print = (title: string, map: Map<string, number>) => {
    process.stdout.write(`\n${title}\n`);
    for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      process.stdout.write(
        `${(us / 1000).toFixed(1).padStart(9)} ms ${((us / total) * 100).toFixed(1).padStart(5)} %  ${key}\n`,
      );
    }
  };
  process.stdout.write(
    `${file}: ${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s wall, ${(total / 1000).toFixed(0)} ms sampled\n`,
  );
  print('self time by package', byPackage);
  print('self time by function', byFunction);
}

main();
