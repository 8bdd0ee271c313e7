// Bodies of unverified requests over real sockets: held as they arrive (never their announced size), cut
// at their deadline, and past the memory budget the oldest incomplete one is cut first, so a request that
// arrives whole at once (Discord's) is taken while slow ones are shed.
// Each step waits for what it expects to have happened, never for a length of time: on a busy machine a
// check may come late, but what it cuts and in which order does not change.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { type BodyResult, UnverifiedBodies } from '../../../src/discord/http/UnverifiedBodies.js';

let server: Server | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await new Promise((resolve) => server?.close(resolve));
});

/** Waits until `happened()` holds, however long that takes on this machine (the test's timeout bounds it). */
async function until(happened: () => boolean): Promise<void> {
  while (!happened()) await sleep(5);
}

/**
 * A server reading each request's body through `bodies`. `arrival` may hold requests back and say when
 * each arrived (default: each as its head is in, at that moment).
 */
async function serve(
  bodies: UnverifiedBodies,
  arrival: (req: IncomingMessage) => Promise<number> = async () => performance.now(),
) {
  const results: { name: string; result: BodyResult; stillPending: number }[] = [];
  server = createServer(async (req, res) => {
    const result = await bodies.read(req, await arrival(req));
    // Read right after the cut that ended this one, before the event loop turns.
    results.push({ name: String(req.headers['x-name']), result, stillPending: bodies.count });
    res.end();
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const send = async (name: string, length: number | 'chunked', body: string) => {
    const socket = connect({ host: '127.0.0.1', port });
    sockets.push(socket);
    socket.on('error', () => {});
    await new Promise((resolve) => socket.once('connect', resolve));
    const framing =
      length === 'chunked'
        ? `transfer-encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n`
        : `content-length: ${length}\r\n\r\n${body}`;
    socket.write(`POST / HTTP/1.1\r\nhost: t\r\nx-name: ${name}\r\n${framing}`);
  };
  return { results, send };
}

const outcome = (result: BodyResult | undefined) =>
  result === undefined ? 'pending' : 'body' in result ? `body ${result.body.length}` : JSON.stringify(result);

describe('UnverifiedBodies', () => {
  it('past the budget the oldest incomplete body is cut (429); one that arrives whole is taken', async () => {
    const bodies = new UnverifiedBodies({
      maxBytes: 1000,
      // No deadline falls within the test, however slow the machine: only the budget cuts here.
      deadlineMs: 600_000,
      budgetBytes: 1500,
      checkEveryMs: 50,
    });
    const { results, send } = await serve(bodies);
    const byName = (name: string) => outcome(results.find((r) => r.name === name)?.result);
    await send('slow-1', 1000, 'x'.repeat(700));
    await until(() => bodies.heldBytes === 700);
    await send('slow-2', 1000, 'x'.repeat(700));
    await until(() => bodies.heldBytes === 1400);
    // A whole body of 300 bytes takes the held bytes past 1,500: the oldest slow one makes room.
    await send('whole', 300, 'y'.repeat(300));
    await until(() => byName('whole') !== 'pending');
    expect(byName('slow-1')).toBe('{"refused":429}');
    expect(byName('whole')).toBe('body 300');
    expect(byName('slow-2')).toBe('pending');
    expect(bodies.heldBytes).toBe(700);
    bodies.refuseAll();
    await until(() => byName('slow-2') !== 'pending');
    expect(byName('slow-2')).toBe('{"refused":503}');
    expect(bodies.heldBytes).toBe(0);
    bodies.stop();
  });

  it('a body is cut at its deadline (408) and one larger than the cap as soon as it shows (413)', async () => {
    const bodies = new UnverifiedBodies({
      maxBytes: 100,
      deadlineMs: 200,
      budgetBytes: 10_000,
      checkEveryMs: 50,
    });
    // 'large' is given all the time in the world, so only its size can cut it, whenever its bytes are read.
    const { results, send } = await serve(bodies, async (req) =>
      req.headers['x-name'] === 'large' ? performance.now() + 600_000 : performance.now(),
    );
    await send('slow', 50, '{');
    // Chunked: no Content-Length to refuse it by from the head, so it is cut as it arrives.
    await send('large', 'chunked', 'z'.repeat(150));
    await send('small', 'chunked', 'z'.repeat(80));
    await until(() => results.length === 3);
    const byName = (name: string) => outcome(results.find((r) => r.name === name)?.result);
    expect(byName('slow')).toBe('{"refused":408}');
    expect(byName('large')).toBe('{"refused":413}');
    // A chunked body within the cap does not end before its last chunk: still arriving at the deadline.
    expect(byName('small')).toBe('{"refused":408}');
    expect(bodies.count).toBe(0);
    bodies.stop();
  });

  it('bodies that fall due together are cut a few at a time, the event loop given back between', async () => {
    const bodies = new UnverifiedBodies({
      maxBytes: 100,
      deadlineMs: 200,
      budgetBytes: 100_000,
      checkEveryMs: 50,
    });
    const FLOOD = 200;
    // Every request is held back until all their heads are in, then all are read at once, each already past
    // its deadline: the first check finds all of them due, however long the heads took to come in.
    let heldBack = 0;
    let releaseAll = () => {};
    const allIn = new Promise<void>((resolve) => {
      releaseAll = resolve;
    });
    const { results, send } = await serve(bodies, async () => {
      if (++heldBack === FLOOD) releaseAll();
      await allIn;
      return performance.now() - 1_000;
    });
    await Promise.all(Array.from({ length: FLOOD }, (_, n) => send(`slow-${n}`, 50, '{')));
    await until(() => bodies.count === FLOOD || results.length > 0);
    expect(results).toHaveLength(0);
    await until(() => results.length === FLOOD);
    expect(results.every((r) => outcome(r.result) === '{"refused":408}')).toBe(true);
    // All were due at the first check: had it cut them all at once, nothing would be pending after the first.
    expect(results[0]?.stillPending).toBe(FLOOD - 64);
    // and the rest a turn at a time: 64 more each.
    expect(results.map((r) => r.stillPending).filter((n, i, all) => n !== all[i - 1])).toEqual([
      136, 72, 8, 0,
    ]);
    expect(bodies.count).toBe(0);
    bodies.stop();
  });
});
