// A stranger's server on 127.0.0.1 that misbehaves per request as the fault matrix of the outside asks
// (outsideTable.ts): silent, slow, 429 with odd Retry-After values, redirect loops, redirects to an
// internal address, oversized bodies, reset connections; over HTTPS with a certificate nobody trusts for
// the TLS failure. Whatever it is not told to break it answers with `normal`.
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { createServer as createTcpServer } from 'node:net';
import type { Fault } from './outsideTable.js';

export interface NormalAnswer {
  status?: number;
  body: unknown;
  contentType?: string;
}

export interface FaultyOriginOptions {
  /** The answer to a request nothing breaks (and the late answer of 'just under the timeout'). */
  normal: (path: string) => NormalAnswer;
  /** Which fault, if any, a request's path gets. */
  faultOf: (path: string) => Fault | undefined;
  /** How late 'just under the timeout' answers. */
  justUnderMs: number;
  /** Serves HTTPS with this (self-signed, untrusted) certificate: every request is a TLS failure. */
  tls?: { key: string; cert: string };
}

/** 20 MiB: past every body limit HostOps sets on what it reads from the outside. */
const OVERSIZED_BYTES = 20 * 1024 * 1024;

export class FaultyOrigin {
  readonly requests: string[] = [];
  readonly #sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly origin: string,
    /** Connections made to the internal address a redirect names (127.0.0.2): must stay 0. */
    private readonly internal: {
      server: ReturnType<typeof createTcpServer>;
      port: number;
      connections: number;
    },
  ) {
    server.on('connection', (socket: Socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
  }

  static async start(options: FaultyOriginOptions): Promise<FaultyOrigin> {
    const internal = { server: createTcpServer(), port: 0, connections: 0 };
    internal.server.on('connection', (socket) => {
      internal.connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => internal.server.listen(0, '127.0.0.2', resolve));
    internal.port = (internal.server.address() as AddressInfo).port;
    let origin: FaultyOrigin | undefined;
    const handler = (req: IncomingMessage, res: ServerResponse) => void origin?.handle(req, res, options);
    const server = options.tls ? createHttpsServer(options.tls, handler) : createHttpServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    origin = new FaultyOrigin(server, `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`, internal);
    return origin;
  }

  /** Connections that reached the internal address a redirect named. */
  get internalConnections(): number {
    return this.internal.connections;
  }

  private async handle(req: IncomingMessage, res: ServerResponse, options: FaultyOriginOptions) {
    const path = req.url ?? '/';
    this.requests.push(path);
    for await (const _ of req);
    const answer = (normal: NormalAnswer) => {
      const text = JSON.stringify(normal.body);
      res.writeHead(normal.status ?? 200, {
        'content-type': normal.contentType ?? 'application/json',
        'content-length': Buffer.byteLength(text),
      });
      res.end(text);
    };
    const fault = options.faultOf(path);
    const tooMany = (retryAfter: string) => {
      res.writeHead(429, { 'retry-after': retryAfter, 'content-type': 'application/json' });
      res.end('{"errorCode":429}');
    };
    switch (fault) {
      case undefined:
      case 'TLS failure':
        return answer(options.normal(path));
      case 'no answer':
        return; // held until the server stops
      case 'just under the timeout':
        setTimeout(() => answer(options.normal(path)), options.justUnderMs).unref();
        return;
      case '429 Retry-After: a day':
        return tooMany('86400');
      case '429 Retry-After: more than a timer holds':
        // 2^31 ms is what setTimeout holds: 3,000,000 s is 3e9 ms.
        return tooMany('3000000');
      case '429 Retry-After: not a number':
        return tooMany('soon, maybe');
      case 'redirect loop':
        res.writeHead(302, { location: path });
        return res.end();
      case 'redirect to an internal address': {
        const scheme = options.tls ? 'https' : this.origin.split(':')[0];
        res.writeHead(302, { location: `${scheme}://127.0.0.2:${this.internal.port}${path}` });
        return res.end();
      }
      case 'oversized body': {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        for (let sent = 0; sent < OVERSIZED_BYTES && !res.destroyed; sent += chunk.length) {
          if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
        }
        return res.end();
      }
      case 'reset connection':
        req.socket.resetAndDestroy();
        return;
    }
  }

  async stop(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await new Promise<void>((resolve) => this.internal.server.close(() => resolve()));
  }
}
