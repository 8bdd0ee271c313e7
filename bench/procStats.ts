// Readings of a process and of the machine from /proc: RSS, CPU time, and whether the CPUs are quiet.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** Resident set size of a process, from /proc/<pid>/status (VmRSS). */
export function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (match?.[1] === undefined) throw new Error(`no VmRSS for ${pid}`);
  return Number(match[1]) * 1024;
}

/** RssAnon from /proc/<pid>/status: the anonymous memory a cgroup cannot reclaim (V8's heap, malloc). */
export function rssAnonBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^RssAnon:\s+(\d+)\s+kB/m.exec(status);
  if (match?.[1] === undefined) throw new Error(`no RssAnon for ${pid}`);
  return Number(match[1]) * 1024;
}

/** User + system CPU time a process has used so far, from /proc/<pid>/stat (10 ms resolution). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may contain spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / 100;
}

/** Jiffies the whole machine spent idle (idle + iowait) and in all, from the first line of /proc/stat. */
function machineJiffies(): { idle: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
  // user nice system idle iowait irq softirq steal (guest time is already inside user and nice).
  const fields = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { idle, total: fields.reduce((a, b) => a + b, 0) };
}

/**
 * Waits (up to timeoutMs) for a window of windowMs in which the machine's CPUs were at least `minIdle`
 * idle, so a short measurement does not start while another process (a build, a test run) holds the
 * CPUs. Returns how long it waited, the idle share of the last window and whether it was quiet.
 */
export async function waitForQuietMachine(
  minIdle = 0.85,
  windowMs = 500,
  timeoutMs = 15_000,
): Promise<{ waitedMs: number; idle: number; quiet: boolean }> {
  const start = performance.now();
  for (;;) {
    const before = machineJiffies();
    await sleep(windowMs);
    const after = machineJiffies();
    const idle = (after.idle - before.idle) / Math.max(1, after.total - before.total);
    const waitedMs = performance.now() - start - windowMs;
    if (idle >= minIdle || performance.now() - start >= timeoutMs)
      return { waitedMs: Math.max(0, waitedMs), idle, quiet: idle >= minIdle };
  }
}
