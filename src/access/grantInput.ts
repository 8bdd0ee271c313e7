import { message } from '../i18n/Translator.js';
import { InvalidValueError } from '../validation/InvalidValueError.js';
import { quoteInput } from '../validation/quote.js';
import { isGrantTier } from './Grant.js';
import { parsePattern } from './patterns.js';

// What a grant is for and on, as /access grant, /access request and an imported file give it: one reading
// for all three, so a file is checked exactly as the options are.

/** Comma-separated command paths or tiers: `domain dns, server rdns` or `operator`. */
export function parseWhat(raw: string, paths: readonly string[]): string[] {
  const items = raw
    .split(',')
    .map((item) => item.trim().replace(/^\//, '').replace(/\s+/g, ' ').toLowerCase())
    .filter((item) => item !== '');
  if (items.length === 0) {
    throw new InvalidValueError(message('access.what.empty'), message('access.what.expected'));
  }
  for (const item of items) {
    if (!isGrantTier(item) && !paths.includes(item)) {
      throw new InvalidValueError(
        message('access.what.unknown', { input: quoteInput(item) }),
        message('access.what.expected'),
      );
    }
  }
  return [...new Set(items)];
}

/** Patterns separated by spaces or commas, each checked (patterns.ts), kept in canonical form. */
export function parsePatterns(raw: string): string[] {
  const items = raw.split(/[\s,]+/).filter((item) => item !== '');
  if (items.length === 0)
    throw new InvalidValueError(message('access.pattern.empty'), message('access.pattern.expected'));
  return [...new Set(items.map((item) => parsePattern(item).text))];
}
