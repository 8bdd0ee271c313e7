// Issue 49: every listener of the built bot — the interactions endpoint, the operator pages (/healthz,
// /metrics) and the expiry calendar (which may be published) — is held to its limits from one table
// (src/observability/listenerLimits.ts), over real sockets: a client that never finishes its headers is
// answered 408 and cut (was, on the operator and calendar listeners: Node's 60 s, checked every 30 s), and a
// connection past a listener's maximum is closed unanswered while the ones it has are served.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTENER_LIMITS, type Listener } from '../../src/observability/listenerLimits.js';
import {
  type Fakes,
  freePort,
  killSpawned,
  logged,
  type SpawnedBot,
  spawnBot,
  startFakes,
  until,
} from '../support/spawnBot.js';

const TOKEN = 'calendar-token-of-thirty-two-chars';
let f: Fakes;
let bot: SpawnedBot;
let ports: Record<Listener, number>;

beforeAll(async () => {
  f = await startFakes();
  const calendarPort = await freePort();
  bot = await spawnBot({
    discord: f.discord,
    api: f.api,
    env: {
      INTERACTIONS_MODE: 'http',
      WATCH_CHANNEL_ID: '400000000000000042',
      CALENDAR_TOKEN: TOKEN,
      CALENDAR_PORT: String(calendarPort),
      CALENDAR_HOST: '127.0.0.1',
    },
  });
  await Promise.all([
    bot.waitForLog(logged('interactions endpoint listening'), 15_000),
    bot.waitForLog(logged('expiry calendar listening'), 15_000),
    bot.waitForLog(logged('health and metrics listening'), 15_000),
  ]);
  ports = {
    interactions: Number(new URL(bot.interactionsUrl).port),
    operator: bot.port,
    calendar: calendarPort,
  };
}, 120_000);
afterAll(async () => {
  await killSpawned();
  await f?.stop();
});

/** A raw connection and everything it receives, until the server closes it. */
function open(port: number): {
  socket: Socket;
  received: () => string;
  closed: Promise<void>;
  isClosed: () => boolean;
} {
  const socket = connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  let isClosed = false;
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      isClosed = true;
      resolve();
    }),
  );
  return {
    socket,
    received: () => Buffer.concat(chunks).toString('latin1'),
    closed,
    isClosed: () => isClosed,
  };
}

describe('every listener', () => {
  it.each(['interactions', 'operator', 'calendar'] as const)(
    '%s: a client that never finishes its headers is answered 408 and cut',
    async (listener) => {
      const client = open(ports[listener]);
      // The request line and one header, then nothing: the end of the headers never comes.
      client.socket.write('GET / HTTP/1.1\r\nhost: hostops\r\n');
      await client.closed;
      expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
    },
    // Its deadline plus Node's check, with room for a loaded machine: the test waits for the cut itself.
    Math.max(...Object.values(LISTENER_LIMITS).map((l) => l.headersTimeoutMs)) + 20_000,
  );

  it('operator: a connection past its maximum is closed unanswered; the ones it has are served', async () => {
    const max = LISTENER_LIMITS.operator.maxConnections;
    const ask = (client: ReturnType<typeof open>) =>
      client.socket.write('GET /healthz HTTP/1.1\r\nhost: hostops\r\n\r\n');
    const answered = (client: ReturnType<typeof open>) => /^HTTP\/1\.1 200 /.test(client.received());
    // The maximum, each kept open after its answer (keep-alive).
    const held = Array.from({ length: max }, () => open(ports.operator));
    for (const client of held) ask(client);
    await until(() => held.every(answered), 'every held connection answered');
    const beyond = open(ports.operator);
    ask(beyond);
    await beyond.closed;
    expect(beyond.received()).toBe('');
    // Still serving the ones it has: a second request on a held connection is answered.
    const [first] = held;
    if (!first) throw new Error('nothing held');
    const before = first.received().length;
    ask(first);
    await until(() => first.received().length > before, 'the held connection answered again');
    // One let go, a new connection is taken.
    first.socket.destroy();
    await until(async () => {
      const next = open(ports.operator);
      ask(next);
      await until(() => answered(next) || next.isClosed(), 'an answer or a close');
      const ok = answered(next);
      next.socket.destroy();
      return ok;
    }, 'a new connection taken once one is let go');
    for (const client of held) client.socket.destroy();
  });
});
