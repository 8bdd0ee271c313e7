// The console as a process, from the test build (test/support/built.ts): what `npm run console` runs.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { builtEntryArgs } from './built.js';

export interface ConsoleRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface ConsoleOptions {
  cwd: string;
  env: Record<string, string>;
}

/** A console process still running: its input open, its output as far as it came. */
export interface StartedConsole {
  child: ChildProcessWithoutNullStreams;
  readonly stdout: string;
  readonly stderr: string;
  /** Resolves once it has exited and its output is read. */
  exited: Promise<ConsoleRun>;
}

/**
 * Starts `node dist/src/console.js …args` in `cwd` with exactly `env` (plus PATH, NO_COLOR=1, LANG=C,
 * USER=tester and HOME=cwd unless `env` sets them). Its input stays open: an interactive session.
 */
export function startConsoleProcess(args: readonly string[], options: ConsoleOptions): StartedConsole {
  const child = spawn(process.execPath, [...builtEntryArgs('src/console.ts'), ...args], {
    cwd: options.cwd,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: options.cwd,
      USER: 'tester',
      NO_COLOR: '1',
      LANG: 'C',
      // Off unless a test asks for it (with test/support/FakeRdapServer.ts): nothing leaves for a registry.
      RDAP_CHECK: 'off',
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
  const exited = new Promise<ConsoleRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return {
    child,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    exited,
  };
}

/** Runs the console with `input` on stdin (then closed), and resolves once it has exited. */
export function runConsoleProcess(
  args: readonly string[],
  options: ConsoleOptions & { input?: string },
): Promise<ConsoleRun> {
  const started = startConsoleProcess(args, options);
  started.child.stdin.end(options.input ?? '');
  return started.exited;
}
