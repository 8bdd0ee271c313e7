// One launch of HostOps everywhere: `npm start` (package.json) is the definition, the image's ENV and CMD
// (and the build step that fills the compile cache) carry the same environment and node options, and the
// bench starts HostOps with exactly those — so the bench cannot measure a process the image does not run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOSTOPS_ENV, HOSTOPS_NODE_ARGS, startLaunch } from '../bench/botSetup.js';

const ROOT = join(import.meta.dirname, '..');
const start = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts.start as string;
const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
const launch = startLaunch(start);

describe('how HostOps is started', () => {
  it('npm start names the allocator setting and the node options', () => {
    expect(launch.env).toEqual({ MALLOC_TRIM_THRESHOLD_: '131072' });
    expect(launch.nodeArgs).toEqual(['--max-semi-space-size=4', '--v8-pool-size=1', '--expose-gc']);
  });

  it("the image's runtime stage sets the same environment", () => {
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    const env = Object.fromEntries(
      [...runtime.matchAll(/^ENV (.+)$/gm)].flatMap(([, line = '']) =>
        [...line.matchAll(/([A-Z][A-Z0-9_]*)=(\S+)/g)].map(([, name, value]) => [name, value]),
      ),
    );
    for (const [name, value] of Object.entries(launch.env)) expect(env[name], name).toBe(value);
  });

  it("the image's CMD and its compile-cache step run node with the same options, in the same order", () => {
    const cmd = /^CMD \[(.+)\]$/m.exec(dockerfile.slice(dockerfile.lastIndexOf('\nHEALTHCHECK')))?.[1] ?? '';
    const args = JSON.parse(`[${cmd}]`) as string[];
    expect(args[0]).toBe('node');
    expect(args.at(-1)).toBe('dist/src/index.js');
    expect(args.filter((arg) => !/^--(diagnostic-dir|heapsnapshot-signal)=/.test(arg)).slice(1, -1)).toEqual(
      launch.nodeArgs,
    );
    expect(dockerfile).toContain(`RUN node ${launch.nodeArgs.join(' ')} dist/src/index.js`);
  });

  it('the bench starts HostOps with them', () => {
    expect(HOSTOPS_ENV).toEqual(launch.env);
    if (process.env.BENCH_HOSTOPS_NODE_ARGS === undefined) expect(HOSTOPS_NODE_ARGS).toEqual(launch.nodeArgs);
  });
});
