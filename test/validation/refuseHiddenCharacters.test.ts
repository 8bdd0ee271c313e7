import { describe, expect, it } from 'vitest';
import { parseDnsRecords } from '../../src/validation/parseDnsRecords.js';
import {
  describeHiddenCharacter,
  refuseHiddenCharacters,
} from '../../src/validation/refuseHiddenCharacters.js';
import { HIDDEN_CLASSES } from '../support/hiddenCharacters.js';
import { de, en, expectInvalid } from './expectInvalid.js';

describe('refuseHiddenCharacters', () => {
  for (const [name, char] of Object.entries(HIDDEN_CLASSES)) {
    it(`refuses a ${name} anywhere in a value, naming it by code point`, () => {
      for (const value of [
        `${char}alice@example.com`,
        `ali${char}ce@example.com`,
        `alice@example.com${char}`,
      ]) {
        const error = expectInvalid(() => refuseHiddenCharacters(value), /would show as something other/);
        expect(error.message).toContain(en.render(describeHiddenCharacter(char)));
        expect(de.render(error.problem)).toContain(de.render(describeHiddenCharacter(char)));
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

  it('says the same in German: code point, name and where', () => {
    const one = expectInvalid(() => refuseHiddenCharacters('ali\u202ece'), /at position 4,/);
    expect(de.render(one.problem)).toBe(
      'enthält U+202E (Rechts-nach-links-Überschreibung) an Position 4; angezeigt würde also etwas anderes als das, was gesendet wird',
    );
    expect(de.render(one.expected)).toBe(
      'der Wert, noch einmal eingegeben ohne unsichtbare oder richtungsändernde Zeichen',
    );
    const lines = expectInvalid(
      () => refuseHiddenCharacters('www A 203.0.113.7\n@ TXT "a\u2028b"'),
      /at line 2, column 9,/,
    );
    expect(de.render(lines.problem)).toContain('U+2028 (Zeilentrenner) in Zeile 2, Spalte 9;');
    // Positions are plain digits in both languages, however long the value.
    const far = expectInvalid(() => refuseHiddenCharacters(`${'a'.repeat(1233)}\u200b`), /at position 1234,/);
    expect(de.render(far.problem)).toContain('U+200B (Leerzeichen ohne Breite) an Position 1234;');
  });

  it('names every listed character in both languages, and others by kind', () => {
    expect(en.render(describeHiddenCharacter('\u00ad'))).toBe('U+00AD (soft hyphen)');
    expect(de.render(describeHiddenCharacter('\u00ad'))).toBe('U+00AD (bedingter Trennstrich)');
    expect(en.render(describeHiddenCharacter('\u0007'))).toBe('U+0007 (control character)');
    expect(de.render(describeHiddenCharacter('\u0007'))).toBe('U+0007 (Steuerzeichen)');
    expect(en.render(describeHiddenCharacter('\u180e'))).toBe('U+180E (invisible character)');
    expect(de.render(describeHiddenCharacter('\u180e'))).toBe('U+180E (unsichtbares Zeichen)');
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
