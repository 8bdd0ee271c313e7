// A grant's domain pattern is read by people deciding who may change what: a label that mixes scripts
// (`аcme`, a Cyrillic `а` among Latin letters) or one written entirely in letters that pass for Latin
// (`асме` in Cyrillic) would show as a name it is not. Such patterns are refused; a real IDN label
// (`bücher`, `日本`) is written in one script and is accepted.

/** Scripts a label's letters are counted by; letters of other scripts count as their own. */
const SCRIPTS = [
  'Latin',
  'Cyrillic',
  'Greek',
  'Armenian',
  'Hebrew',
  'Arabic',
  'Han',
  'Hiragana',
  'Katakana',
  'Hangul',
  'Thai',
  'Devanagari',
  'Georgian',
] as const;
const SCRIPT_TESTS = SCRIPTS.map((name) => [name, new RegExp(`\\p{Script=${name}}`, 'u')] as const);
/** Japanese is written in three scripts at once; Han with Hangul is Korean. */
const ALLOWED_MIXES: readonly (readonly string[])[] = [
  ['Han', 'Hiragana', 'Katakana'],
  ['Han', 'Hangul'],
];
/** Lowercase Cyrillic and Greek letters that look like lowercase Latin ones (names are lowercased). */
const LATIN_LOOKALIKES = new Set([...'асеорхуіјѕԁһԛԝҽӏαικνουχ']);

/** Why the label may mislead, or undefined: `mixed` (two scripts in one label) or `lookalike`. */
export function misleadingLabel(label: string): 'mixed' | 'lookalike' | undefined {
  const scripts = new Set<string>();
  for (const char of label) {
    if (!/\p{L}/u.test(char)) continue;
    scripts.add(SCRIPT_TESTS.find(([, test]) => test.test(char))?.[0] ?? 'Other');
  }
  if (scripts.size > 1 && !ALLOWED_MIXES.some((mix) => [...scripts].every((s) => mix.includes(s))))
    return 'mixed';
  const [only] = scripts;
  if (
    scripts.size === 1 &&
    (only === 'Cyrillic' || only === 'Greek') &&
    [...label].every((char) => !/\p{L}/u.test(char) || LATIN_LOOKALIKES.has(char))
  )
    return 'lookalike';
  return undefined;
}
