import type { IncomingMessage } from 'node:http';
import type { SignatureRefusal } from '../../observability/signatureRefusals.js';
import { MAX_BODY_BYTES, TIMESTAMP_TOLERANCE_MS } from './endpointLimits.js';

/** The one body of every 401, whatever the reason (counted, never told: SignatureRefusal). */
export const SIGNATURE_REFUSED = 'invalid request signature';

/** A request refused from its head alone: its body is never read. */
export type HeadRefusal =
  | { status: 404 | 405 | 413; error: string }
  | { status: 401; error: typeof SIGNATURE_REFUSED; reason: Exclude<SignatureRefusal, 'invalid'> };

export interface SignedHead {
  signature: string;
  timestamp: string;
}

const SIGNATURE_HEX = /^[0-9a-fA-F]{128}$/;
const UNIX_SECONDS = /^\d{1,12}$/;

/**
 * Everything about a request that costs nothing to check, checked before its body is read: where it goes,
 * its announced size, that both signature headers are there and well-formed, and that its timestamp is
 * within Discord's replay window (judged by `nowMs`, the store's clock). What passes still needs its
 * signature checked over the body.
 */
export function checkRequestHead(req: IncomingMessage, nowMs: number): HeadRefusal | SignedHead {
  if ((req.url ?? '/').split('?', 1)[0] !== '/interactions') return { status: 404, error: 'not found' };
  if (req.method !== 'POST') return { status: 405, error: 'POST only' };
  // Node's parser has already refused a malformed Content-Length; a chunked body is capped as it arrives.
  const length = req.headers['content-length'];
  if (length !== undefined && Number(length) > MAX_BODY_BYTES)
    return { status: 413, error: `body larger than ${MAX_BODY_BYTES} bytes` };
  const signature = header(req, 'x-signature-ed25519');
  const timestamp = header(req, 'x-signature-timestamp');
  if (signature === undefined || timestamp === undefined)
    return { status: 401, error: SIGNATURE_REFUSED, reason: 'missing' };
  if (!SIGNATURE_HEX.test(signature) || !UNIX_SECONDS.test(timestamp))
    return { status: 401, error: SIGNATURE_REFUSED, reason: 'malformed' };
  if (!(Math.abs(nowMs - Number(timestamp) * 1000) <= TIMESTAMP_TOLERANCE_MS))
    return { status: 401, error: SIGNATURE_REFUSED, reason: 'stale' };
  return { signature, timestamp };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}
