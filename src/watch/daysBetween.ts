const DAY_MS = 86_400_000;

/**
 * Whole days from `today` to `expiresAt`, both the start of a calendar day in the API's zone (ms since the
 * epoch); negative once expired. Plain arithmetic, cheap enough for every domain of a scrape: a day with a
 * DST change is 23 or 25 hours long, which the rounding absorbs.
 */
export function daysBetween(today: number, expiresAt: number): number {
  // `+ 0` turns a -0 into 0.
  return Math.round((expiresAt - today) / DAY_MS) + 0;
}
