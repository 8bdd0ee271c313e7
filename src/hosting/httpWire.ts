// The HTTP details of a call: the query string as sent, Retry-After, a bounded body read.
import { DateTime } from 'luxon';

/** `encodeURIComponent` semantics so every value reaches the server exactly as given (space → %20, + → %2B). */
export function encodeQuery(query: Record<string, string> | undefined): string {
  if (!query) return '';
  const parts = Object.entries(query).map(
    ([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`,
  );
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

/**
 * Retry-After is either delta-seconds or an HTTP-date (RFC 9110 §10.2.3): anything else is no Retry-After
 * at all (undefined), never guessed at — Date.parse would read "in a while 2099" as 1 January 2099.
 */
export function parseRetryAfter(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const date = DateTime.fromHTTP(value, { zone: 'utc' });
  return date.isValid ? Math.max(0, date.toMillis() - now) : undefined;
}

/** The body as text, refused past `limit` bytes (BODY_TOO_LARGE). */
export async function readCapped(
  body: AsyncIterable<Buffer> & { destroy(error?: Error): unknown },
  limit: number,
) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) {
      body.destroy();
      throw Object.assign(new Error('response body too large'), { code: 'BODY_TOO_LARGE' });
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
