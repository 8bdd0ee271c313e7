import type { Server } from 'node:http';
import { acceptsGzip } from '../gzipParts.js';
import type { Logger } from '../logger.js';
import type { HealthState } from './HealthState.js';
import { closeServer, listen } from './listen.js';
import { limitedServer } from './listenerLimits.js';
import type { Metrics } from './Metrics.js';
import { bearerToken, secretCheck, sendWithin } from './sendWithin.js';

export interface HttpServer {
  /** The bound port (useful when configured as an ephemeral one). */
  port: number;
  close(): Promise<void>;
}

/** Prometheus' default scrape_timeout: a scrape not read within it is cut off. */
export const SCRAPE_DEADLINE_MS = 10_000;

/**
 * The operator listener (HTTP_PORT): GET /healthz (200 when this replica takes interactions, else 503) and
 * GET /metrics (Prometheus text). Private by default: the shipped compose files publish it to no one but
 * the compose network (Prometheus) or the host's loopback. With METRICS_TOKEN, /metrics wants it as a
 * bearer token and /healthz shows only its status without it. Nothing else is served here: the calendar
 * URL has a listener of its own (startCalendarServer).
 */
export async function startHttpServer(options: {
  host: string;
  port: number;
  health: HealthState;
  metrics: Metrics;
  logger: Logger;
  metricsToken?: string | undefined;
  /** How long a scrape may take to be read, from its first byte. */
  scrapeDeadlineMs?: number;
}): Promise<HttpServer> {
  const { health, metrics, logger } = options;
  const deadlineMs = options.scrapeDeadlineMs ?? SCRAPE_DEADLINE_MS;
  const authorized = secretCheck(options.metricsToken);
  const server: Server = limitedServer('operator', (req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    const page = path === '/healthz' ? 'healthz' : path === '/metrics' ? 'metrics' : 'other';
    const answer = (status: number | 'cut') => metrics.operatorRequest(page, status);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      answer(405);
      return;
    }
    const withToken = options.metricsToken !== undefined && authorized(bearerToken(req));
    if (page === 'healthz') {
      // A load balancer's check needs the status code only; the details are for whoever holds the token.
      const snapshot = health.snapshot();
      const body = options.metricsToken === undefined || withToken ? snapshot : { status: snapshot.status };
      const status = health.healthy ? 200 : 503;
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : JSON.stringify(body));
      answer(status);
      return;
    }
    if (page === 'metrics') {
      if (!authorized(bearerToken(req))) {
        res.writeHead(401, { 'www-authenticate': 'Bearer realm="hostops metrics"' }).end();
        answer(401);
        return;
      }
      if (req.method === 'HEAD') {
        // What a GET would answer, without rendering anything.
        res
          .writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' })
          .end();
        answer(200);
        return;
      }
      const gzip = acceptsGzip(req.headers['accept-encoding']);
      (async () => {
        const scrape = await metrics.scrape();
        return gzip ? await scrape.gzip() : scrape;
      })().then(
        async (body) => {
          res.writeHead(200, {
            'content-type': metrics.registry.contentType,
            'content-length': body.bytes,
            'cache-control': 'no-store',
            vary: 'accept-encoding',
            ...(gzip ? { 'content-encoding': 'gzip' } : {}),
          });
          answer((await sendWithin(res, body.chunks, deadlineMs)) ? 200 : 'cut');
        },
        (error: unknown) => {
          logger.error({ err: error }, 'metrics collection failed');
          res.writeHead(500).end();
          answer(500);
        },
      );
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
    answer(404);
  });
  const port = await listen(server, options.host, options.port);
  logger.info(
    { host: options.host, port, withToken: options.metricsToken !== undefined },
    'health and metrics listening',
  );
  return { port, close: () => closeServer(server) };
}
