// The npm scripts a newcomer runs, as npm runs them (issue 49): `npm test` on an unsupported Node says so
// before the typecheck and lint; `npm run console` — "the console again, once installed" — works on the
// machine where `npm run sandbox` just did, whatever its Node; and the sandbox installs only when the lock
// changed, so its second start does not reinstall.
import { execFile, execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isSupportedNode, UNSUPPORTED_NODE_EXIT } from '../../src/node/requireSupportedNode.js';

const ROOT = join(import.meta.dirname, '../..');
const SHIPPED = readFileSync(join(ROOT, '.node-version'), 'utf8').trim();
const scripts = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'hostops-npm-scripts-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string>,
): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env, timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** This Node first on PATH, so npm and every node it starts are the one running the tests. */
const thisNodeFirst = () => `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`;

/** A node on PATH that HostOps does not support (the machine's own, where it is old), if there is one. */
function unsupportedNodeOnPath(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const node = join(dir, 'node');
    if (dir === '' || !existsSync(node)) continue;
    try {
      if (!isSupportedNode(execFileSync(node, ['--version'], { encoding: 'utf8' }).trim())) return node;
    } catch {
      // Not a runnable node.
    }
  }
  return undefined;
}

describe('the npm scripts a newcomer runs', { timeout: 120_000 }, () => {
  it('npm test on an unsupported Node: the one line and exit 78, before the typecheck or lint start', async () => {
    // The running Node made to say it is 20.20.0 in every node npm starts (NODE_OPTIONS takes no quotes).
    const pretend = join(tempDir(), 'pretend.mjs');
    writeFileSync(pretend, 'Object.defineProperty(process.versions, "node", { value: "20.20.0" });\n');
    const result = await run('npm', ['test'], ROOT, {
      PATH: thisNodeFirst(),
      HOME: tempDir(),
      NODE_OPTIONS: `--import=${pretend}`,
    });
    expect(result.code).toBe(UNSUPPORTED_NODE_EXIT);
    expect(result.stderr).toContain(
      'HostOps needs Node 22.16.0 or a later 22, or 24.21.0 or a later 24; this is Node 20.20.0. ' +
        'Run it on a supported Node, fetched once if the machine has none: scripts/with-supported-node npm test\n',
    );
    // npm echoes each script it starts: neither the typecheck nor the lint did.
    expect(result.stdout).not.toContain('tsc -p');
    expect(result.stdout).not.toContain('biome check');
  });

  const machineNode = unsupportedNodeOnPath();
  it.runIf(machineNode !== undefined && process.versions.node === SHIPPED)(
    `npm run console on the machine's own unsupported Node (${machineNode}) opens the console on the shipped one`,
    async () => {
      // The shipped Node, as scripts/with-supported-node keeps it once fetched: this very one.
      const cache = tempDir();
      symlinkSync(
        join(dirname(process.execPath), '..'),
        join(cache, `${SHIPPED}-${process.platform}-${process.arch}`),
      );
      const result = await run('npm', ['run', '--silent', 'console', '--', '--json', '/help'], ROOT, {
        PATH: `${dirname(machineNode as string)}${delimiter}${process.env.PATH ?? ''}`,
        HOME: tempDir(),
        HOSTOPS_NODE_CACHE: cache,
        LANG: 'C',
        NO_COLOR: '1',
        HOSTING_API_URL: '',
      });
      expect(result.stderr).not.toContain('HostOps needs Node');
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toHaveProperty('commands');
    },
  );

  it('npm run sandbox installs only when package-lock.json changed since its last install', async () => {
    expect(scripts.sandbox).toContain('scripts/install-if-changed');
    expect(scripts.sandbox).not.toMatch(/npm ci/);
    // A project of its own (npm ci there needs no network: one local dependency).
    const project = tempDir();
    mkdirSync(join(project, 'dep'));
    writeFileSync(join(project, 'dep/package.json'), '{ "name": "dep", "version": "1.0.0" }\n');
    const lock = (version: string) => ({
      name: 'p',
      version,
      lockfileVersion: 3,
      requires: true,
      packages: {
        '': { name: 'p', version, dependencies: { dep: 'file:dep' } },
        dep: { version: '1.0.0' },
        'node_modules/dep': { resolved: 'dep', link: true },
      },
    });
    const write = (version: string) => {
      writeFileSync(
        join(project, 'package.json'),
        JSON.stringify({ name: 'p', version, dependencies: { dep: 'file:dep' } }),
      );
      writeFileSync(join(project, 'package-lock.json'), JSON.stringify(lock(version), null, 2));
    };
    const install = () =>
      run(join(ROOT, 'scripts/install-if-changed'), ['--no-audit', '--no-fund', '--offline'], project, {
        PATH: thisNodeFirst(),
        HOME: tempDir(),
      });
    const installed = (r: Run) => /added 1 package/.test(r.stdout);
    const skipped =
      'install-if-changed: node_modules is as package-lock.json says; not reinstalled (npm ci does)\n';

    write('1.0.0');
    const first = await install();
    expect(first.code).toBe(0);
    expect(installed(first)).toBe(true);
    const second = await install();
    expect(second).toEqual({ code: 0, stdout: '', stderr: skipped });
    // A changed lock installs again, once.
    write('1.0.1');
    const third = await install();
    expect(installed(third)).toBe(true);
    expect((await install()).stderr).toBe(skipped);
    // So does node_modules changed by npm itself since (its .package-lock.json is then newer).
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await run('npm', ['ci', '--offline', '--no-audit', '--no-fund'], project, {
      PATH: thisNodeFirst(),
      HOME: tempDir(),
    });
    expect(installed(await install())).toBe(true);
  });
});
