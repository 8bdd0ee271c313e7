import { randomFillSync } from 'node:crypto';

const ID_BYTES = 5;
// One call into the CSPRNG per 200 ids: a call per id was a visible share of a burst's CPU.
const pool = Buffer.alloc(ID_BYTES * 200);
let offset = pool.length;

/** Short enough to read out in chat, random enough to find one line in a day of logs. */
export function newCorrelationId(): string {
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  offset += ID_BYTES;
  return pool.toString('hex', offset - ID_BYTES, offset);
}
