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

/** GET /healthz (200 when the gateway session is ready, else 503) and GET /metrics (Prometheus text). */
export async function startHttpServer(options: {
  host: string;
  port: number;
  health: HealthState;
  metrics: Metrics;
  logger: Logger;
}): Promise<HttpServer> {
  const { health, metrics, logger } = options;
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
