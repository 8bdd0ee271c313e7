// A kept gzip part joined into fewer, larger pieces is still the same gzip answer, byte for byte of text.
import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { coalesced, deflatePart, gzipParts } from '../src/gzipParts.js';

const text = (n: number) => Buffer.from(`line ${n} ${randomBytes(24).toString('hex')}\n`.repeat(200));

describe('coalesced', () => {
  it('joins the deflate blocks into pieces of about the size asked, and the answer decodes to the same text', async () => {
    const chunks = Array.from({ length: 60 }, (_, n) => text(n));
    const part = await deflatePart(chunks);
    const joined = await coalesced(part, 64 * 1024);
    expect(joined.deflated.length).toBeLessThan(part.deflated.length);
    // Every piece but the last reaches the size; none is more than one block past it.
    const largestBlock = Math.max(...part.deflated.map((b) => b.length));
    for (const piece of joined.deflated.slice(0, -1)) {
      expect(piece.length).toBeGreaterThanOrEqual(64 * 1024);
      expect(piece.length).toBeLessThan(64 * 1024 + largestBlock);
    }
    expect(Buffer.concat(joined.deflated)).toEqual(Buffer.concat(part.deflated));
    expect({ crc: joined.crc, bytes: joined.bytes }).toEqual({ crc: part.crc, bytes: part.bytes });
    const last = Buffer.from('# the end\n');
    const answer = Buffer.concat(await gzipParts(joined, last));
    expect(gunzipSync(answer)).toEqual(Buffer.concat([...chunks, last]));
  });

  it('keeps an empty part empty', async () => {
    const empty = await coalesced({ deflated: [], crc: 0, bytes: 0 });
    expect(empty.deflated).toEqual([]);
    expect(gunzipSync(Buffer.concat(await gzipParts(empty, Buffer.from('x\n'))))).toEqual(Buffer.from('x\n'));
  });
});
