// Every bound of the interactions endpoint, in one place, with why. The endpoint is on the internet: each
// request is checked from its headers before its body is read, and what a stranger can hold is bounded per
// connection (what actually arrived, under MAX_BODY_BYTES, for at most BODY_DEADLINE_MS), never by a count
// that slow clients could fill in front of Discord's own requests (docs/http-mode.md). The listener's own
// bounds (headers, body and keep-alive deadlines, header size, connections) are every listener's, in
// src/observability/listenerLimits.ts: re-exported here, as they are this endpoint's too.

export {
  BODY_DEADLINE_MS,
  HEADERS_DEADLINE_MS,
  KEEP_ALIVE_MS,
  MAX_HEADER_BYTES,
} from '../../observability/listenerLimits.js';

/**
 * The largest body taken. Discord's payloads for HostOps are far smaller: a button press carries its message
 * (content ≤ 2,000 characters, embeds ≤ 6,000 in all: ≤ 48 KiB even at 6 bytes a character, JSON-escaped),
 * a modal submit HostOps' one text input (≤ 4,000 characters: ≤ 24 KiB), a command its options; the fake
 * Discord's largest payload in the process tests is ≈ 3 KiB.
 */
export const MAX_BODY_BYTES = 64 * 1024;

/** How often the deadlines are enforced: each is met within this much (Node's own check is every 30 s). */
export const DEADLINE_CHECK_MS = 250;

/** How often Node checks the headers' deadline (its connectionsCheckingInterval, given at creation). */
export { CONNECTIONS_CHECK_MS as HEADERS_CHECK_MS } from '../../observability/listenerLimits.js';

/**
 * Unverified body bytes held across all connections. Past it the oldest incomplete body is cut (429): a
 * Discord request arrives whole within milliseconds, so it is never the oldest for long; a limit of memory,
 * not a count of requests that a slow client could hold.
 */
export const UNVERIFIED_BYTES_BUDGET = 16 * 1024 * 1024;

/**
 * Verified requests being answered at once; more get 503 at once rather than queueing past Discord's 3 s.
 * Only a request with a valid signature takes one: an unsigned client can never fill them.
 */
export const MAX_VERIFIED_IN_FLIGHT = 256;

/** Discord's own rule for its signed requests: an older (or newer) timestamp is a replay. */
export const TIMESTAMP_TOLERANCE_MS = 5 * 60_000;

/** Discord's window for an interaction's first response, counted by Discord from when it sent the request. */
export const DISCORD_RESPONSE_WINDOW_MS = 3_000;

/**
 * Of those 3 s, what the way to Discord and back may take (Discord → proxy → HostOps, and the answer back):
 * a first response not ready this long before the window closes is not sent at all, since Discord may
 * already have given up on it (and a change confirmed by it would be sent unseen).
 */
export const NETWORK_MARGIN_MS = 500;

/** From a request's arrival (its headers) to its first response's last moment. */
export const RESPONSE_DEADLINE_MS = DISCORD_RESPONSE_WINDOW_MS - NETWORK_MARGIN_MS;

/** How long closing waits for verified requests still being answered: each is answered by its deadline. */
export const CLOSE_WAIT_MS = RESPONSE_DEADLINE_MS + 500;
