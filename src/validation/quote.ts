/** Longest part of a user's input echoed back in an error message; chat messages must stay short. */
export const MAX_ECHO_LENGTH = 60;

/** Cuts text to `max` code points (never splitting a surrogate pair), marking the cut with `…`. */
export function truncateText(value: string, max = MAX_ECHO_LENGTH): string {
  if (value.length <= max) return value;
  const codePoints = [...value];
  return codePoints.length <= max ? value : `${codePoints.slice(0, max).join('')}…`;
}

/**
 * Quotes user input for an error message: JSON-style, so control characters and quotes are escaped and
 * cannot break the message, and cut to `max` code points so a pasted novel is not echoed back.
 */
export function quoteInput(value: string, max = MAX_ECHO_LENGTH): string {
  return JSON.stringify(truncateText(value, max));
}

/** Names one character for an error message; invisible ones by code point, e.g. `U+00A0`. */
export function quoteChar(char: string): string {
  if (char === ' ') return 'a space';
  if (/^[\p{L}\p{N}\p{P}\p{S}]$/u.test(char)) return JSON.stringify(char);
  const codePoint = char.codePointAt(0) ?? 0;
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}
