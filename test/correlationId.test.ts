import { describe, expect, it } from 'vitest';
import { newCorrelationId } from '../src/correlationId.js';

describe('newCorrelationId', () => {
  it('gives 10 hex digits, all different over several refills of its random pool', () => {
    const ids = Array.from({ length: 2_000 }, () => newCorrelationId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{10}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
