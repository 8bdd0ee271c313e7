import { escapeMarkdown } from 'discord.js';
import { cutText } from '../text/cutText.js';

export interface EscapeUserTextOptions {
  /** Keep line breaks (normalised to `\n`); by default every line break collapses to one space. */
  keepNewlines?: boolean;
}

const ELLIPSIS = '…';
const ZWSP = '\u200b';

// Control characters (tab and line breaks kept; the latter are handled below), and the bidi
// overrides/isolates that can make echoed text display in an order other than the one typed.
const CONTROL_CHARS = /(?![\t\n\r\u0085])[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu;
const LINE_BREAK = /\r\n?|[\n\u2028\u2029\u0085]/;

/** Everything escapeMarkdown knows, except backticks: those are escaped below, every single one. */
const MARKDOWN_OPTIONS = {
  heading: true,
  bulletedList: true,
  numberedList: true,
  maskedLink: true,
  codeBlock: false,
  inlineCode: false,
} as const;

/** Drops control characters; line breaks become `\n`, or one space with the blanks around them. */
function clean(text: string, keepNewlines: boolean): string {
  const lines = text.replace(CONTROL_CHARS, '').split(LINE_BREAK);
  if (keepNewlines) return lines.join('\n');
  // trimStart/trimEnd per line rather than one `\s*…\s*` regex, which is quadratic on long blank runs.
  return lines
    .map((line, index) => {
      const start = index === 0 ? line : line.trimStart();
      return index === lines.length - 1 ? start : start.trimEnd();
    })
    .filter((line, index) => line !== '' || index === 0 || index === lines.length - 1)
    .join(' ');
}

// Links (escapes would show in them, and Discord parses no markdown there) and custom emoji.
const PROTECTED = /https?:\/\/\S*|<a?:\w+:\d+>/g;
const EVERYWHERE = new Set(['`']);
const OUTSIDE_LINKS = new Set(['`', '*', '_', '~', '|']);

/** Backslash-escapes every listed character not escaped yet (`\\` pairs are literal backslashes). */
function escapeBare(segment: string, chars: ReadonlySet<string>): string {
  let out = '';
  for (let index = 0; index < segment.length; index++) {
    const char = segment.charAt(index);
    if (char === '\\') {
      out += segment.slice(index, index + 2);
      index++;
    } else {
      out += chars.has(char) ? `\\${char}` : char;
    }
  }
  return out;
}

/**
 * escapeMarkdown escapes pairs, not every character (of `____` the last `_` stays bare); this finishes
 * the job. Every backtick is escaped, in links too: an escaped backtick never forms a fence, so the
 * text cannot open or close a code block.
 */
function escapeRemaining(text: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(PROTECTED)) {
    out += escapeBare(text.slice(last, match.index), OUTSIDE_LINKS) + escapeBare(match[0], EVERYWHERE);
    last = match.index + match[0].length;
  }
  return out + escapeBare(text.slice(last), OUTSIDE_LINKS);
}

function escapeClean(text: string): string {
  return (
    escapeRemaining(escapeMarkdown(text, MARKDOWN_OPTIONS))
      // Block quotes and subtext, which escapeMarkdown leaves alone.
      .replace(/^(\s*)(>|-#)/gm, '$1\\$2')
      // Mentions: `@everyone`, `@here`, `<@123>`, `<@!123>`, `<@&123>`, `<#123>`, `</command:123>`.
      .replace(/@(everyone|here)/gi, `@${ZWSP}$1`)
      .replace(/<(?=[@#]|\/[^<>]*:\d+>)/g, `<${ZWSP}`)
  );
}

/**
 * Makes anything a user typed safe to echo in a message or embed: markdown (backticks included)
 * escaped, mentions made inert with a zero-width space, control characters dropped, line breaks
 * collapsed to spaces unless asked for, and the result (escapes included) at most `maxLength` UTF-16
 * units, cut with cutText (whole graphemes) and marked with `…`.
 */
export function escapeUserText(text: string, maxLength = 200, options: EscapeUserTextOptions = {}): string {
  if (maxLength <= 0) return '';
  const cleaned = clean(text, options.keepNewlines ?? false);
  if (cleaned.length <= maxLength) {
    const full = escapeClean(cleaned);
    if (full.length <= maxLength) return full;
  }
  // Cut the cleaned text (not the escaped one, so no escape sequence is split) and find, by bisection,
  // the longest prefix whose escaped form plus the ellipsis still fits. Escaping never shortens text,
  // so only a head of at most maxLength units is ever escaped: cheap even on a pasted novel.
  const build = (keep: number) => `${escapeClean(cutText(cleaned, keep, '').trimEnd())}${ELLIPSIS}`;
  let low = 0;
  let high = Math.min(cleaned.length, maxLength);
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (build(middle).length <= maxLength) low = middle;
    else high = middle - 1;
  }
  const result = build(low);
  return result.length <= maxLength ? result : ELLIPSIS;
}
