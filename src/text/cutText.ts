const ELLIPSIS = '…';
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * The one way HostOps shortens text: at most `max` UTF-16 units in all (the unit Discord's and
 * JavaScript's lengths count), cut on a grapheme boundary so no emoji, flag or accented letter is
 * split (a lone surrogate makes Discord reject the whole payload), and the cut marked with `marker`.
 * Text that fits is returned unchanged.
 */
export function cutText(text: string, max: number, marker = ELLIPSIS): string {
  if (text.length <= max) return text;
  const budget = max - marker.length;
  if (budget < 0) return '';
  let kept = 0;
  // Segmenting is linear in the input, so only a head is segmented. A boundary depends on what comes
  // before it and on the one code point after it, so every boundary up to `budget` is right as long as
  // the head reaches a whole code point beyond it: hence the two extra units.
  for (const { segment, index } of graphemes.segment(text.slice(0, budget + 2))) {
    if (index + segment.length > budget) break;
    kept = index + segment.length;
  }
  return text.slice(0, kept) + marker;
}
