// Dispatching interactions to a running bot and waiting for (or reading back) its acknowledgements.
import { setTimeout as sleep } from 'node:timers/promises';
import type { DispatchedInteraction } from '../test/support/FakeDiscord.js';
import { ROLES } from './botSetup.js';
import type { Stage } from './stage.js';
import type { Tracker } from './Tracker.js';

export async function waitUntil(condition: () => boolean, timeoutMs: number, what: string): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) {
      if (what === '') return false;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    }
    await sleep(5);
  }
  return true;
}

export function domainInfo(stage: Stage, domain = 'example.com'): DispatchedInteraction {
  return stage.discord.dispatchInteraction({
    commandName: 'domain',
    subcommand: 'info',
    options: { domain },
    roles: [ROLES.viewer],
  });
}

/** Sequential commands with no API delay, so lazily loaded code and JIT are warm before measuring. */
export async function warmUp(stage: Stage, tracker: Tracker, count: number): Promise<void> {
  const latency = stage.api.latencyMs;
  stage.api.latencyMs = 0;
  for (let n = 0; n < count; n++) {
    const i = domainInfo(stage, `warm-${n}.example.com`);
    await waitUntil(
      () => {
        tracker.scan();
        return tracker.finalAt(i) !== undefined;
      },
      10_000,
      'a warm-up answer',
    );
  }
  stage.api.latencyMs = latency;
}

/** Dispatches `count` interactions at `rate` per second; returns them and the rate actually achieved. */
export async function dispatchAtRate(
  rate: number,
  count: number,
  make: (n: number) => DispatchedInteraction,
): Promise<{ dispatched: DispatchedInteraction[]; achievedRate: number }> {
  const dispatched: DispatchedInteraction[] = [];
  const start = performance.now();
  while (dispatched.length < count) {
    const due = Math.min(count, Math.floor(((performance.now() - start) * rate) / 1000) + 1);
    while (dispatched.length < due) dispatched.push(make(dispatched.length));
    if (dispatched.length >= count) break;
    const nextAt = start + (dispatched.length * 1000) / rate;
    await sleep(Math.max(0, nextAt - performance.now()));
  }
  const first = dispatched[0]?.dispatchedAt ?? start;
  const last = dispatched[dispatched.length - 1]?.dispatchedAt ?? start;
  const achievedRate = count > 1 ? ((count - 1) * 1000) / Math.max(1e-6, last - first) : rate;
  return { dispatched, achievedRate };
}

/** Acknowledgement times (ms after dispatch) of those acknowledged; `missing` counts the rest. */
export function ackTimes(
  tracker: Tracker,
  dispatched: readonly DispatchedInteraction[],
): { times: number[]; missing: number } {
  tracker.scan();
  const times: number[] = [];
  let missing = 0;
  for (const i of dispatched) {
    const at = tracker.ackAt(i);
    if (at === undefined) missing++;
    else times.push(at - i.dispatchedAt);
  }
  return { times, missing };
}

export async function waitForAcks(
  tracker: Tracker,
  dispatched: readonly DispatchedInteraction[],
  timeoutMs: number,
): Promise<void> {
  await waitUntil(
    () => {
      tracker.scan();
      return dispatched.every((i) => tracker.ack.has(i.id));
    },
    timeoutMs,
    '',
  );
}
