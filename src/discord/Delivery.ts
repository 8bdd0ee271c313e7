/** How interactions reach this process: a gateway session (connectGateway) or HTTP requests (serveInteractions). */
export interface Delivery {
  /** Resolves once interactions can arrive; rejects when they never can (the reason is in `fatal`). */
  ready: Promise<void>;
  /** Resolves with the reason when interactions can no longer arrive and the process should exit non-zero. */
  fatal: Promise<string>;
  /** A shutdown's first step, before commands in flight are drained: /healthz turns unready, new work is turned away. */
  stopAccepting(graceMs: number): Promise<void>;
  /** After the drain: closes the connection or listener. */
  close(): Promise<void>;
}
