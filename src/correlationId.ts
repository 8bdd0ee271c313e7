import { randomBytes } from 'node:crypto';

/** Short enough to read out in chat, random enough to find one line in a day of logs. */
export function newCorrelationId(): string {
  return randomBytes(5).toString('hex');
}
