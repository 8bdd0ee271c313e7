import { describe, expect, it } from 'vitest';
import { formatBytes, parseStorageSize } from '../../src/validation/parseStorageSize.js';
import { de, expectInvalid } from './expectInvalid.js';

describe('parseStorageSize', () => {
  it('accepts plain bytes', () => {
    expect(parseStorageSize('1048576')).toBe(1_048_576);
    expect(parseStorageSize(' 1 ')).toBe(1);
  });

  it('uses powers of 1000 for decimal units', () => {
    expect(parseStorageSize('512MB')).toBe(512_000_000);
    expect(parseStorageSize('100 B')).toBe(100);
    expect(parseStorageSize('2KB')).toBe(2000);
    expect(parseStorageSize('3 GB')).toBe(3_000_000_000);
    expect(parseStorageSize('1.5 TB')).toBe(1_500_000_000_000);
  });

  it('uses powers of 1024 for binary units', () => {
    expect(parseStorageSize('10 GiB')).toBe(10_737_418_240);
    expect(parseStorageSize('1.5 KiB')).toBe(1536);
    expect(parseStorageSize('256MiB')).toBe(268_435_456);
    expect(parseStorageSize('2 TiB')).toBe(2_199_023_255_552);
  });

  it('ignores case of the unit', () => {
    expect(parseStorageSize('512mb')).toBe(512_000_000);
    expect(parseStorageSize('10 gib')).toBe(10_737_418_240);
    expect(parseStorageSize('10 GIB')).toBe(10_737_418_240);
  });

  it('computes decimals exactly, without floating-point error', () => {
    // 1.1 * 1e6 is 1100000.0000000002 in floating point.
    expect(parseStorageSize('1.1 MB')).toBe(1_100_000);
    expect(parseStorageSize('0.1 GB')).toBe(100_000_000);
    expect(parseStorageSize('4.7 GB')).toBe(4_700_000_000);
    expect(parseStorageSize('0.001 KB')).toBe(1);
  });

  it('rejects results that are not whole bytes', () => {
    expectInvalid(() => parseStorageSize('0.5B'), '"0.5B" is not a whole number of bytes');
    expectInvalid(() => parseStorageSize('1.5'), '"1.5" is not a whole number of bytes');
    expectInvalid(() => parseStorageSize('0.0001 KB'), /not a whole number of bytes/);
    expectInvalid(() => parseStorageSize('1.1 KiB'), /not a whole number of bytes/);
  });

  it('rejects zero', () => {
    expectInvalid(() => parseStorageSize('0'), /is 0 bytes/);
    expectInvalid(() => parseStorageSize('0.0 GiB'), /is 0 bytes/);
  });

  it('rejects sizes above Number.MAX_SAFE_INTEGER', () => {
    expect(parseStorageSize('9007199254740991')).toBe(Number.MAX_SAFE_INTEGER);
    expectInvalid(() => parseStorageSize('9007199254740992'), '"9007199254740992" is too large');
    expectInvalid(() => parseStorageSize('9000 TiB'), /is too large/);
  });

  it('rejects unknown units', () => {
    expectInvalid(() => parseStorageSize('5 PB'), 'unknown unit "PB"');
    expectInvalid(() => parseStorageSize('5G'), 'unknown unit "G"');
    expectInvalid(() => parseStorageSize('5 bytes'), 'unknown unit "bytes"');
  });

  it('rejects other shapes', () => {
    expectInvalid(
      () => parseStorageSize('1,5GB'),
      '"1,5GB" is not a number with a unit; use "." for decimals',
    );
    expectInvalid(() => parseStorageSize('-5GB'), /not a number with a unit/);
    expectInvalid(() => parseStorageSize('1e6'), /not a number with a unit/);
    expectInvalid(() => parseStorageSize('.5GB'), /not a number with a unit/);
    expectInvalid(() => parseStorageSize('5.GB'), /not a number with a unit/);
    expectInvalid(() => parseStorageSize('GB'), /not a number with a unit/);
    expectInvalid(() => parseStorageSize('5 G B'), /not a number with a unit/);
    expectInvalid(() => parseStorageSize('５GB'), /not a number with a unit/);
    expectInvalid(() => parseStorageSize('a b&c=d#e+f%g'), /not a number with a unit/);
    expectInvalid(() => parseStorageSize(''), 'no size given');
  });

  it('rejects very long input without echoing it', () => {
    const error = expectInvalid(() => parseStorageSize('9'.repeat(10_000)), /is too long$/);
    expect(error.message.length).toBeLessThan(120);
  });
});

describe('formatBytes', () => {
  it('uses binary units with at most one decimal', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024)).toBe('1 KiB');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(512_000_000)).toBe('488.3 MiB');
    expect(formatBytes(10_737_418_240)).toBe('10 GiB');
    expect(formatBytes(2_199_023_255_552)).toBe('2 TiB');
    expect(formatBytes(Number.MAX_SAFE_INTEGER)).toBe('8 PiB');
  });

  it('moves to the next unit instead of showing 1024', () => {
    expect(formatBytes(1_048_575)).toBe('1 MiB');
    expect(formatBytes(1024 ** 3 - 1)).toBe('1 GiB');
  });

  it('round-trips parsed sizes', () => {
    expect(formatBytes(parseStorageSize('10 GiB'))).toBe('10 GiB');
    expect(formatBytes(parseStorageSize('1.5 KiB'))).toBe('1.5 KiB');
  });

  it('refuses negative and non-finite numbers', () => {
    expect(() => formatBytes(-1)).toThrow(RangeError);
    expect(() => formatBytes(Number.NaN)).toThrow(RangeError);
    expect(() => formatBytes(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe('storage sizes in German', () => {
  it('says what is wrong in German, keeping the "." decimals the parser takes', () => {
    const comma = expectInvalid(() => parseStorageSize('1,5 GB'), /use "\." for decimals$/);
    expect(de.render(comma.problem)).toBe(
      '"1,5 GB" ist keine Zahl mit Einheit; schreib Dezimalstellen mit "."',
    );
    expect(de.render(comma.expected)).toBe(
      'eine Größe wie 512MB, 10 GiB, 1.5 TB oder eine Anzahl Bytes wie 1048576',
    );
    expect(de.render(expectInvalid(() => parseStorageSize('5 parsecs'), /unknown unit/).problem)).toBe(
      'unbekannte Einheit "parsecs"',
    );
    expect(de.render(expectInvalid(() => parseStorageSize('0 GB'), /is 0 bytes/).problem)).toBe(
      '"0 GB" sind 0 Bytes; die Größe muss größer sein',
    );
  });

  it("formats sizes with the language's decimal separator, units and no grouping", () => {
    expect(formatBytes(512_000_000, 'en')).toBe('488.3 MiB');
    expect(formatBytes(512_000_000, 'de')).toBe('488,3 MiB');
    expect(formatBytes(1536, 'de')).toBe('1,5 KiB');
    expect(formatBytes(10_737_418_240, 'de')).toBe('10 GiB');
    expect(formatBytes(1023, 'en')).toBe('1023 B');
    expect(formatBytes(1023, 'de')).toBe('1023 B');
    expect(formatBytes(1000 * 1024, 'en')).toBe('1000 KiB');
    expect(formatBytes(1000 * 1024, 'de')).toBe('1000 KiB');
  });
});
