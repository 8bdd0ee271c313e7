// The real music-bot password generator (the e2e tests pin a fixed password; test/process/running.test.ts
// runs this one through the whole process).
import { describe, expect, it } from 'vitest';
import { generatePassword } from '../src/generatePassword.js';

// Letters and digits without the look-alikes 0 O 1 l I.
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
const DRAWS = 20_000;

describe('generatePassword', () => {
  it('is 24 characters by default, any length on request', () => {
    expect(generatePassword()).toHaveLength(24);
    for (const length of [8, 12, 32, 64]) expect(generatePassword(length)).toHaveLength(length);
  });

  it('uses only the unambiguous letters and digits, and always has a lower-case letter, a capital and a digit', () => {
    for (let i = 0; i < 2_000; i++) {
      const password = generatePassword();
      expect(password).toMatch(/^[A-HJ-NP-Za-km-z2-9]{24}$/);
      expect(password).toMatch(/[a-z]/);
      expect(password).toMatch(/[A-Z]/);
      expect(password).toMatch(/\d/);
    }
    // Short ones too, where all three classes are hardest to get.
    for (let i = 0; i < 2_000; i++) {
      const password = generatePassword(3);
      expect(password).toMatch(/^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)[A-HJ-NP-Za-km-z2-9]{3}$/);
    }
  });

  it(`never repeats over ${DRAWS.toLocaleString('en')} draws, and draws every symbol about equally often`, () => {
    const seen = new Set<string>();
    const counts = new Map<string, number>();
    for (let i = 0; i < DRAWS; i++) {
      const password = generatePassword();
      seen.add(password);
      for (const char of password) counts.set(char, (counts.get(char) ?? 0) + 1);
    }
    expect(seen.size).toBe(DRAWS);
    // Every one of the 57 symbols, and nothing else.
    expect([...counts.keys()].sort().join('')).toBe([...ALPHABET].sort().join(''));
    // 480,000 characters: about 8,421 per symbol, with a standard deviation of about 91 (redrawing
    // passwords without a digit makes each digit some 3 % more frequent). A generator that favoured
    // some symbols — a modulo bias, a skewed alphabet — would leave this band; chance would not (the
    // band is about ±10 standard deviations).
    const expected = (DRAWS * 24) / ALPHABET.length;
    for (const [char, count] of counts) {
      expect(Math.abs(count - expected), `symbol ${char}: ${count}`).toBeLessThan(expected * 0.11);
    }
  });
});
