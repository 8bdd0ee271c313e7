import type { WatchedDomain } from '../store/index.js';
import type { TurnBudget } from '../TurnBudget.js';

/** Watched domains read per store query for what is computed from the whole list: ≈ 1 ms of SQLite each. */
const WATCH_PAGE = 500;
/**
 * What is computed from the whole watch list reads it through this: a page at a time, and only when the
 * store's change stamp says the data changed since (`OncePerChange`).
 */
export interface WatchData {
  changeStamp(): Promise<string>;
  page(after: string | undefined, limit: number): Promise<WatchedDomain[]>;
  /** The start of a stored expiry date (`YYYY-MM-DD`) in the API's zone, in ms since the epoch. */
  expiryInstant(expiryDate: string): number;
  count(): Promise<number>;
}

/** Every watched domain, a page at a time, giving the event loop back between pages. */
export async function* watchPages(
  watch: Pick<WatchData, 'page'>,
  budget: TurnBudget,
): AsyncGenerator<WatchedDomain[]> {
  let after: string | undefined;
  for (;;) {
    const page = await watch.page(after, WATCH_PAGE);
    if (page.length > 0) yield page;
    after = page.at(-1)?.domain;
    if (page.length < WATCH_PAGE || after === undefined) return;
    await budget.giveBack();
  }
}
