/** Nearest-rank percentile: the smallest sample with at least p % of the samples at or below it. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] ?? Number.NaN;
}

export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}

export interface Summary {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

export function summarize(samples: readonly number[]): Summary {
  return {
    n: samples.length,
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    // A loop, not Math.max(...samples): a spread of a few hundred thousand samples overflows the stack.
    max: samples.reduce(
      (most, value) => (value > most ? value : most),
      samples.length === 0 ? Number.NaN : -Infinity,
    ),
  };
}

export function ms(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  if (value >= 1000) return `${(value / 1000).toFixed(2)} s`;
  if (value >= 100) return `${value.toFixed(0)} ms`;
  return `${value.toFixed(1)} ms`;
}

export function fmtSummary(s: Summary): string {
  return `p50 ${ms(s.p50)} · p99 ${ms(s.p99)} · max ${ms(s.max)} (n=${s.n})`;
}

export function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The same figure as mb() (which counts 1,048,576 bytes to the MB), named for a limit set in MiB. */
export function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
