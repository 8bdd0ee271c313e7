/**
 * The least time a test helper waits for something that is going to happen (a log line, a process's
 * exit, a request) before it calls it a hang. A helper's own limit is a bound for a hang, never for
 * speed: tests judge what happened and in which order, and the suite runs on machines shared by other
 * suites (load 25-45 on two cores), where a built process's start alone has taken 15 s and a purge's
 * three batches 30 s. Below vitest's 120 s per test, so a hang still fails the test with the helper's
 * message rather than vitest's.
 */
export const HANG_LIMIT_MS = 60_000;

/** The limit a helper waits: the caller's, raised to HANG_LIMIT_MS. */
export function hangLimit(timeoutMs: number): number {
  return Math.max(timeoutMs, HANG_LIMIT_MS);
}
