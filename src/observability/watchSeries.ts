import type { WatchedDomain } from '../store/index.js';
import { TurnBudget } from '../TurnBudget.js';
import { type WatchData, watchPages } from '../watch/watchPages.js';

// The watch's per-domain series, in Prometheus' text format. They change only when the watch data does,
// so they are rendered once per change (Metrics keeps them with OncePerChange), from one read of the list a
// page at a time, in turns of about a millisecond (TurnBudget): 100,000 failing domains make 200,000
// lines, far too many for one turn of the event loop (prom-client renders a metric in one).

/** One per-domain metric family: its samples for one watched domain (none when it has none). */
export interface WatchSeries {
  name: string;
  help: string;
  /** Each sample's labels after `domain` (already in text form: `,flag="expired"`, or '') and value. */
  samples(row: WatchedDomain, watch: Pick<WatchData, 'expiryInstant'>): Iterable<readonly [string, number]>;
}

/** The expiry instant, in base units as Prometheus wants; rules compute days as `(… - time()) / 86400`. */
const EXPIRY_TIMESTAMP: WatchSeries = {
  name: 'hostops_watch_domain_expiry_timestamp_seconds',
  help: 'When a watched domain expires (Unix time): the start of its expiry date, as last checked, in HOSTING_API_TIMEZONE',
  *samples(row, watch) {
    if (row.expiryDate !== null) yield ['', watch.expiryInstant(row.expiryDate) / 1000];
  },
};

const FLAG: WatchSeries = {
  name: 'hostops_watch_domain_flag',
  help: 'A watched domain that needs attention, by what the last check saw: 1 per domain and flag set',
  *samples(row) {
    if (row.status === 'not_found') yield [',flag="not_found"', 1];
    if (row.active === false) yield [',flag="inactive"', 1];
    if (row.expired === true) yield [',flag="expired"', 1];
    if (row.transferredAway === true) yield [',flag="transferred_away"', 1];
  },
};

const FAILURES: WatchSeries = {
  name: 'hostops_watch_domain_failures',
  help: 'Failed checks in a row of a watched domain (only domains with at least one)',
  *samples(row) {
    if (row.failures > 0) yield ['', row.failures];
  },
};

/** Every per-domain family, in the order a scrape shows them: a new series is one more entry here. */
export const WATCH_SERIES: readonly WatchSeries[] = [EXPIRY_TIMESTAMP, FLAG, FAILURES];

/** Text per piece kept (≈ 64 KB): the response writes pieces as the scraper reads them. */
const PIECE_CHARS = 64 * 1024;

const header = (series: WatchSeries) => `# HELP ${series.name} ${series.help}\n# TYPE ${series.name} gauge\n`;

/**
 * The families without samples: what a scrape shows when the store cannot be read (nothing rather than
 * stale values: an alert on old data is worse).
 */
export function emptyWatchSeries(series: readonly WatchSeries[] = WATCH_SERIES): Buffer[] {
  return [Buffer.from(series.map(header).join(''))];
}

/** Every family with its samples for the whole watch list, in pieces, rendered in turns. */
export async function renderWatchSeries(
  watch: Pick<WatchData, 'page' | 'expiryInstant'>,
  budget = new TurnBudget(),
  series: readonly WatchSeries[] = WATCH_SERIES,
): Promise<Buffer[]> {
  // One read of the list for all families; each family's lines kept apart (a family's lines are contiguous).
  const families = series.map((one) => ({ one, pieces: [] as Buffer[], text: header(one) }));
  for await (const page of watchPages(watch, budget)) {
    for (const row of page) {
      const domain = `{domain="${escapeLabelValue(row.domain)}"`;
      for (const family of families) {
        for (const [labels, value] of family.one.samples(row, watch)) {
          family.text += `${family.one.name}${domain}${labels}} ${value}\n`;
        }
        if (family.text.length >= PIECE_CHARS) {
          family.pieces.push(Buffer.from(family.text));
          family.text = '';
        }
      }
      if (budget.spent()) await budget.giveBack();
    }
  }
  return families.flatMap((family) =>
    family.text === '' ? family.pieces : [...family.pieces, Buffer.from(family.text)],
  );
}

/** Label values escape backslash, double quote and line feed (the text format's only three). */
function escapeLabelValue(value: string): string {
  return /[\\"\n]/.test(value) ? value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`)) : value;
}
