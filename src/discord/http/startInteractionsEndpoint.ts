import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type APIInteraction, InteractionType } from 'discord.js';
import { z } from 'zod';
import type { Logger } from '../../logger.js';
import { limitedServer } from '../../observability/listenerLimits.js';
import type { SignatureRefusal } from '../../observability/signatureRefusals.js';
import { checkRequestHead, SIGNATURE_REFUSED } from './checkRequestHead.js';
import {
  BODY_DEADLINE_MS,
  CLOSE_WAIT_MS,
  DEADLINE_CHECK_MS,
  MAX_BODY_BYTES,
  MAX_VERIFIED_IN_FLIGHT,
  UNVERIFIED_BYTES_BUDGET,
} from './endpointLimits.js';
import { RateLimitedWarning } from './RateLimitedWarning.js';
import { UnverifiedBodies } from './UnverifiedBodies.js';
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
  /**
   * Answers a verified interaction other than PING: calls `reply` exactly once. `arrivedAt` is
   * performance.now() when its headers arrived, which Discord's 3 s are counted from.
   */
  answer(interaction: APIInteraction, reply: Reply, arrivedAt: number): Promise<void>;
  logger: Logger;
  /** Told every request's status, refusals included (the metrics). */
  onAnswered?: (status: number) => void;
  /** Told why each 401 was given, which its body does not say (the metrics). */
  onSignatureRefused?: (reason: SignatureRefusal) => void;
}

export interface InteractionsEndpoint {
  port: number;
  /** Verified requests not yet answered. */
  readonly inFlight: number;
  /** Stops listening; requests still arriving on open connections are answered, then those connections close. */
  stopAccepting(): void;
  /**
   * Refuses what is still unverified at once, waits for the verified requests being answered (each is, by its
   * deadline) up to `waitMs`, then closes every connection.
   */
  close(waitMs?: number): Promise<void>;
}

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

const BODY_REFUSALS = {
  408: `body not received within ${BODY_DEADLINE_MS} ms of its headers`,
  413: `body larger than ${MAX_BODY_BYTES} bytes`,
  429: 'too many bytes of unverified requests held: the oldest is cut',
  503: 'shutting down',
} as const;

// What Node itself answers a connection it cannot take a request from (no request object exists).
const CLIENT_ERRORS: Record<string, number> = {
  ERR_HTTP_REQUEST_TIMEOUT: 408,
  HPE_HEADER_OVERFLOW: 431,
};

/**
 * POST /interactions, Discord's Interactions Endpoint URL, on a listener of its own: nothing else is served
 * here. A request is judged from its head first (checkRequestHead), its body is read under a size cap and a
 * deadline (UnverifiedBodies), its signature checked; only then does it take one of the slots of verified
 * work. Every refusal is counted (onAnswered).
 */
export async function startInteractionsEndpoint(
  options: InteractionsEndpointOptions,
): Promise<InteractionsEndpoint> {
  const { logger } = options;
  const count = (status: number) => options.onAnswered?.(status);
  let verifiedInFlight = 0;
  let stopping = false;
  const idleWaiters = new Set<() => void>();
  const bodies = new UnverifiedBodies({
    maxBytes: MAX_BODY_BYTES,
    deadlineMs: BODY_DEADLINE_MS,
    budgetBytes: UNVERIFIED_BYTES_BUDGET,
    checkEveryMs: DEADLINE_CHECK_MS,
  });
  const invalidSignatures = new RateLimitedWarning((n) =>
    logger.warn(
      { count: n },
      `${n} requests with an invalid signature in the last minute: check DISCORD_PUBLIC_KEY`,
    ),
  );
  const staleTimestamps = new RateLimitedWarning((n) =>
    logger.warn(
      { count: n },
      `${n} requests with a timestamp more than 5 minutes off in the last minute: replays, or a clock that is wrong`,
    ),
  );

  const write = (req: IncomingMessage, res: ServerResponse, answer: EndpointAnswer): Promise<void> =>
    new Promise((resolve, reject) => {
      if (res.headersSent || res.destroyed) {
        reject(new Error('the request was closed before its answer'));
        return;
      }
      res.once('close', () => {
        if (!res.writableFinished) reject(new Error('the request was closed before its answer'));
      });
      // A body not read to its end leaves the connection unusable for another request: Node closes it.
      const close = stopping || !req.complete;
      res.writeHead(answer.status, {
        'content-type': answer.contentType,
        'content-length': Buffer.byteLength(answer.body),
        'cache-control': 'no-store',
        ...(close ? { connection: 'close' } : {}),
      });
      res.end(answer.body, () => resolve());
      count(answer.status);
    });

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const arrivedAt = performance.now();
    const reply: Reply = (answer) => write(req, res, answer);
    const head = checkRequestHead(req, options.now());
    if ('status' in head) {
      if (head.status === 405) res.setHeader('allow', 'POST');
      if (head.status === 401) {
        options.onSignatureRefused?.(head.reason);
        if (head.reason === 'malformed') invalidSignatures.note();
        if (head.reason === 'stale') staleTimestamps.note();
      }
      return reply(refusal(head.status, head.error));
    }
    const read = await bodies.read(req, arrivedAt);
    if ('gone' in read) return;
    if ('refused' in read) return reply(refusal(read.refused, BODY_REFUSALS[read.refused]));
    if (!options.checkSignature(head.signature, head.timestamp, read.body)) {
      invalidSignatures.note();
      options.onSignatureRefused?.('invalid');
      return reply(refusal(401, SIGNATURE_REFUSED));
    }
    // From here on the request is Discord's: only such requests take the slots of verified work.
    if (verifiedInFlight >= MAX_VERIFIED_IN_FLIGHT) return reply(refusal(503, 'too many requests in flight'));
    verifiedInFlight += 1;
    res.once('close', () => {
      verifiedInFlight -= 1;
      if (verifiedInFlight === 0) for (const resolve of [...idleWaiters]) resolve();
    });
    let parsed: unknown;
    try {
      parsed = JSON.parse(read.body.toString('utf8'));
    } catch {
      return reply(refusal(400, 'body is not JSON'));
    }
    const checked = envelope.safeParse(parsed);
    if (!checked.success) return reply(refusal(400, 'not an interaction (id, application_id, type, token)'));
    const interaction = checked.data as unknown as APIInteraction;
    if (interaction.type === InteractionType.Ping) return reply(json(200, { type: 1 }));
    return options.answer(interaction, reply, arrivedAt);
  }

  // Its deadlines, header size and connections: every listener's limits, sized for it (listenerLimits).
  const server = limitedServer('interactions', (req, res) => {
    serve(req, res).catch((error: unknown) => {
      // The request went away (nothing to answer) or something here failed: never the process.
      if (!res.headersSent && !res.destroyed) {
        logger.error({ err: error }, 'interactions endpoint: request failed');
        write(req, res, refusal(500, 'internal error')).catch(() => {});
      }
    });
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // A connection reset or cut before a request: nobody to answer, nothing to count.
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = CLIENT_ERRORS[error.code ?? ''] ?? 400;
    count(status);
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`,
    );
    // Closed once written, whether or not the client closes its side (the server keeps half-open sockets).
    socket.destroySoon();
  });
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
      return verifiedInFlight;
    },
    stopAccepting,
    async close(waitMs = CLOSE_WAIT_MS) {
      stopAccepting();
      // Nothing unverified holds a shutdown: what has not arrived whole by now is not waited for.
      bodies.refuseAll();
      bodies.stop();
      // Their 503s are written (and counted) before the connections are closed.
      await new Promise((resolve) => setImmediate(resolve));
      if (verifiedInFlight > 0 && waitMs > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          new Promise<void>((resolve) => idleWaiters.add(resolve)),
          new Promise<void>((resolve) => {
            timer = setTimeout(resolve, Math.min(waitMs, CLOSE_WAIT_MS));
          }),
        ]);
        clearTimeout(timer);
      }
      server.closeAllConnections();
    },
  };
}
