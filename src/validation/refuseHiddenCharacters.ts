import { type Message, type MessageKey, message } from '../i18n/Translator.js';
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

type CharacterName = Extract<MessageKey, `validation.char.${string}`>;

/** Keyed by code point as written in errors (`U+202E`). */
const NAMES: Readonly<Record<string, CharacterName>> = {
  'U+00AD': 'validation.char.soft_hyphen',
  'U+061C': 'validation.char.arabic_letter_mark',
  'U+200B': 'validation.char.zero_width_space',
  'U+200C': 'validation.char.zero_width_non_joiner',
  'U+200D': 'validation.char.zero_width_joiner',
  'U+200E': 'validation.char.left_to_right_mark',
  'U+200F': 'validation.char.right_to_left_mark',
  'U+2028': 'validation.char.line_separator',
  'U+2029': 'validation.char.paragraph_separator',
  'U+202A': 'validation.char.left_to_right_embedding',
  'U+202B': 'validation.char.right_to_left_embedding',
  'U+202C': 'validation.char.pop_directional_formatting',
  'U+202D': 'validation.char.left_to_right_override',
  'U+202E': 'validation.char.right_to_left_override',
  'U+2060': 'validation.char.word_joiner',
  'U+2066': 'validation.char.left_to_right_isolate',
  'U+2067': 'validation.char.right_to_left_isolate',
  'U+2068': 'validation.char.first_strong_isolate',
  'U+2069': 'validation.char.pop_directional_isolate',
  'U+FEFF': 'validation.char.zero_width_no_break_space',
};

/** `U+202E (right-to-left override)`: how an error names a character nobody can see. */
export function describeHiddenCharacter(char: string): Message {
  const code = codePointLabel(char);
  const name =
    NAMES[code] ??
    (/\p{Cc}/u.test(char) ? 'validation.char.control_character' : 'validation.char.invisible_character');
  return message('validation.hidden.character', { code, name: message(name) });
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
  // Positions as typed digits, not grouped numbers: `column 1234`, as an editor shows it.
  const column = String([...(before.at(-1) ?? '')].length + 1);
  const where =
    before.length > 1
      ? message('validation.hidden.line_column', { line: String(before.length), column })
      : message('validation.hidden.position', { column });
  throw new InvalidValueError(
    message('validation.hidden.problem', { character: describeHiddenCharacter(match[0]), where }),
    message('validation.hidden.expected'),
  );
}
