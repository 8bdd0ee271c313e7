import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** Operation names, as the HostingClient and its log lines call them. */
export type OperationName =
  | 'serverLog'
  | 'setReverseDns'
  | 'domainInfo'
  | 'createMusicBotUser'
  | 'bindPanelLicense'
  | 'createDomain'
  | 'submitDnsRecords';

export interface ReceivedRequest {
  operation: OperationName | 'unknown';
  method: string;
  /** Path and query exactly as they came over the wire (still percent-encoded). */
  rawUrl: string;
  /** Decoded path, e.g. `/domain/info/bücher.de`. */
  path: string;
  query: URLSearchParams;
  /** Decoded path parameter (server id or domain) for the two GET operations. */
  param?: string;
  headers: IncomingMessage['headers'];
  socketId: number;
  at: number;
}

export interface Reply {
  status?: number;
  /** Objects are sent as JSON, strings as they are. */
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
  /** Drop the connection without answering, after delayMs. */
  destroy?: boolean;
  /** Never answer (until the server stops). */
  hang?: boolean;
}

export type Responder = (request: ReceivedRequest) => Reply | Promise<Reply>;

const ROUTES: { operation: OperationName; method: string; pattern: RegExp }[] = [
  { operation: 'serverLog', method: 'GET', pattern: /\/server\/logs\/([^/]+)$/ },
  { operation: 'domainInfo', method: 'GET', pattern: /\/domain\/info\/([^/]+)$/ },
  { operation: 'setReverseDns', method: 'PUT', pattern: /\/server\/set\/network\/ipv4\/rdns$/ },
  { operation: 'createMusicBotUser', method: 'POST', pattern: /\/musikbot\/user$/ },
  { operation: 'bindPanelLicense', method: 'POST', pattern: /\/panel\/license\/binding$/ },
  { operation: 'createDomain', method: 'POST', pattern: /\/domain\/create$/ },
  { operation: 'submitDnsRecords', method: 'POST', pattern: /\/domain\/dns$/ },
];

/** Sample bodies shaped like the spec's: booleans and integers quoted. */
export const defaultResponders: Record<OperationName, Responder> = {
  serverLog: () => ({
    body: {
      starttime: '01.03.2026 10:00:00',
      endtime: '01.03.2026 10:05:30',
      type: 'reinstall',
      status: 'success',
    },
  }),
  domainInfo: () => ({
    body: { expirydate: '2027-06-30', active: 'true', expired: 'false', transferredAway: 'false' },
  }),
  setReverseDns: () => ({ body: {} }),
  createMusicBotUser: (request) => ({
    body: {
      id: '4711',
      username: request.query.get('username') ?? '',
      email: request.query.get('email') ?? '',
      storage: request.query.get('storage') ?? '0',
      bots: request.query.get('bots') ?? '0',
    },
  }),
  bindPanelLicense: () => ({ body: {} }),
  createDomain: () => ({ body: {} }),
  submitDnsRecords: () => ({ body: {} }),
};

/**
 * A stand-in for the hosting management API on 127.0.0.1, speaking real HTTP. Tests queue replies per
 * operation (used once each, in order) or replace an operation's standing responder.
 */
export class FakeHostingApi {
  readonly token: string;
  readonly requests: ReceivedRequest[] = [];
  /** Added to every reply (e.g. to model the provider's own latency). */
  latencyMs = 0;
  readonly #server: Server;
  readonly #queues = new Map<OperationName, Reply[]>();
  readonly #responders = new Map<OperationName, Responder>();
  readonly #sockets = new Set<Socket>();
  #socketCount = 0;
  #url = '';

  private constructor(token: string) {
    this.token = token;
    this.#server = createServer((req, res) => void this.#handle(req, res));
    this.#server.keepAliveTimeout = 30_000;
    this.#server.on('connection', (socket) => {
      this.#socketCount++;
      (socket as Socket & { fakeId?: number }).fakeId = this.#socketCount;
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
  }

  static async start(options: { token?: string; port?: number } = {}): Promise<FakeHostingApi> {
    const api = new FakeHostingApi(options.token ?? 'test-hosting-token-3f9a1c');
    await new Promise<void>((resolve) => api.#server.listen(options.port ?? 0, '127.0.0.1', resolve));
    api.#url = `http://127.0.0.1:${(api.#server.address() as AddressInfo).port}`;
    return api;
  }

  get url(): string {
    return this.#url;
  }

  /** How many TCP connections clients have opened so far. */
  get connectionCount(): number {
    return this.#socketCount;
  }

  /** Replies used once each, before the standing responder. */
  enqueue(operation: OperationName, ...replies: Reply[]): void {
    const queue = this.#queues.get(operation) ?? [];
    queue.push(...replies);
    this.#queues.set(operation, queue);
  }

  respond(operation: OperationName, responder: Responder): void {
    this.#responders.set(operation, responder);
  }

  requestsFor(operation: OperationName): ReceivedRequest[] {
    return this.requests.filter((request) => request.operation === operation);
  }

  reset(): void {
    this.requests.length = 0;
    this.#queues.clear();
    this.#responders.clear();
    this.latencyMs = 0;
  }

  async stop(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Drain any body so keep-alive works; the API takes none.
    for await (const _ of req);
    const rawUrl = req.url ?? '/';
    const [rawPath = '/', rawQuery = ''] = rawUrl.split('?', 2);
    const route = ROUTES.find((r) => r.method === req.method && r.pattern.test(rawPath));
    const match = route?.pattern.exec(rawPath);
    const request: ReceivedRequest = {
      operation: route?.operation ?? 'unknown',
      method: req.method ?? '',
      rawUrl,
      path: safeDecode(rawPath),
      query: new URLSearchParams(rawQuery),
      headers: req.headers,
      socketId: (req.socket as Socket & { fakeId?: number }).fakeId ?? 0,
      at: performance.now(),
    };
    if (match?.[1] !== undefined) request.param = safeDecode(match[1]);
    this.requests.push(request);

    let reply: Reply;
    if (req.headers.authorization !== `Bearer ${this.token}`) {
      reply = { status: 401, body: { error: 'unauthorized' } };
    } else if (!route) {
      reply = { status: 404, body: { error: 'no such route' } };
    } else {
      const queued = this.#queues.get(route.operation)?.shift();
      const responder = this.#responders.get(route.operation) ?? defaultResponders[route.operation];
      reply = queued ?? (await responder(request));
    }

    const delay = this.latencyMs + (reply.delayMs ?? 0);
    if (delay > 0) await sleep(delay);
    if (reply.hang) return;
    if (reply.destroy) {
      req.socket.destroy();
      return;
    }
    const body =
      reply.body === undefined
        ? ''
        : typeof reply.body === 'string'
          ? reply.body
          : JSON.stringify(reply.body);
    const contentType = typeof reply.body === 'string' ? 'text/html' : 'application/json';
    res.writeHead(reply.status ?? 200, { 'content-type': contentType, ...reply.headers });
    res.end(body);
  }
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
