import { describe, expect, it } from 'vitest';
import {
  ConnectionQueue,
  type Place,
  QueueClosedError,
  type Slot,
} from '../../src/hosting/ConnectionQueue.js';

/** Waits in `queue` as `caller`, recording the order of admissions and the place it was given. */
function waiter(queue: ConnectionQueue, caller: string, order: string[], signal?: AbortSignal) {
  let place: Place | undefined;
  const slot = queue.wait({
    caller,
    ...(signal ? { signal } : {}),
    waiting: (p) => {
      if (p) place = p;
    },
  });
  const admitted = slot.then((s) => {
    order.push(caller);
    return s;
  });
  admitted.catch(() => {});
  return { admitted, ahead: () => place?.ahead() };
}

describe('ConnectionQueue', () => {
  it('admits at once while a connection is free and nobody waits', () => {
    const queue = new ConnectionQueue(2);
    expect(queue.admit('a')).toBeDefined();
    expect(queue.admit('b')).toBeDefined();
    expect(queue.admit('c')).toBeUndefined();
  });

  it('gives a freed connection to the caller holding the fewest, then to whoever waited longest', async () => {
    const queue = new ConnectionQueue(3);
    const bulkHeld = [queue.admit('bulk') as Slot, queue.admit('bulk') as Slot];
    const watchHeld = queue.admit('watch') as Slot;
    const order: string[] = [];
    const bulk = [waiter(queue, 'bulk', order), waiter(queue, 'bulk', order), waiter(queue, 'bulk', order)];
    const watch = [waiter(queue, 'watch', order), waiter(queue, 'watch', order)];
    const single = waiter(queue, 'single', order);
    // Holding: bulk 2, watch 1, single 0. The n-th waiting of a caller holding h goes at h + n, then by age.
    expect(single.ahead()).toBe(0);
    expect(watch.map((w) => w.ahead())).toEqual([1, 3]);
    expect(bulk.map((b) => b.ahead())).toEqual([2, 4, 5]);

    bulkHeld[0]?.release();
    await single.admitted;
    watchHeld.release();
    await watch[0]?.admitted;
    bulkHeld[1]?.release();
    await bulk[0]?.admitted;
    expect(order).toEqual(['single', 'watch', 'bulk']);
    expect(queue.waiting).toBe(3);
  });

  it('while several callers share the connections, one is kept for a caller holding none', async () => {
    const queue = new ConnectionQueue(3);
    const held = [queue.admit('bulk') as Slot, queue.admit('watch') as Slot];
    const order: string[] = [];
    // The bulk check holds one and wants more: the last free connection is not for it.
    const bulk = waiter(queue, 'bulk', order);
    await Promise.resolve();
    expect(order).toEqual([]);
    expect(queue.admit('watch')).toBeUndefined();
    // A single read holds none: it starts at once.
    const single = waiter(queue, 'single', order);
    const singleSlot = await single.admitted;
    expect(order).toEqual(['single']);
    // When the watch is done, the bulk check is alone with the single read: still kept back while they share.
    held[1]?.release();
    await Promise.resolve();
    expect(order).toEqual(['single']);
    // Alone, it may take every connection.
    singleSlot.release();
    await bulk.admitted;
    expect(order).toEqual(['single', 'bulk']);
    expect(queue.admit('bulk')).toBeDefined();
    held[0]?.release();
  });

  it('a waiter whose signal is aborted leaves the queue; the next one takes its turn', async () => {
    const queue = new ConnectionQueue(1);
    const held = queue.admit('a') as Slot;
    const order: string[] = [];
    const quitter = new AbortController();
    const leaving = waiter(queue, 'b', order, quitter.signal);
    const staying = waiter(queue, 'c', order);
    expect(staying.ahead()).toBe(1);
    quitter.abort(new Error('gave up'));
    await expect(leaving.admitted).rejects.toThrow('gave up');
    expect(staying.ahead()).toBe(0);
    held.release();
    await staying.admitted;
    expect(order).toEqual(['c']);
    expect(queue.waiting).toBe(0);
  });

  it('closing refuses every waiter and every later request; a release after it is harmless', async () => {
    const queue = new ConnectionQueue(1);
    const held = queue.admit('a') as Slot;
    const order: string[] = [];
    const waiting = waiter(queue, 'b', order);
    queue.close();
    await expect(waiting.admitted).rejects.toBeInstanceOf(QueueClosedError);
    held.release();
    held.release();
    expect(queue.admit('c')).toBeUndefined();
    await expect(queue.wait({ caller: 'c' })).rejects.toBeInstanceOf(QueueClosedError);
    expect(order).toEqual([]);
  });
});
