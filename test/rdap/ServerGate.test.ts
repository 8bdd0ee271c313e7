// One server's gate: concurrency, spacing, a pause (Retry-After), urgent requests first, a wait given up.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { MAX_TIMER_MS, ServerGate, ServerPaused } from '../../src/rdap/ServerGate.js';

describe('ServerGate', () => {
  it('never runs more than its limit at once, and starts them its interval apart', async () => {
    const gate = new ServerGate(2, 30);
    let running = 0;
    let peak = 0;
    const starts: number[] = [];
    await Promise.all(
      Array.from({ length: 6 }, () =>
        gate.run(async () => {
          starts.push(performance.now());
          peak = Math.max(peak, ++running);
          await sleep(50);
          running--;
        }),
      ),
    );
    expect(peak).toBe(2);
    // Read inside each job, a little after the gate started it (a GC can fall between): the gate spaces its
    // starts 30 ms apart, so two readings are never much under that, and without spacing they would be ≈ 0.
    for (let i = 1; i < starts.length; i++) {
      expect((starts[i] as number) - (starts[i - 1] as number)).toBeGreaterThanOrEqual(27);
    }
  });

  it('urgent requests go before the waiting ones; a wait can be given up; a pause holds every start', async () => {
    const gate = new ServerGate(1, 0);
    const order: string[] = [];
    let release: () => void = () => {};
    const first = gate.run(() => new Promise<void>((resolve) => (release = resolve)));
    const patient = gate.run(async () => void order.push('patient'));
    const abandoned = new AbortController();
    const given = gate.run(async () => void order.push('abandoned'), { signal: abandoned.signal });
    const urgent = gate.run(async () => void order.push('urgent'), { urgent: true });
    expect(gate.waiting).toBe(3);
    abandoned.abort(new Error('gave up'));
    await expect(given).rejects.toThrow('gave up');
    gate.pause(80);
    const paused = performance.now();
    release();
    await Promise.all([first, patient, urgent]);
    expect(order).toEqual(['urgent', 'patient']);
    expect(performance.now() - paused).toBeGreaterThanOrEqual(75);
  });

  it('a waiter whose deadline comes before the pause ends leaves at once, told when it ends', async () => {
    const gate = new ServerGate(1, 0);
    // Already queued when the pause comes, and arriving after it: both leave, neither waits.
    let release: () => void = () => {};
    const first = gate.run(() => new Promise<void>((resolve) => (release = resolve)));
    const queued = gate.run(async () => 'ran', { deadline: performance.now() + 60_000 });
    // Longer than a timer holds: held to what one does.
    gate.pause(10 * MAX_TIMER_MS);
    const until = gate.pausedUntil() as number;
    expect(until).toBeLessThanOrEqual(performance.now() + MAX_TIMER_MS);
    await expect(queued).rejects.toBeInstanceOf(ServerPaused);
    await expect(gate.run(async () => 'ran', { deadline: performance.now() + 60_000 })).rejects.toMatchObject(
      {
        until,
      },
    );
    expect(gate.waiting).toBe(0);
    release();
    await first;
  });
});
