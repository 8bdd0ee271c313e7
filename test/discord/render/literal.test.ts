import { describe, expect, it } from 'vitest';
import { literal } from '../../../src/replies/literal.js';
import { readLiteral } from '../../support/readLiteral.js';

describe('literal', () => {
  for (const value of [
    'example.com',
    'a`b',
    '``double``',
    '`leading',
    'trailing`',
    '`both`',
    'C-`1`',
    '**not bold** <@123> @everyone :smile:',
    'back\\slash',
    '```fence```',
  ]) {
    it(`shows ${JSON.stringify(value)} exactly`, () => {
      expect(readLiteral(literal(value))).toBe(value);
    });
  }

  it('uses a single backtick when it can', () => {
    expect(literal('example.com')).toBe('`example.com`');
    expect(literal('a`b')).toBe('``a`b``');
  });
});
