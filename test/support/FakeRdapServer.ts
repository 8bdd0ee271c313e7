// A stand-in for one RDAP server (RFC 9083 answers over HTTPS with a test CA, or plain http): answers per
// domain as a test sets them, a 10-per-second style limit with 429 + Retry-After beyond it, and counts of
// what a registry would see — requests, concurrency, and the spacing between their starts.
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface RdapReply {
  status?: number;
  /** Objects are sent as JSON, strings as they are. */
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
  /** Sent without a content-length (chunked), so only reading it shows its size. */
  chunked?: boolean;
  /** The answer is held until this settles (a test releases it once it has seen what must come first). */
  hold?: Promise<unknown>;
}

/** A hold for `RdapReply.hold`: `release()` lets the answer go. */
export function heldAnswer(): { hold: Promise<void>; release: () => void } {
  let release = () => {};
  const hold = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { hold, release };
}

export type RdapResponder = (path: string) => RdapReply | undefined;

/** An RFC 9083 domain object. */
export function domainObject(
  name: string,
  fields: { expires?: string; status?: string[]; nameservers?: string[]; signed?: boolean } = {},
): Record<string, unknown> {
  return {
    objectClassName: 'domain',
    ldhName: name,
    status: fields.status ?? ['active', 'client transfer prohibited'],
    events: [
      { eventAction: 'registration', eventDate: '2020-01-01T00:00:00Z' },
      ...(fields.expires ? [{ eventAction: 'expiration', eventDate: fields.expires }] : []),
    ],
    nameservers: (fields.nameservers ?? ['ns1.example.net', 'ns2.example.net']).map((ldhName) => ({
      objectClassName: 'nameserver',
      ldhName,
    })),
    secureDNS: { delegationSigned: fields.signed ?? false },
  };
}

export class FakeRdapServer {
  /** Every request's path, in order of arrival. */
  readonly paths: string[] = [];
  /** performance.now() of each request's arrival. */
  readonly starts: number[] = [];
  inFlight = 0;
  peak = 0;
  /** TCP connections accepted (before any TLS handshake): what "connected there" means. */
  connections = 0;
  tooMany = 0;
  /** Domain answers by name (lower case); `responder` goes first. */
  readonly domains = new Map<string, RdapReply>();
  responder: RdapResponder | undefined;
  /** At most this many requests per rolling second are answered; the rest get 429 (Retry-After: 1). */
  perSecond: number | undefined;
  /** Time every answer takes. */
  delayMs = 0;
  readonly #sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {
    server.on('connection', (socket: Socket) => {
      this.connections++;
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
  }

  /** On `host` (127.0.0.1), a free port; HTTPS when `tls` is given. */
  static async start(tls?: { key: string; cert: string }, host = '127.0.0.1'): Promise<FakeRdapServer> {
    let fake: FakeRdapServer | undefined;
    const handler = (req: IncomingMessage, res: ServerResponse) => {
      void fake?.handle(req, res);
    };
    const server = tls
      ? createHttpsServer({ key: tls.key, cert: tls.cert }, handler)
      : createHttpServer(handler);
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    const { port } = server.address() as AddressInfo;
    fake = new FakeRdapServer(server, `${tls ? 'https' : 'http'}://${host}:${port}`);
    return fake;
  }

  /** The base URL a bootstrap file names for this server. */
  get base(): string {
    return `${this.origin}/rdap/`;
  }

  /** The smallest gap between two request starts (ms), Infinity with fewer than two. */
  minSpacing(): number {
    const sorted = [...this.starts].sort((a, b) => a - b);
    let min = Number.POSITIVE_INFINITY;
    for (let i = 1; i < sorted.length; i++)
      min = Math.min(min, (sorted[i] as number) - (sorted[i - 1] as number));
    return min;
  }

  reset(): void {
    this.paths.length = 0;
    this.starts.length = 0;
    this.peak = 0;
    this.connections = 0;
    this.tooMany = 0;
    this.domains.clear();
    this.responder = undefined;
    this.perSecond = undefined;
    this.delayMs = 0;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const now = performance.now();
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    this.paths.push(path);
    this.starts.push(now);
    this.inFlight++;
    this.peak = Math.max(this.peak, this.inFlight);
    try {
      if (this.perSecond !== undefined) {
        const recent = this.starts.filter((t) => t > now - 1000).length;
        if (recent > this.perSecond) {
          this.tooMany++;
          return this.send(res, { status: 429, headers: { 'retry-after': '1' }, body: { errorCode: 429 } });
        }
      }
      const name = /\/domain\/([^/]+)$/.exec(path)?.[1];
      const reply =
        this.responder?.(path) ??
        (name === undefined ? undefined : this.domains.get(decodeURIComponent(name).toLowerCase())) ??
        ({ status: 404, body: { errorCode: 404, title: 'Not Found' } } satisfies RdapReply);
      const delay = reply.delayMs ?? this.delayMs;
      if (delay > 0) await sleep(delay);
      if (reply.hold) await reply.hold;
      this.send(res, reply);
    } finally {
      this.inFlight--;
    }
  }

  private send(res: ServerResponse, reply: RdapReply): void {
    if (res.destroyed) return;
    const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {});
    res.writeHead(reply.status ?? 200, {
      'content-type': 'application/rdap+json',
      ...(reply.chunked ? {} : { 'content-length': Buffer.byteLength(text) }),
      ...reply.headers,
    });
    res.end(text);
  }

  async stop(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** An RFC 9224 bootstrap file: TLDs to the servers answering for them. */
export function bootstrapFile(services: [string[], string[]][]): Record<string, unknown> {
  return { version: '1.0', publication: '2030-01-01T00:00:00Z', services };
}
