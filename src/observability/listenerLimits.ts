import { createServer, type RequestListener, type Server } from 'node:http';

// Every listener HostOps opens, and the bounds each is held to, in one place: the interactions endpoint
// (public), the operator pages (/healthz, /metrics: private) and the expiry calendar (may be published).
// Node's defaults — 60 s for headers, 300 s for a request, 16 KiB of headers, no limit of connections —
// let one slow client hold a socket for minutes and any number of them hold the process's descriptors.

/**
 * From a request's headers to the end of its body. Discord sends a request at once; this leaves room for one
 * lost packet's retransmission (Linux's first RTO is 1 s) and still ends before the answer is due.
 */
export const BODY_DEADLINE_MS = 2_000;

/** From a connection's first byte (or its last answer) to the end of a request's headers: sent at once too. */
export const HEADERS_DEADLINE_MS = 2_000;

/** Headers of a Discord request, with a proxy's additions, are well under 2 KiB; Node's default is 16 KiB. */
export const MAX_HEADER_BYTES = 8 * 1024;

/**
 * How long an idle connection to the interactions endpoint stays open for the next request. It must be
 * LONGER than the keep-alive of the proxy in front (the Caddyfile's `keepalive 60s`, nginx's 60 s, most load
 * balancers' 60 s): then the proxy always closes an idle connection first, never HostOps one the proxy is
 * just sending a request on, which a proxy does not retry for a POST (seen in Discord as "interaction
 * failed"). A proxy with a longer keep-alive (Caddy's default is 2 minutes) must be set below this;
 * test/compose.test.ts holds the Caddyfile to it.
 */
export const KEEP_ALIVE_MS = 75_000;

/** How often node:http checks the header and request deadlines (its own default is every 30 s). */
export const CONNECTIONS_CHECK_MS = 500;

export interface ListenerLimits {
  /** From a connection's first byte (or its last answer) to the end of a request's headers. */
  headersTimeoutMs: number;
  /** From a connection's first byte to the end of a whole request, its body included. */
  requestTimeoutMs: number;
  /** How long an idle connection stays open for the next request. */
  keepAliveMs: number;
  maxHeaderBytes: number;
  /**
   * Connections open at once; past it a new one is closed as it comes. A bound on descriptors and memory,
   * far above what the listener serves, so that a flood of connections cannot take the ones the process
   * needs itself (the store, Discord's REST API).
   */
  maxConnections: number;
}

export const LISTENER_LIMITS = {
  // Discord, through a proxy (a few pooled connections) or not: its requests arrive at once. Above the
  // 1,000 slow connections of `npm run bench -- flood`, under which every signed interaction is answered.
  interactions: {
    headersTimeoutMs: HEADERS_DEADLINE_MS,
    // Past the body's own deadline (enforced by UnverifiedBodies): Node's check is only the backstop.
    requestTimeoutMs: HEADERS_DEADLINE_MS + BODY_DEADLINE_MS + 1_000,
    keepAliveMs: KEEP_ALIVE_MS,
    maxHeaderBytes: MAX_HEADER_BYTES,
    maxConnections: 2_048,
  },
  // A load balancer's health check, the container's, Prometheus: a few GETs without a body, sent at once
  // from the same network. Idle probes and scrapers never hold a shutdown open.
  operator: {
    headersTimeoutMs: HEADERS_DEADLINE_MS,
    requestTimeoutMs: HEADERS_DEADLINE_MS + 1_000,
    keepAliveMs: 5_000,
    maxHeaderBytes: MAX_HEADER_BYTES,
    maxConnections: 64,
  },
  // Calendar apps polling one URL, perhaps over a phone's network straight from the internet: more time
  // for a request's head than a proxy or a probe needs, still a GET without a body.
  calendar: {
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 11_000,
    keepAliveMs: 5_000,
    maxHeaderBytes: MAX_HEADER_BYTES,
    maxConnections: 256,
  },
} as const satisfies Record<string, ListenerLimits>;

export type Listener = keyof typeof LISTENER_LIMITS;

/**
 * A node:http server held to its listener's limits. They are given at creation: set afterwards, Node checks
 * the deadlines only every 30 s.
 */
export function limitedServer(listener: Listener, handle: RequestListener): Server {
  const limits: ListenerLimits = LISTENER_LIMITS[listener];
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: CONNECTIONS_CHECK_MS,
      keepAliveTimeout: limits.keepAliveMs,
      maxHeaderSize: limits.maxHeaderBytes,
    },
    handle,
  );
  server.maxConnections = limits.maxConnections;
  return server;
}
