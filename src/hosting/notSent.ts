import { QueueClosedError } from './ConnectionQueue.js';
import { HostingApiError } from './HostingApiError.js';
import type { Operation } from './judgeAnswer.js';
import { WaitExpired } from './singleFlight.js';

/**
 * A call that ended while it waited for a connection, before anything was sent: said as HostOps' own
 * limit (`no_connection`), never as the provider's silence. Any other error is returned as it is.
 */
export function notSent(
  op: Pick<Operation<unknown>, 'name' | 'method' | 'pathTemplate'>,
  correlationId: string,
  error: unknown,
): unknown {
  const details = {
    operation: op.name,
    request: { method: op.method, pathTemplate: op.pathTemplate },
    correlationId,
    attempts: 0,
    cause: error,
  };
  if (error instanceof WaitExpired) {
    return new HostingApiError(
      `no connection to the provider came free within ${Math.round(error.waitedMs)} ms; not sent`,
      { ...details, kind: 'no_connection', timeoutMs: error.waitedMs },
    );
  }
  if (error instanceof QueueClosedError) {
    return new HostingApiError('HostOps is shutting down; not sent', { ...details, kind: 'no_connection' });
  }
  return error;
}
