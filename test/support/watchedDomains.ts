import type { WatchedDomain } from '../../src/store/index.js';

const DAY_MS = 86_400_000;

/**
 * A watch list of `count` domains as past runs left them, for `Store.importRows`: expiry dates from 5 days
 * past to ten years ahead, spread by a stride so a page of names meets many distinct dates (≈ 3,650 in
 * all); one in 997 never checked (no expiry known).
 */
export function watchedDomains(count: number, nameOf: (n: number) => string): WatchedDomain[] {
  const now = Date.now();
  const today = new Date(now).toISOString().slice(0, 10);
  return Array.from({ length: count }, (_, n) => {
    const domain = nameOf(n);
    const unchecked = n % 997 === 996;
    const expiryDate = unchecked
      ? null
      : new Date(now + (((n * 7_919) % 3_650) - 5) * DAY_MS).toISOString().slice(0, 10);
    return {
      domain,
      unicode: domain,
      addedById: '100000000000000001',
      addedAt: new Date(now - DAY_MS),
      checkedAt: expiryDate === null ? null : new Date(now - 3_600_000),
      status: expiryDate === null ? 'new' : 'ok',
      failures: 0,
      expiryDate,
      active: expiryDate === null ? null : true,
      expired: expiryDate === null ? null : expiryDate < today,
      transferredAway: expiryDate === null ? null : false,
    };
  });
}
