// The event-loop probe the scrape and operator rows install in the bot over the DevTools protocol.
import { ms } from './stats.js';

/** What PROBE returns: the longest gap (ms) and, within it, the main thread's time on a CPU and waiting for one. */
export interface ProbeReading {
  wall: number;
  cpu: number;
  waited: number;
  /** The longest garbage collection pause meanwhile (PerformanceObserver 'gc'), wherever it fell. */
  gc: number;
}

/** A block as PROBE reads it: whose time it was, and the longest GC pause meanwhile. */
export const within = (r: ProbeReading) =>
  `main thread on a CPU ${ms(r.cpu)}, waiting for one ${ms(r.waited)}; longest GC pause ${ms(r.gc)}`;

/**
 * Installed once in the bot (Runtime.evaluate); each call returns, since the previous call, the longest gap
 * between two callbacks of a 1 ms interval timer (wall time: what a gateway event waiting behind the work
 * would see, an idle loop giving ≈ 1 ms) and, within that gap, how long the main thread was on a CPU and how
 * long it was runnable but waiting for one (/proc/thread-self/schedstat: the kernel's own accounting), so a
 * block HostOps' code made is told apart from a machine too busy to run it; then starts over.
 */
export const PROBE = `(() => {
  const probe = (globalThis.__hostopsBenchProbe ??= (() => {
    const { readFileSync } = process.getBuiltinModule('node:fs');
    const sched = () => {
      const [onCpu = NaN, waiting = NaN] = readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').map(Number);
      return { onCpu: onCpu / 1e6, waiting: waiting / 1e6 };
    };
    const p = { last: performance.now(), lastSched: sched(), longest: 0, longestCpu: 0, longestWaited: 0, longestGc: 0 };
    const { PerformanceObserver } = process.getBuiltinModule('node:perf_hooks');
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) p.longestGc = Math.max(p.longestGc, entry.duration);
    }).observe({ entryTypes: ['gc'] });
    setInterval(() => {
      const now = performance.now();
      const at = sched();
      if (now - p.last > p.longest) {
        p.longest = now - p.last;
        p.longestCpu = at.onCpu - p.lastSched.onCpu;
        p.longestWaited = at.waiting - p.lastSched.waiting;
      }
      p.last = now;
      p.lastSched = at;
    }, 1).unref();
    return p;
  })());
  const result = { wall: Math.max(probe.longest, performance.now() - probe.last), cpu: probe.longestCpu, waited: probe.longestWaited, gc: probe.longestGc };
  probe.longestGc = 0;
  probe.longest = 0;
  probe.longestCpu = 0;
  probe.longestWaited = 0;
  return result;
})()`;
