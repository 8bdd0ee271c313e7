import { cpus, platform, release } from 'node:os';

export interface Row {
  metric: string;
  hostops: string;
  reference: string;
  ratio: string;
  target: string;
  /** null: reported only, no target. */
  met: boolean | null;
}

export interface MetricResult {
  rows: Row[];
  /** Markdown bullet lines with the full figures behind the rows. */
  details: string[];
}

export interface Metric {
  name: string;
  title: string;
  run(): Promise<MetricResult>;
}

/** A row whose target is `hostops ≤ limit × reference`. */
export function ratioRow(
  metric: string,
  hostops: number,
  reference: number,
  limit: number,
  format: (v: number) => string,
  referenceName: string,
): Row {
  const ratio = hostops / reference;
  return {
    metric,
    hostops: format(hostops),
    reference: `${format(reference)} (${referenceName})`,
    ratio: Number.isFinite(ratio) ? `${ratio.toFixed(2)}×` : 'n/a',
    target: `≤ ${limit}× ${referenceName}`,
    met: Number.isFinite(ratio) ? ratio <= limit : false,
  };
}

export function errorRow(metric: string, error: unknown): Row {
  const message = error instanceof Error ? error.message : String(error);
  return {
    metric,
    hostops: 'error',
    reference: '',
    ratio: '',
    target: message.replace(/\s+/g, ' ').slice(0, 200),
    met: false,
  };
}

const HEADERS = ['Metric', 'HostOps', 'Reference', 'Ratio', 'Target', 'Met'] as const;

function cells(row: Row): string[] {
  return [
    row.metric,
    row.hostops,
    row.reference,
    row.ratio,
    row.target,
    row.met === null ? '—' : row.met ? 'yes' : 'NO',
  ];
}

export function textTable(rows: readonly Row[]): string {
  const all = [HEADERS.slice(), ...rows.map(cells)];
  const widths = HEADERS.map((_, c) => Math.max(...all.map((r) => [...(r[c] ?? '')].length)));
  const line = (r: string[]) => r.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join(' │ ');
  const rule = widths.map((w) => '─'.repeat(w)).join('─┼─');
  return [line(all[0] ?? []), rule, ...all.slice(1).map(line)].join('\n');
}

export function markdownTable(rows: readonly Row[]): string {
  const escapePipes = (s: string) => s.replaceAll('|', '\\|');
  return [
    `| ${HEADERS.join(' | ')} |`,
    `|${HEADERS.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${cells(row).map(escapePipes).join(' | ')} |`),
  ].join('\n');
}

export function machine(): string {
  const cpu = cpus();
  return `Node ${process.version} · ${cpu.length} CPUs (${cpu[0]?.model.trim() ?? 'unknown'}) · ${platform()} ${release()}`;
}
