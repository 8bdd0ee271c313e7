import { InvalidValueError } from './InvalidValueError.js';
import { codePointLabel } from './quote.js';

/**
 * Characters that make a value display as something other than what it is: bidi controls reorder
 * it, zero-width and other default-ignorable characters vanish, U+2028/U+2029 start a new line on
 * screen, control characters (tab and line breaks aside) and lone surrogates are invisible or
 * unrepresentable. Left alone because they show: variation selectors (they pick an emoji's
 * presentation) and a zero-width joiner inside an emoji sequence (👨‍👩‍👧 is not 👨👩👧).
 */
const HIDDEN = new RegExp(
  [
    '[\\p{Bidi_Control}\\u2028\\u2029\\p{Cs}]',
    '(?![\\uFE00-\\uFE0F\\u{E0100}-\\u{E01EF}\\u200D])\\p{Default_Ignorable_Code_Point}',
    '(?<!\\p{Extended_Pictographic}[\\uFE0F\\p{Emoji_Modifier}]?)\\u200D',
    '\\u200D(?!\\p{Extended_Pictographic})',
    '(?![\\t\\n\\r])\\p{Cc}',
  ].join('|'),
  'u',
);

/** The same, plus tab and line breaks: for a value that is one line by nature (a DNS record's content). */
export const HIDDEN_OR_CONTROL = new RegExp(`${HIDDEN.source}|\\p{Cc}`, 'u');

/** Keyed by code point as written in errors (`U+202E`). */
const NAMES: Readonly<Record<string, string>> = {
  'U+00AD': 'soft hyphen',
  'U+061C': 'Arabic letter mark',
  'U+200B': 'zero-width space',
  'U+200C': 'zero-width non-joiner',
  'U+200D': 'zero-width joiner',
  'U+200E': 'left-to-right mark',
  'U+200F': 'right-to-left mark',
  'U+2028': 'line separator',
  'U+2029': 'paragraph separator',
  'U+202A': 'left-to-right embedding',
  'U+202B': 'right-to-left embedding',
  'U+202C': 'pop directional formatting',
  'U+202D': 'left-to-right override',
  'U+202E': 'right-to-left override',
  'U+2060': 'word joiner',
  'U+2066': 'left-to-right isolate',
  'U+2067': 'right-to-left isolate',
  'U+2068': 'first strong isolate',
  'U+2069': 'pop directional isolate',
  'U+FEFF': 'zero-width no-break space',
};

/** `U+202E (right-to-left override)`: how an error names a character nobody can see. */
export function describeHiddenCharacter(char: string): string {
  const hex = codePointLabel(char);
  const name = NAMES[hex] ?? (/\p{Cc}/u.test(char) ? 'control character' : 'invisible character');
  return `${hex} (${name})`;
}

/**
 * The one rule for every value HostOps sends: what the confirmation prompt shows must be what is
 * sent, so characters that display differently from what they are, or not at all, are refused
 * rather than stripped (stripping would send something other than what was typed).
 * @returns the input unchanged
 * @throws InvalidValueError naming the character and where it is
 */
export function refuseHiddenCharacters(input: string): string {
  const match = HIDDEN.exec(input);
  if (!match) return input;
  const before = input.slice(0, match.index).split(/\r\n?|\n/);
  const column = [...(before.at(-1) ?? '')].length + 1;
  const where = before.length > 1 ? `line ${before.length}, column ${column}` : `position ${column}`;
  throw new InvalidValueError(
    `contains ${describeHiddenCharacter(match[0])} at ${where}, which would show as something other than what is sent`,
    'the value typed again without invisible or direction-changing characters',
  );
}
