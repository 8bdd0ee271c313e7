// Bodies of unverified requests over real sockets: held as they arrive (never their announced size), cut
// at their deadline, and past the memory budget the oldest incomplete one is cut first, so a request that
// arrives whole at once (Discord's) is taken while slow ones are shed.
import { createServer, type Server } from 'node:http';
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

async function serve(bodies: UnverifiedBodies) {
  const results: { name: string; result: BodyResult; stillPending: number }[] = [];
  server = createServer(async (req, res) => {
    const result = await bodies.read(req, performance.now());
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
      deadlineMs: 5_000,
      budgetBytes: 1500,
      checkEveryMs: 50,
    });
    const { results, send } = await serve(bodies);
    await send('slow-1', 1000, 'x'.repeat(700));
    await sleep(50);
    await send('slow-2', 1000, 'x'.repeat(700));
    await sleep(50);
    expect(bodies.heldBytes).toBe(1400);
    // A whole body of 300 bytes takes the held bytes past 1,500: the oldest slow one makes room.
    await send('whole', 300, 'y'.repeat(300));
    await sleep(100);
    const byName = (name: string) => outcome(results.find((r) => r.name === name)?.result);
    expect(byName('slow-1')).toBe('{"refused":429}');
    expect(byName('whole')).toBe('body 300');
    expect(byName('slow-2')).toBe('pending');
    expect(bodies.heldBytes).toBe(700);
    bodies.refuseAll();
    await sleep(20);
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
    const { results, send } = await serve(bodies);
    await send('slow', 50, '{');
    // Chunked: no Content-Length to refuse it by from the head, so it is cut as it arrives.
    await send('large', 'chunked', 'z'.repeat(150));
    await send('small', 'chunked', 'z'.repeat(80));
    await sleep(400);
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
      checkEveryMs: 300,
    });
    const { results, send } = await serve(bodies);
    const FLOOD = 200;
    await Promise.all(Array.from({ length: FLOOD }, (_, n) => send(`slow-${n}`, 50, '{')));
    // Every head is in and every body waits, before the first check (300 ms after the first arrived).
    while (bodies.count < FLOOD && results.length === 0) await sleep(5);
    expect(results).toHaveLength(0);
    while (results.length < FLOOD) await sleep(20);
    expect(results.every((r) => outcome(r.result) === '{"refused":408}')).toBe(true);
    // All were due at the first check: had it cut them all at once, nothing would be pending after the first.
    const first = results[0];
    expect(first?.stillPending).toBe(FLOOD - 64);
    expect(bodies.count).toBe(0);
    bodies.stop();
  });
});
