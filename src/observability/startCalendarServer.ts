import { createHash } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import { createGunzip } from 'node:zlib';
import { acceptsGzip } from '../gzipParts.js';
import type { Logger } from '../logger.js';
import type { RenderedCalendar } from '../watch/expiryCalendar.js';
import { closeServer, listen } from './listen.js';
import { limitedServer } from './listenerLimits.js';
import { secretCheck, sendWithin } from './sendWithin.js';
import type { HttpServer } from './startHttpServer.js';

/** The expiry calendar by URL: its secret token, and the calendar as the store last changed it. */
export interface CalendarFeed {
  token: string;
  /** The store's change stamp of the watch data: an unchanged one is a 304 to the ETag sent before. */
  stamp(): Promise<string>;
  calendar(): Promise<{ stamp: string; render(): Promise<RenderedCalendar> }>;
}

/** A calendar app reads a few megabytes at most; one that does not read is cut off after this. */
export const CALENDAR_DEADLINE_MS = 60_000;

const CALENDAR_PATH = /^\/calendar\/([^/]+)\.ics$/;

/** The ETag of a calendar: from its change stamp (which says nothing of the data), one per encoding. */
const etagOf = (stamp: string, gzip: boolean) =>
  `"${createHash('sha256').update(stamp).digest('base64url').slice(0, 27)}${gzip ? '-gz' : ''}"`;

function notModified(req: IncomingMessage, etag: string): boolean {
  const given = req.headers['if-none-match'];
  if (given === undefined) return false;
  return given
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
}

/**
 * The calendar listener (CALENDAR_PORT): GET /calendar/<CALENDAR_TOKEN>.ics and nothing else, so that
 * wherever the calendar is reachable without any other credential, nothing else is — no metrics, no
 * health. Any other path, method or token is the same 404.
 */
export async function startCalendarServer(options: {
  host: string;
  port: number;
  feed: CalendarFeed;
  logger: Logger;
  counted?: (status: number | 'cut') => void;
  deadlineMs?: number;
}): Promise<HttpServer> {
  const { feed, logger } = options;
  const counted = options.counted ?? (() => {});
  const deadlineMs = options.deadlineMs ?? CALENDAR_DEADLINE_MS;
  const tokenMatches = secretCheck(feed.token);
  const server: Server = limitedServer('calendar', (req, res) => {
    const token = CALENDAR_PATH.exec((req.url ?? '/').split('?', 1)[0] ?? '')?.[1];
    if ((req.method !== 'GET' && req.method !== 'HEAD') || token === undefined || !tokenMatches(token)) {
      // A wrong token looks like any other unknown path.
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      counted(404);
      return;
    }
    // Kept gzipped: sent as it is to a client that takes gzip (calendar apps do), else decompressed on the
    // way out, in zlib's thread pool.
    const gzip = acceptsGzip(req.headers['accept-encoding']);
    const headers = (stamp: string) => ({
      'content-type': 'text/calendar; charset=utf-8',
      'content-disposition': 'inline; filename="hostops-expiry.ics"',
      // Stored, but asked again each time: a poll with nothing new is a 304 without a body.
      'cache-control': 'private, no-cache',
      vary: 'accept-encoding',
      etag: etagOf(stamp, gzip),
    });
    const serve = async () => {
      const stamp = await feed.stamp();
      if (req.method === 'HEAD' || notModified(req, etagOf(stamp, gzip))) {
        const status = req.method === 'HEAD' ? 200 : 304;
        res.writeHead(status, headers(stamp)).end();
        return status;
      }
      const calendar = await feed.calendar();
      const rendered = await calendar.render();
      res.writeHead(200, {
        ...headers(calendar.stamp),
        ...(gzip
          ? { 'content-encoding': 'gzip', 'content-length': rendered.gzipBytes }
          : { 'content-length': rendered.bytes }),
      });
      const sent = await sendWithin(res, rendered.gzip, deadlineMs, gzip ? undefined : createGunzip());
      return sent ? 200 : 'cut';
    };
    serve().then(counted, (error: unknown) => {
      logger.error({ err: error }, 'expiry calendar could not be rendered');
      if (!res.headersSent)
        res.writeHead(503, { 'content-type': 'text/plain' }).end('calendar unavailable\n');
      else res.destroy();
      counted(503);
    });
  });
  const port = await listen(server, options.host, options.port);
  logger.info({ host: options.host, port }, 'expiry calendar listening');
  return { port, close: () => closeServer(server) };
}
