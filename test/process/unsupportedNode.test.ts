// Every entry point on an unsupported Node: one line naming the version found, the versions supported and
// the command that runs it on a supported Node, exit 78, before anything could load the native module.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSupportedNode, UNSUPPORTED_NODE_EXIT } from '../../src/node/requireSupportedNode.js';
import { builtEntry } from '../support/built.js';

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function run(node: string, args: readonly string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, args, {
      // No .env, no store: nothing the check depends on.
      cwd: import.meta.dirname,
      env: { PATH: process.env.PATH ?? '', HOME: import.meta.dirname },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += String(chunk);
    });
    child.stderr.on('data', (chunk) => {
      stderr += String(chunk);
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

const ENTRIES = [
  ['src/index.ts', 'npm start'],
  ['src/console.ts', 'npm run console'],
  ['src/deploy-commands.ts', 'npm run deploy-commands'],
  ['src/migrate-store.ts', 'npm run migrate-store'],
] as const;

/** The running Node made to say it is another version, before the entry point is loaded. */
const pretend = (version: string) =>
  `--import=data:text/javascript,Object.defineProperty(process.versions,"node",{value:"${version}"})`;

/** A node on PATH that HostOps does not support (the machine's own, where it is old), if there is one. */
function unsupportedNodeOnPath(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const node = join(dir, 'node');
    if (dir === '' || !existsSync(node)) continue;
    try {
      const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
      if (!isSupportedNode(version)) return node;
    } catch {
      // Not a runnable node.
    }
  }
  return undefined;
}

describe('an unsupported Node is said in one line, before anything else', () => {
  it.each(ENTRIES)(
    '%s on Node 20.20.0, 22.15.1 and 23.11.0: one line, exit 78, nothing on stdout',
    async (entry, command) => {
      const versions = ['20.20.0', '22.15.1', '23.11.0'];
      const results = await Promise.all(
        versions.map((version) => run(process.execPath, [pretend(version), builtEntry(entry)])),
      );
      for (const [index, result] of results.entries()) {
        const version = versions[index];
        expect(result.code).toBe(UNSUPPORTED_NODE_EXIT);
        expect(result.stdout).toBe('');
        expect(result.stderr).toBe(
          `HostOps needs Node 22.16.0 or a later 22, or 24.21.0 or a later 24; this is Node ${version}. ` +
            `Run it on a supported Node, fetched once if the machine has none: scripts/with-supported-node ${command}\n`,
        );
      }
    },
  );

  it('a supported Node passes the check: the console answers on 22.16.0', async () => {
    const result = await run(process.execPath, [pretend('22.16.0'), builtEntry('src/console.ts'), '--help']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  const machineNode = unsupportedNodeOnPath();
  it.runIf(machineNode)(
    `on the machine's own unsupported Node (${machineNode}): the line, not a crash`,
    async () => {
      const node = machineNode as string;
      const found = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim().slice(1);
      const results = await Promise.all(ENTRIES.map(([entry]) => run(node, [builtEntry(entry)])));
      for (const [index, result] of results.entries()) {
        const command = ENTRIES[index]?.[1];
        expect({ code: result.code, signal: result.signal }).toEqual({
          code: UNSUPPORTED_NODE_EXIT,
          signal: null,
        });
        expect(result.stderr).toContain(`this is Node ${found}.`);
        expect(result.stderr).toContain(`scripts/with-supported-node ${command}`);
        expect(result.stderr.trim().split('\n')).toHaveLength(1);
      }
    },
  );
});
