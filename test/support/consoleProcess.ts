// The console as a process, from the test build (test/support/built.ts): what `npm run console` runs.
import { spawn } from 'node:child_process';
import { builtEntryArgs } from './built.js';

export interface ConsoleRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node dist/src/console.js …args` in `cwd` with exactly `env` (plus PATH, NO_COLOR=1, LANG=C and
 * HOME=cwd unless `env` sets them), `input` on stdin, and resolves once it has exited.
 */
export function runConsoleProcess(
  args: readonly string[],
  options: { cwd: string; env: Record<string, string>; input?: string },
): Promise<ConsoleRun> {
  const child = spawn(process.execPath, [...builtEntryArgs('src/console.ts'), ...args], {
    cwd: options.cwd,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: options.cwd,
      USER: 'tester',
      NO_COLOR: '1',
      LANG: 'C',
      ...options.env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += String(chunk);
  });
  child.stderr.on('data', (chunk) => {
    stderr += String(chunk);
  });
  child.stdin.end(options.input ?? '');
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
