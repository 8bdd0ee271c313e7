import { message } from '../i18n/Translator.js';
import { CommandLineError } from './CommandLineError.js';

export interface Token {
  text: string;
  /** Started with a quote: never read as `name:value`. */
  quoted: boolean;
  /** Where it stands in the line as typed, quotes included: `line.slice(start, end)`. */
  start: number;
  end: number;
}

/**
 * Splits a line into words: whitespace separates, single or double quotes group words (also in the
 * middle of a word: `domains:"a.com b.com"`), and a backslash inside double quotes escapes `"` or `\`.
 * An unclosed quote is an error, unless `lenient` (the history): then it runs to the end of the line.
 */
export function tokenize(line: string, lenient = false): Token[] {
  const tokens: Token[] = [];
  let current = '';
  let started = -1;
  let quoted = false;
  let quote: '"' | "'" | null = null;
  const push = (end: number) => {
    if (started >= 0) tokens.push({ text: current, quoted, start: started, end });
    current = '';
    started = -1;
    quoted = false;
  };
  for (let index = 0; index < line.length; index++) {
    const char = line.charAt(index);
    if (quote) {
      if (char === quote) quote = null;
      else if (char === '\\' && quote === '"' && /["\\]/.test(line.charAt(index + 1))) {
        current += line.charAt(index + 1);
        index++;
      } else current += char;
      continue;
    }
    if (char === '"' || char === "'") {
      if (started < 0) {
        quoted = true;
        started = index;
      }
      quote = char;
      continue;
    }
    if (/\s/.test(char)) {
      push(index);
      continue;
    }
    current += char;
    if (started < 0) started = index;
  }
  if (quote && !lenient) {
    throw new CommandLineError(
      message(quote === '"' ? 'console.line.unclosed_double' : 'console.line.unclosed_single'),
    );
  }
  push(line.length);
  return tokens;
}

const OPTION_NAME = /^([\p{Ll}\p{Lo}\p{N}_-]{1,32}):(.*)$/su;

/** `name:value` as typed (`typed` lower-cased), or undefined for a plain value (or a quoted one). */
export function nameAndValue(token: Token): { typed: string; raw: string; value: string } | undefined {
  const found = token.quoted ? null : OPTION_NAME.exec(token.text);
  if (!found) return undefined;
  const [, raw = '', value = ''] = found;
  return { typed: raw.toLowerCase(), raw, value };
}
