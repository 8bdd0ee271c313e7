// The idle collection npm start and the image enable (--expose-gc): in a process of its own, as it ships.
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { sourceEntryArgs } from './support/runSource.js';

interface Seen {
  grownMb: number;
  nowMb: number;
  collections: number;
  /** Looks that found the process quiet and grown, but work in flight. */
  heldBack: number;
}

const run = (nodeArgs: string[], mode: 'quiet' | 'busy' | 'in-flight') =>
  new Promise<Seen>((resolve, reject) => {
    const args = [...nodeArgs, ...sourceEntryArgs('test/fixtures/idleCollectorChild.ts'), mode];
    execFile(process.execPath, args, { timeout: 50_000 }, (error, stdout) =>
      error ? reject(error) : resolve(JSON.parse(stdout) as Seen),
    );
  });

// Each case is a process of its own started through tsx: slow to start on a busy machine; the quiet case
// waits for V8's collection (seconds after the offer).
describe('IdleCollector', { timeout: 60_000 }, () => {
  it('gives memory back once the process is quiet after growing: V8 collects when offered', async () => {
    const seen = await run(['--expose-gc'], 'quiet');
    expect(seen.collections).toBe(1);
    expect(seen.grownMb - seen.nowMb).toBeGreaterThan(60);
  });

  it('never collects while the event loop is busy', async () => {
    const seen = await run(['--expose-gc'], 'busy');
    expect(seen.collections).toBe(0);
  });

  it('does not start while something is in flight: a quiet loop, a call to the provider waiting', async () => {
    const seen = await run(['--expose-gc'], 'in-flight');
    expect(seen.collections).toBe(0);
    // It was quiet and grown, so it looked, and held back.
    expect(seen.heldBack).toBeGreaterThan(0);
  });

  it('does nothing without --expose-gc', async () => {
    const seen = await run([], 'quiet');
    expect(seen.collections).toBe(0);
  });
});
