import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Logger } from '../logger.js';
import type { HealthState } from './HealthState.js';
import type { Metrics } from './Metrics.js';

export interface HttpServer {
  /** The bound port (useful when configured as an ephemeral one). */
  port: number;
  close(): Promise<void>;
}

/** The expiry calendar by URL: its secret token, and the .ics text read from the store at each request. */
export interface CalendarFeed {
  token: string;
  render(): Promise<string>;
}

const CALENDAR_PATH = /^\/calendar\/([^/]+)\.ics$/;
const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * GET /healthz (200 when the gateway session is ready, else 503), GET /metrics (Prometheus text) and,
 * with CALENDAR_TOKEN, GET /calendar/<token>.ics.
 */
export async function startHttpServer(options: {
  host: string;
  port: number;
  health: HealthState;
  metrics: Metrics;
  logger: Logger;
  calendar?: CalendarFeed | undefined;
}): Promise<HttpServer> {
  const { health, metrics, logger, calendar } = options;
  // Compared as digests of equal length, in constant time: the response time tells nothing of the token.
  const calendarToken = calendar && digest(calendar.token);
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (path === '/healthz') {
      const body = JSON.stringify(health.snapshot());
      res.writeHead(health.healthy ? 200 : 503, {
        'content-type': 'application/json',
        'cache-control': 'no-store',
      });
      res.end(body);
      return;
    }
    if (path === '/metrics') {
      void serveMetrics(res, metrics, logger);
      return;
    }
    const token = calendar && calendarToken && CALENDAR_PATH.exec(path ?? '')?.[1];
    if (calendar && calendarToken && token && timingSafeEqual(digest(token), calendarToken)) {
      calendar.render().then(
        (ics) => {
          res.writeHead(200, {
            'content-type': 'text/calendar; charset=utf-8',
            'content-disposition': 'inline; filename="hostops-expiry.ics"',
            'cache-control': 'no-store',
          });
          res.end(ics);
        },
        (error: unknown) => {
          logger.error({ err: error }, 'expiry calendar could not be rendered');
          res.writeHead(503, { 'content-type': 'text/plain' }).end('calendar unavailable\n');
        },
      );
      return;
    }
    // A wrong token looks like any other unknown path.
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
  });
  // Probes and scrapers should never hold a shutdown open.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  logger.info({ host: options.host, port }, 'health and metrics listening');
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Streams the scrape as it is rendered, at the pace the scraper reads it: 100,000 watched domains make
 * megabytes of text, which are never held, encoded or written in one piece.
 */
async function serveMetrics(res: ServerResponse, metrics: Metrics, logger: Logger): Promise<void> {
  let chunks: AsyncIterable<string>;
  try {
    chunks = await metrics.scrape();
  } catch (error) {
    logger.error({ err: error }, 'metrics collection failed');
    res.writeHead(500).end();
    return;
  }
  res.writeHead(200, { 'content-type': metrics.registry.contentType });
  try {
    await pipeline(Readable.from(chunks), res);
  } catch (error) {
    // The scraper went away (a timeout); it will try again.
    logger.debug({ err: error }, 'metrics response not finished');
  }
}
