import { describe, expect, it } from 'vitest';
import { batchClaims, type Claim } from '../../src/store/batchClaims.js';

/** An in-memory stand-in for the unique key, recording every statement it was sent. */
function table() {
  const rows = new Set<string>();
  const statements: string[][] = [];
  let release: (() => void) | undefined;
  let hold = false;
  return {
    rows,
    statements,
    holdNext() {
      hold = true;
    },
    release() {
      release?.();
    },
    async insert(claims: readonly Claim[]): Promise<ReadonlySet<string>> {
      statements.push(claims.map((claim) => claim.id));
      if (hold) {
        hold = false;
        await new Promise<void>((resolve) => {
          release = resolve;
        });
      }
      const inserted = new Set<string>();
      for (const { id } of claims) {
        if (!rows.has(id)) {
          rows.add(id);
          inserted.add(id);
        }
      }
      return inserted;
    },
  };
}

const claimOf = (id: string): Claim => ({ id, replicaId: 'r1', at: 0 });

describe('batchClaims', () => {
  it('sends a claim at once when nothing else is on its way', async () => {
    const db = table();
    const claim = batchClaims((claims) => db.insert(claims));
    expect(await claim(claimOf('a'))).toBe(true);
    expect(await claim(claimOf('a'))).toBe(false);
    expect(db.statements).toEqual([['a'], ['a']]);
  });

  it('sends the claims of a burst together while earlier ones are in flight, each decided once', async () => {
    const db = table();
    const claim = batchClaims((claims) => db.insert(claims), { maxInFlight: 1 });
    db.holdNext();
    const first = claim(claimOf('id-0'));
    const rest = Array.from({ length: 99 }, (_, i) => claim(claimOf(`id-${i + 1}`)));
    // Another replica already took id-50.
    db.rows.add('id-50');
    db.release();
    const results = await Promise.all([first, ...rest]);
    expect(db.statements).toHaveLength(2);
    expect(db.statements[1]).toHaveLength(99);
    expect(results.filter((won) => won)).toHaveLength(99);
    expect(results[50]).toBe(false);
  });

  it('wins an id asked for twice in one batch only once', async () => {
    const db = table();
    const claim = batchClaims((claims) => db.insert(claims), { maxInFlight: 1 });
    db.holdNext();
    const blocker = claim(claimOf('x'));
    const twice = [claim(claimOf('y')), claim(claimOf('y'))];
    db.release();
    await blocker;
    expect((await Promise.all(twice)).sort()).toEqual([false, true]);
    expect(db.statements[1]).toEqual(['y']);
  });

  it('fails every claim of a batch whose statement fails, and carries on with the next', async () => {
    let fail = true;
    const db = table();
    const claim = batchClaims(async (claims) => {
      if (fail) {
        fail = false;
        throw new Error('connection lost');
      }
      return db.insert(claims);
    });
    await expect(claim(claimOf('a'))).rejects.toThrow('connection lost');
    expect(await claim(claimOf('a'))).toBe(true);
  });

  it('never puts more than maxBatch claims in one statement', async () => {
    const db = table();
    const claim = batchClaims((claims) => db.insert(claims), { maxInFlight: 1, maxBatch: 10 });
    db.holdNext();
    const all = Array.from({ length: 31 }, (_, i) => claim(claimOf(`b-${i}`)));
    db.release();
    expect((await Promise.all(all)).every(Boolean)).toBe(true);
    expect(db.statements.map((ids) => ids.length)).toEqual([1, 10, 10, 10]);
  });
});
