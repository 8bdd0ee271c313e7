import { setImmediate as nextTurn } from 'node:timers/promises';
import { promisify } from 'node:util';
import { constants, crc32, deflateRaw } from 'node:zlib';

// A gzip answer (RFC 1952) made of a large part compressed once and kept (the per-domain series, until the
// watch data changes) and a small part compressed per answer (prom-client's text): one gzip member whose
// deflate data is the kept part's blocks, ended on a byte boundary (a sync flush, not final), then the
// small part's blocks (final); its CRC-32 continues from the kept part's. Compressing 16 MB again for
// every scrape would cost more than the scrape.

const deflate = promisify(deflateRaw);
/** ID1 ID2, CM = deflate, no flags, no mtime, no extra flags, OS unknown. */
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/** A part compressed once: deflate blocks that others may follow, with the CRC-32 and length of its text. */
export interface DeflatedPart {
  deflated: Buffer[];
  crc: number;
  bytes: number;
}

/**
 * Compresses `chunks` a chunk at a time in zlib's thread pool (each chunk's deflate data ends on a byte
 * boundary, so they simply follow each other), giving the event loop back after each.
 */
export async function deflatePart(chunks: readonly Buffer[]): Promise<DeflatedPart> {
  const part: DeflatedPart = { deflated: [], crc: 0, bytes: 0 };
  for (const chunk of chunks) await appendPart(part, chunk);
  return part;
}

/** Compresses one more chunk onto `part` (its text follows the part's). */
export async function appendPart(part: DeflatedPart, chunk: Buffer): Promise<void> {
  part.deflated.push(await deflate(chunk, { finishFlush: constants.Z_SYNC_FLUSH }));
  part.crc = crc32(chunk, part.crc);
  part.bytes += chunk.length;
}

/**
 * `part` with its deflate blocks joined into pieces of about `size` bytes: compressed a 64 KB chunk at a
 * time, 100,000 domains' series are ≈ 250 blocks of 4 KB, and an answer writes each piece with a write of
 * its own. Done once per part (it is kept), a piece at a time, giving the event loop back between.
 */
export async function coalesced(part: DeflatedPart, size = 256 * 1024): Promise<DeflatedPart> {
  const pieces: Buffer[] = [];
  let run: Buffer[] = [];
  let runBytes = 0;
  for (const block of part.deflated) {
    run.push(block);
    runBytes += block.length;
    if (runBytes >= size) {
      pieces.push(Buffer.concat(run, runBytes));
      run = [];
      runBytes = 0;
      await nextTurn();
    }
  }
  if (run.length > 0) pieces.push(Buffer.concat(run, runBytes));
  return { ...part, deflated: pieces };
}

/** The gzip answer of `kept` followed by `last`. */
export async function gzipParts(kept: DeflatedPart, last: Buffer): Promise<Buffer[]> {
  const tail = await deflate(last);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(last, kept.crc) >>> 0, 0);
  trailer.writeUInt32LE((kept.bytes + last.length) % 2 ** 32, 4);
  return [HEADER, ...kept.deflated, tail, trailer];
}

/** Whether the client takes gzip (`Accept-Encoding: gzip`, as Prometheus sends it), not refused by q=0. */
export function acceptsGzip(header: string | undefined): boolean {
  if (header === undefined) return false;
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return (coding === 'gzip' || coding === 'x-gzip') && (q === undefined || Number(q.slice(2)) > 0);
  });
}
