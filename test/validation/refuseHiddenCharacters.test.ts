import { describe, expect, it } from 'vitest';
import { parseDnsRecords } from '../../src/validation/parseDnsRecords.js';
import {
  describeHiddenCharacter,
  refuseHiddenCharacters,
} from '../../src/validation/refuseHiddenCharacters.js';
import { HIDDEN_CLASSES } from '../support/hiddenCharacters.js';
import { expectInvalid } from './expectInvalid.js';

describe('refuseHiddenCharacters', () => {
  for (const [name, char] of Object.entries(HIDDEN_CLASSES)) {
    it(`refuses a ${name} anywhere in a value, naming it by code point`, () => {
      for (const value of [
        `${char}alice@example.com`,
        `ali${char}ce@example.com`,
        `alice@example.com${char}`,
      ]) {
        const error = expectInvalid(() => refuseHiddenCharacters(value), /would show as something other/);
        expect(error.message).toContain(describeHiddenCharacter(char));
      }
    });
  }

  it('says where the character is: position, or line and column in several lines', () => {
    expectInvalid(
      () => refuseHiddenCharacters('ali\u202ece'),
      /U\+202E \(right-to-left override\) at position 4,/,
    );
    expectInvalid(
      () => refuseHiddenCharacters('www A 203.0.113.7\n@ TXT "a\u2028b"'),
      /U\+2028 \(line separator\) at line 2, column 9,/,
    );
  });

  it('lets through what shows as itself', () => {
    for (const value of [
      'plain ascii',
      'bücher.de',
      '日本語',
      'tab\tand\nnew lines\r\n',
      '👨‍👩‍👧 family',
      '❤️ with a variation selector',
      '👍🏽 with a skin tone',
      '🏳️‍🌈 flag sequence',
      'e\u0301 combining accent',
    ]) {
      expect(refuseHiddenCharacters(value)).toBe(value);
    }
  });
});

describe('DNS records carry the rule into decoded JSON escapes', () => {
  for (const [name, char] of Object.entries(HIDDEN_CLASSES)) {
    it(`refuses a ${name} written as a JSON escape in content or name`, () => {
      // Each UTF-16 unit as its own escape, the way JSON writes astral characters.
      const jsonEscape = char
        .split('')
        .map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`)
        .join('');
      expectInvalid(
        () => parseDnsRecords(`[{"name":"@","type":"TXT","content":"a${jsonEscape}b"}]`),
        /^index 0: content contains U\+/,
      );
      expectInvalid(
        () => parseDnsRecords(`[{"name":"w${jsonEscape}w","type":"A","content":"203.0.113.7"}]`),
        /^index 0: name contains U\+/,
      );
    });
  }

  it('refuses TXT text whose line separator would look like a second record', () => {
    expectInvalid(
      () => parseDnsRecords('@ TXT "v=spf1\u2028www A 203.0.113.66"'),
      /^line 1: content contains U\+2028/,
    );
  });
});
