import { TurnBudget } from '../TurnBudget.js';
import type { WatchExpiries } from '../watch/DomainWatch.js';
import { daysBetween } from '../watch/daysBetween.js';

/** Sample lines per piece of text handed to the response (≈ 80 KB). */
const LINES_PER_CHUNK = 1_000;

interface ExpiryGauge {
  name: string;
  help: string;
  value(expiries: WatchExpiries, index: number): number;
}

/** The expiry instant, in base units as Prometheus wants; rules compute days as `(… - time()) / 86400`. */
const TIMESTAMP: ExpiryGauge = {
  name: 'hostops_watch_domain_expiry_timestamp_seconds',
  help: 'When a watched domain expires (Unix time): the start of its expiry date, as last checked, in HOSTING_API_TIMEZONE',
  value: (expiries, index) => (expiries.expiresAt[index] ?? Number.NaN) / 1000,
};

/** Kept for one release for the rules written against it; promtool flags its unit. */
const DAYS: ExpiryGauge = {
  name: 'hostops_watch_domain_expiry_days',
  help: 'Deprecated, removed in the next release: use hostops_watch_domain_expiry_timestamp_seconds. Days until a watched domain expires (negative: expired), from its expiry date as last checked',
  value: (expiries, index) => daysBetween(expiries.today, expiries.expiresAt[index] ?? Number.NaN),
};

const NONE: WatchExpiries = { today: 0, domains: [], expiresAt: [] };

/**
 * The watch's per-domain gauges in Prometheus' text format, a piece at a time, giving the event loop back
 * after every millisecond or so of rendering (TurnBudget): 100,000 domains make 200,000 lines, far too many
 * for one turn of the event loop (prom-client renders a metric in one). Without `expiries` (the store
 * could not be read) the gauges are there with no samples: nothing rather than stale values.
 */
export async function* expiryGauges(expiries: WatchExpiries = NONE): AsyncGenerator<string> {
  const budget = new TurnBudget();
  const { domains } = expiries;
  for (const gauge of [TIMESTAMP, DAYS]) {
    let chunk = `\n# HELP ${gauge.name} ${gauge.help}\n# TYPE ${gauge.name} gauge\n`;
    const prefix = `${gauge.name}{domain="`;
    for (let index = 0; index < domains.length; index++) {
      chunk += `${prefix}${escapeLabelValue(domains[index] ?? '')}"} ${gauge.value(expiries, index)}\n`;
      if ((index + 1) % LINES_PER_CHUNK === 0) {
        yield chunk;
        chunk = '';
      }
      if (budget.spent()) await budget.giveBack();
    }
    if (chunk !== '') yield chunk;
  }
}

/** Label values escape backslash, double quote and line feed (the text format's only three). */
function escapeLabelValue(value: string): string {
  return /[\\"\n]/.test(value) ? value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`)) : value;
}
