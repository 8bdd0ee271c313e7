import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type APIInteraction, InteractionType } from 'discord.js';
import { z } from 'zod';
import type { Logger } from '../../logger.js';
import type { SignatureCheck } from './verifySignature.js';

/** What the endpoint sends back for one request. */
export interface EndpointAnswer {
  status: number;
  contentType: string;
  body: Buffer | string;
}

/** Writes the answer; resolves once it is written, rejects if the request went away first. */
export type Reply = (answer: EndpointAnswer) => Promise<void>;

export interface InteractionsEndpointOptions {
  host: string;
  port: number;
  checkSignature: SignatureCheck;
  /** The store's clock (epoch ms), which request timestamps are judged by. */
  now: () => number;
  /** Answers a verified interaction other than PING: calls `reply` exactly once. */
  answer(interaction: APIInteraction, reply: Reply): Promise<void>;
  logger: Logger;
  /** Told every request's status (the metrics). */
  onAnswered?: (status: number) => void;
}

export interface InteractionsEndpoint {
  port: number;
  /** Requests not yet answered. */
  readonly inFlight: number;
  /** Stops listening; requests still arriving on open connections are answered, then those connections close. */
  stopAccepting(): void;
  /** Waits for the requests in flight (each is answered within Discord's 3 seconds), then closes. */
  close(): Promise<void>;
}

// A command's payload is a few kilobytes; a button's carries its message (embeds included), still far less.
export const MAX_BODY_BYTES = 1024 * 1024;
// Unanswered requests at once; more get 503 at once rather than queueing past Discord's 3 seconds.
export const MAX_IN_FLIGHT = 256;
// Discord's own rule for its signed requests: an older (or newer) timestamp is a replay.
export const TIMESTAMP_TOLERANCE_MS = 5 * 60_000;
// Time to send a whole request; a client that trickles it in is cut off.
const REQUEST_TIMEOUT_MS = 10_000;
// How long closing waits for requests in flight: past Discord's 3 s none of them can still be answered.
const CLOSE_WAIT_MS = 3_500;
// Above the idle timeouts of common load balancers and proxies (60 s, Caddy's 2 min excepted), so the
// proxy rather than HostOps closes an idle connection, never one it is about to send on.
const KEEP_ALIVE_MS = 75_000;

const snowflake = z.string().regex(/^\d{1,20}$/);
const envelope = z.looseObject({
  id: snowflake,
  application_id: snowflake,
  type: z.number().int(),
  token: z.string().min(1).max(4096),
});

export const json = (status: number, value: unknown): EndpointAnswer => ({
  status,
  contentType: 'application/json',
  body: JSON.stringify(value),
});
const refusal = (status: number, error: string) => json(status, { error });

/**
 * POST /interactions, Discord's Interactions Endpoint URL, on a listener of its own: nothing else is
 * served here. Each request is verified (signature, then timestamp) before anything in it is read.
 */
export async function startInteractionsEndpoint(
  options: InteractionsEndpointOptions,
): Promise<InteractionsEndpoint> {
  const { logger } = options;
  let inFlight = 0;
  let stopping = false;
  const idleWaiters = new Set<() => void>();

  const write = (res: ServerResponse, answer: EndpointAnswer): Promise<void> =>
    new Promise((resolve, reject) => {
      if (res.headersSent || res.destroyed) {
        reject(new Error('the request was closed before its answer'));
        return;
      }
      res.once('close', () => {
        if (!res.writableFinished) reject(new Error('the request was closed before its answer'));
      });
      res.writeHead(answer.status, {
        'content-type': answer.contentType,
        'content-length': Buffer.byteLength(answer.body),
        'cache-control': 'no-store',
        ...(stopping ? { connection: 'close' } : {}),
      });
      res.end(answer.body, () => resolve());
      options.onAnswered?.(answer.status);
    });

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const reply: Reply = (answer) => write(res, answer);
    if ((req.url ?? '/').split('?', 1)[0] !== '/interactions') return reply(refusal(404, 'not found'));
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      return reply(refusal(405, 'POST only'));
    }
    if (inFlight > MAX_IN_FLIGHT) return reply(refusal(503, 'too many requests in flight'));
    const signature = header(req, 'x-signature-ed25519');
    const timestamp = header(req, 'x-signature-timestamp');
    if (signature === undefined || timestamp === undefined)
      return reply(refusal(401, 'missing request signature'));
    const body = await readBody(req);
    if (body === 'too large') {
      // The rest of it is not read: this connection cannot carry another request.
      res.setHeader('connection', 'close');
      return reply(refusal(413, `body larger than ${MAX_BODY_BYTES} bytes`));
    }
    if (!options.checkSignature(signature, timestamp, body))
      return reply(refusal(401, 'invalid request signature'));
    const sentAt = /^\d{1,12}$/.test(timestamp) ? Number(timestamp) * 1000 : Number.NaN;
    if (!(Math.abs(options.now() - sentAt) <= TIMESTAMP_TOLERANCE_MS)) {
      logger.warn({ timestamp }, 'interaction request refused: its timestamp is more than 5 minutes off');
      return reply(refusal(401, 'request timestamp more than 5 minutes from now'));
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      return reply(refusal(400, 'body is not JSON'));
    }
    const checked = envelope.safeParse(parsed);
    if (!checked.success) return reply(refusal(400, 'not an interaction (id, application_id, type, token)'));
    const interaction = checked.data as unknown as APIInteraction;
    if (interaction.type === InteractionType.Ping) return reply(json(200, { type: 1 }));
    return options.answer(interaction, reply);
  }

  const server = createServer((req, res) => {
    inFlight += 1;
    res.once('close', () => {
      inFlight -= 1;
      if (inFlight === 0) for (const resolve of [...idleWaiters]) resolve();
    });
    serve(req, res).catch((error: unknown) => {
      // The request went away (nothing to answer) or something here failed: never the process.
      if (!res.headersSent && !res.destroyed) {
        logger.error({ err: error }, 'interactions endpoint: request failed');
        write(res, refusal(500, 'internal error')).catch(() => {});
      }
    });
  });
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  server.headersTimeout = REQUEST_TIMEOUT_MS;
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error) => logger.error({ err: error }, 'interactions endpoint error'));
  const { port } = server.address() as AddressInfo;
  logger.info({ host: options.host, port }, 'interactions endpoint listening');

  const stopAccepting = () => {
    if (stopping) return;
    stopping = true;
    server.close();
    server.closeIdleConnections();
  };
  return {
    port,
    get inFlight() {
      return inFlight;
    },
    stopAccepting,
    async close() {
      stopAccepting();
      // Answered ones finish within Discord's 3 s; only a request still being sent can take longer.
      if (inFlight > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          new Promise<void>((resolve) => idleWaiters.add(resolve)),
          new Promise<void>((resolve) => {
            timer = setTimeout(resolve, CLOSE_WAIT_MS);
          }),
        ]);
        clearTimeout(timer);
      }
      server.closeAllConnections();
    },
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** The raw body (the signature covers its exact bytes), or 'too large' without reading past the limit. */
function readBody(req: IncomingMessage): Promise<Buffer | 'too large'> {
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) return Promise.resolve('too large');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.removeAllListeners('data');
        req.pause();
        resolve('too large');
        return;
      }
      chunks.push(chunk);
    });
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}
