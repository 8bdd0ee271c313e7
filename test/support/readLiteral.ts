/**
 * How Discord's markdown reads an inline code span (simple-markdown's inlineCode rule): a fence of n
 * backticks up to the next run of exactly n, and one space dropped next to a backtick at either end.
 */
export function readLiteral(markdown: string): string {
  const match = /^(`+)([\s\S]*?[^`])\1(?!`)$/.exec(markdown);
  if (!match) throw new Error(`not one code span: ${markdown}`);
  return (match[2] ?? '').replace(/^ (?= *`)|(` *) $/g, '$1');
}
