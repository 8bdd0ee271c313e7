/** One representative per class the prompt could misrepresent. */
export const HIDDEN_CLASSES = {
  'bidi override': '\u202e',
  'bidi isolate': '\u2066',
  'bidi mark': '\u200f',
  'zero-width space': '\u200b',
  'zero-width joiner outside an emoji': '\u200d',
  'word joiner': '\u2060',
  'byte order mark': '\ufeff',
  'soft hyphen': '\u00ad',
  'line separator': '\u2028',
  'paragraph separator': '\u2029',
  'tag character': '\u{E0041}',
  'lone surrogate': '\ud83d',
  'next line (C1 control)': '\u0085',
} as const;
