/**
 * A value shown exactly as it is sent: an inline code span (no markdown, mentions or emoji codes are
 * rendered inside it) whose fence is one backtick longer than the longest run of backticks in the
 * value, so a backtick shows as itself instead of closing the span or being swapped for a look-alike.
 * A backtick at either end is kept apart from the fence by one space, which Discord's markdown strips
 * again (it strips a space only next to a backtick).
 * Only for one-line values that passed validation: HostOps refuses the invisible characters that
 * would make a span show something else.
 */
export function literal(value: string): string {
  const longestRun = Math.max(0, ...Array.from(value.matchAll(/`+/g), (match) => match[0].length));
  const fence = '`'.repeat(longestRun + 1);
  const before = value.startsWith('`') ? ' ' : '';
  const after = value.endsWith('`') ? ' ' : '';
  return `${fence}${before}${value}${after}${fence}`;
}
