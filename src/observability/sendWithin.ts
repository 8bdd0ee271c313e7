import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable, type Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Writes `chunks` as the client reads them, and cuts the connection if they are not all sent within
 * `deadlineMs`: a client that never reads holds its socket and the pieces for that long at most. (Counted
 * from the first byte: the render before it is HostOps' own work, shared, and bounded by the data.) True
 * when the whole response was sent.
 */
export async function sendWithin(
  res: ServerResponse,
  chunks: readonly Buffer[],
  deadlineMs: number,
  through?: Transform,
): Promise<boolean> {
  const timer = setTimeout(() => res.destroy(), deadlineMs);
  const source = Readable.from(chunks, { objectMode: false });
  try {
    await (through ? pipeline(source, through, res) : pipeline(source, res));
    return true;
  } catch {
    // Cut at the deadline, or the client went away; it will try again.
    return false;
  } finally {
    clearTimeout(timer);
  }
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * A check of a secret the client sends, in constant time: both sides are compared as digests of equal
 * length, so the response time tells nothing of the secret. Without a secret every request passes.
 */
export function secretCheck(secret: string | undefined): (given: string | undefined) => boolean {
  if (secret === undefined) return () => true;
  const expected = digest(secret);
  return (given) => given !== undefined && timingSafeEqual(digest(given), expected);
}

const BEARER = /^Bearer +([^\s]+) *$/i;

/** The token of `Authorization: Bearer <token>`, as Prometheus' `authorization` scrape setting sends it. */
export function bearerToken(req: IncomingMessage): string | undefined {
  return BEARER.exec(req.headers.authorization ?? '')?.[1];
}
