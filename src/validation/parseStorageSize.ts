import type { Locale } from '../i18n/locales.js';
import { message } from '../i18n/Translator.js';
import { InvalidValueError } from './InvalidValueError.js';
import { quoteInput } from './quote.js';

const EXPECTED = message('validation.size.expected');

const UNIT_BYTES: ReadonlyMap<string, bigint> = new Map([
  ['b', 1n],
  ['kb', 1000n],
  ['mb', 1000n ** 2n],
  ['gb', 1000n ** 3n],
  ['tb', 1000n ** 4n],
  ['kib', 1024n],
  ['mib', 1024n ** 2n],
  ['gib', 1024n ** 3n],
  ['tib', 1024n ** 4n],
]);

const BINARY_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'] as const;

// Long enough for any size up to Number.MAX_SAFE_INTEGER bytes written out with decimals.
const MAX_INPUT_LENGTH = 40;

/**
 * Parses a storage size: plain bytes or a number with a decimal (KB = 1000 B) or binary (KiB = 1024 B)
 * unit, case-insensitive, optional space before the unit.
 * Computed with BigInt so `1.1 MB` is exactly 1100000 rather than a float just above it.
 * @returns whole bytes, > 0 and ≤ Number.MAX_SAFE_INTEGER
 * @throws InvalidValueError
 */
export function parseStorageSize(input: string): number {
  const value = input.trim();
  if (value === '') throw new InvalidValueError(message('validation.size.missing'), EXPECTED);
  const quoted = quoteInput(value);
  if (value.length > MAX_INPUT_LENGTH)
    throw new InvalidValueError(message('validation.too_long', { input: quoted }), EXPECTED);
  const match = /^(\d+)(?:\.(\d+))?\s*([a-z]*)$/i.exec(value);
  if (!match) {
    const problem = value.includes(',') ? 'validation.size.not_number_comma' : 'validation.size.not_number';
    throw new InvalidValueError(message(problem, { input: quoted }), EXPECTED);
  }
  const [, whole = '', fraction = '', unitText = ''] = match;
  const unit = UNIT_BYTES.get(unitText === '' ? 'b' : unitText.toLowerCase());
  if (unit === undefined) {
    throw new InvalidValueError(
      message('validation.size.unknown_unit', { unit: quoteInput(unitText) }),
      EXPECTED,
    );
  }

  const scale = 10n ** BigInt(fraction.length);
  const scaledBytes = BigInt(whole + fraction) * unit;
  if (scaledBytes % scale !== 0n) {
    throw new InvalidValueError(message('validation.size.fraction', { input: quoted }), EXPECTED);
  }
  const bytes = scaledBytes / scale;
  if (bytes === 0n) throw new InvalidValueError(message('validation.size.zero', { input: quoted }), EXPECTED);
  if (bytes > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new InvalidValueError(message('validation.size.too_large', { input: quoted }), EXPECTED);
  }
  return Number(bytes);
}

const BYTE_NUMBERS: Readonly<Record<Locale, Intl.NumberFormat>> = {
  // No grouping: `1023 B` and `1000 KiB` read as sizes; at most one decimal, so grouping never helps.
  en: new Intl.NumberFormat('en', { useGrouping: false, maximumFractionDigits: 1 }),
  de: new Intl.NumberFormat('de', { useGrouping: false, maximumFractionDigits: 1 }),
};

/**
 * Formats bytes for people with binary units and at most one decimal, e.g. `10 GiB`, `488.3 MiB`, `512 B`;
 * the decimal separator is the language's (`488,3 MiB` in German), the units are the same everywhere.
 * @throws RangeError for negative or non-finite numbers (a programming error, not user input)
 */
export function formatBytes(bytes: number, locale: Locale = 'en'): string {
  if (!Number.isFinite(bytes) || bytes < 0) throw new RangeError(`cannot format ${bytes} bytes`);
  let value = bytes;
  let unitIndex = 0;
  while (unitIndex < BINARY_UNITS.length - 1 && Math.round(value * 10) / 10 >= 1024) {
    value /= 1024;
    unitIndex += 1;
  }
  const rounded = unitIndex === 0 ? Math.round(value) : Math.round(value * 10) / 10;
  return `${BYTE_NUMBERS[locale].format(rounded)} ${BINARY_UNITS[unitIndex]}`;
}
