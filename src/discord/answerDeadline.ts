/** Discord takes an interaction's answers (edits, follow-ups) for 15 minutes after it was created. */
const INTERACTION_TOKEN_MS = 15 * 60_000;

/** performance.now() after which an interaction received at `receivedAt` can no longer be answered. */
export function answerDeadline(receivedAt: number): number {
  return receivedAt + INTERACTION_TOKEN_MS;
}
