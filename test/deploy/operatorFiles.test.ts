// The alert rules and the dashboard in deploy/ against what the built bot really exports: every metric
// and label a rule or panel asks for is in a scrape taken after commands and a watch run through the
// fakes, every expression parses as PromQL (Prometheus' own grammar, @prometheus-io/lezer-promql), and —
// where promtool is installed — the scrape passes `promtool check metrics` for HostOps' own metrics and
// the rules pass their unit tests (deploy/prometheus/hostops.rules.test.yml).
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parser } from '@prometheus-io/lezer-promql';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { publicAnswer } from '../support/e2eHelpers.js';
import { bootstrapFile, domainObject, FakeRdapServer } from '../support/FakeRdapServer.js';
import { freePort } from '../support/spawnBot.js';
import { startTestBot, type TestBot } from '../support/startTestBot.js';

const ROOT = join(import.meta.dirname, '..', '..');
const RULES = join(ROOT, 'deploy', 'prometheus', 'hostops.rules.yml');
const RULE_TESTS = join(ROOT, 'deploy', 'prometheus', 'hostops.rules.test.yml');
const DASHBOARD = join(ROOT, 'deploy', 'grafana', 'hostops.json');
const WATCH_CHANNEL = '300000000000000081';
// Labels Prometheus adds to every scraped series, and the bucket label of histograms.
const TARGET_LABELS = new Set(['job', 'instance']);
// Metrics that are not HostOps' own: Prometheus' target health.
const PROMETHEUS_METRICS = new Set(['up']);

const promtool = spawnSync('promtool', ['--version']).status === 0;

interface Rule {
  alert: string;
  expr: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

function rules(): Rule[] {
  const file = parseYaml(readFileSync(RULES, 'utf8')) as { groups: { rules: Rule[] }[] };
  return file.groups.flatMap((group) => group.rules);
}

/** Every PromQL expression of the dashboard, Grafana's variables replaced by what they stand for. */
function dashboardQueries(): { panel: string; expr: string }[] {
  type Panel = { title: string; targets?: { expr: string }[]; panels?: Panel[] };
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
    panels: Panel[];
    templating: { list: { name: string; query?: unknown; definition?: string }[] };
  };
  const panels = dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]);
  const queries = panels.flatMap((panel) =>
    (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: target.expr })),
  );
  for (const variable of dashboard.templating.list) {
    // label_values(<selector>, label): the selector is PromQL too.
    const selector = /^label_values\((.+),\s*(\w+)\)$/.exec(variable.definition ?? '');
    if (selector?.[1]) queries.push({ panel: `variable ${variable.name}`, expr: selector[1] });
  }
  return queries.map(({ panel, expr }) => ({
    panel,
    expr: expr
      .replaceAll('$__rate_interval', '5m')
      .replaceAll('$__range', '1h')
      .replaceAll('$instance', '.*'),
  }));
}

/** The metrics an expression selects and the label names it uses (matchers, by/without, on/ignoring). */
function used(expr: string): { metrics: Set<string>; labels: Set<string>; errors: string[] } {
  const metrics = new Set<string>();
  const labels = new Set<string>();
  const errors: string[] = [];
  parser.parse(expr).iterate({
    enter(node) {
      const text = expr.slice(node.from, node.to);
      if (node.type.isError)
        errors.push(`at ${node.from}: ${JSON.stringify(expr.slice(node.from, node.from + 20))}`);
      else if (node.type.name === 'Identifier' && node.node.parent?.type.name === 'VectorSelector')
        metrics.add(text);
      else if (node.type.name === 'LabelName') labels.add(text);
    },
  });
  return { metrics, labels, errors };
}

/** Metric name → its label names, from Prometheus text exposition (histograms as _bucket/_sum/_count). */
function exported(scrape: string): Map<string, Set<string>> {
  const series = new Map<string, Set<string>>();
  for (const line of scrape.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? /.exec(line);
    if (!match?.[1]) continue;
    const names = series.get(match[1]) ?? new Set<string>();
    for (const label of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="/g)) names.add(label[1] ?? '');
    series.set(match[1], names);
  }
  return series;
}

let t: TestBot;
let scrape: string;
let registry: FakeRdapServer;

beforeAll(async () => {
  const port = await freePort();
  // A registry (RDAP, plain http: its bootstrap URL is http) that disagrees with the provider about
  // soon.example, so the registry's series are in the scrape as the rules read them.
  registry = await FakeRdapServer.start();
  registry.responder = (path) =>
    path === '/dns.json' ? { body: bootstrapFile([[['example'], [registry.base]]]) } : undefined;
  registry.domains.set('soon.example', {
    body: domainObject('soon.example', { expires: '2040-01-01T00:00:00Z', status: ['pending transfer'] }),
  });
  t = await startTestBot({
    RDAP_CHECK: 'on',
    RDAP_BOOTSTRAP_URL: `${registry.origin}/dns.json`,
    RDAP_MIN_INTERVAL_MS: '0',
    WATCH_CHANNEL_ID: WATCH_CHANNEL,
    WATCH_SCHEDULE: '0 8 * * *',
    HTTP_PORT: String(port),
    HTTP_HOST: '127.0.0.1',
    APPROVAL_REQUIRED: 'domain register',
  });
  t.discord.addChannel({ id: WATCH_CHANNEL });
  const inDays = (days: number) => DateTime.now().setZone('Europe/Berlin').plus({ days }).toISODate();
  t.api.respond('domainInfo', (request) => {
    switch (request.param) {
      case 'soon.example':
        return {
          body: { expirydate: inDays(5), active: 'true', expired: 'false', transferredAway: 'false' },
        };
      case 'moved.example':
        return {
          body: { expirydate: inDays(90), active: 'false', expired: 'false', transferredAway: 'true' },
        };
      case 'broken.example':
        return { status: 500, body: { error: 'internal error' } };
      default:
        return { status: 404, body: { error: 'domain not found' } };
    }
  });
  // Commands that answer, and one the provider fails: the command, ack and API series all get samples.
  for (const domain of ['soon.example', 'broken.example']) {
    await publicAnswer(t, t.command({ commandName: 'domain', subcommand: 'info', options: { domain } }));
  }
  await t.bot.watch?.add(
    ['soon.example', 'moved.example', 'broken.example', 'gone.example'].map((domain) => ({
      domain,
      unicode: domain,
    })),
    'someone',
  );
  await t.bot.watch?.run('manual');
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(response.status).toBe(200);
  scrape = await response.text();
}, 120_000);
afterAll(async () => {
  await t?.stop();
  await registry?.stop();
});

describe('deploy/prometheus/hostops.rules.yml', () => {
  it('asks only for metrics and labels the bot exports, in expressions that parse', () => {
    const metrics = exported(scrape);
    const found = rules();
    expect(found.length).toBeGreaterThanOrEqual(12);
    for (const rule of found) {
      const { metrics: names, labels, errors } = used(rule.expr);
      expect(errors, `${rule.alert}: ${rule.expr}`).toEqual([]);
      const available = new Set([...TARGET_LABELS, 'le']);
      for (const name of names) {
        if (PROMETHEUS_METRICS.has(name)) continue;
        expect(metrics.has(name), `${rule.alert} uses ${name}, which the bot does not export`).toBe(true);
        for (const label of metrics.get(name) ?? []) available.add(label);
      }
      for (const label of labels) {
        expect(
          available.has(label),
          `${rule.alert} uses the label ${label}, which none of its metrics has`,
        ).toBe(true);
      }
      // $labels in the annotations must be labels the alert carries.
      const annotations = Object.values(rule.annotations ?? {}).join(' ');
      for (const [, label] of annotations.matchAll(/\$labels\.(\w+)/g)) {
        expect(available.has(label ?? ''), `${rule.alert} annotates with $labels.${label}`).toBe(true);
      }
    }
  });

  it('routes every alert by severity, says what to do, and reads expiry from the instant, not the days gauge', () => {
    for (const rule of rules()) {
      expect(['warning', 'critical'], rule.alert).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary, rule.alert).toBeTruthy();
      expect((rule.annotations?.description ?? '').length, rule.alert).toBeGreaterThan(60);
      expect(rule.expr, rule.alert).not.toContain('hostops_watch_domain_expiry_days');
    }
    const expiry = rules().filter((rule) => rule.alert.startsWith('HostOpsDomainExpir'));
    expect(expiry.map((rule) => rule.labels?.severity).sort()).toEqual(['critical', 'warning']);
    for (const rule of expiry) expect(rule.expr).toContain('hostops_watch_domain_expiry_timestamp_seconds');
  });

  it.skipIf(!promtool)(
    'passes promtool check rules and its unit tests (a series across each threshold)',
    () => {
      execFileSync('promtool', ['check', 'rules', RULES], { stdio: 'pipe' });
      const result = spawnSync('promtool', ['test', 'rules', RULE_TESTS], { encoding: 'utf8' });
      expect(result.status, result.stdout + result.stderr).toBe(0);
    },
  );
});

describe('deploy/grafana/hostops.json', () => {
  it('queries only metrics and labels the bot exports, in expressions that parse', () => {
    const metrics = exported(scrape);
    const queries = dashboardQueries();
    expect(queries.length).toBeGreaterThanOrEqual(15);
    for (const { panel, expr } of queries) {
      const { metrics: names, labels, errors } = used(expr);
      expect(errors, `${panel}: ${expr}`).toEqual([]);
      const available = new Set([...TARGET_LABELS, 'le']);
      for (const name of names) {
        expect(metrics.has(name), `"${panel}" uses ${name}, which the bot does not export`).toBe(true);
        for (const label of metrics.get(name) ?? []) available.add(label);
      }
      for (const label of labels) {
        expect(available.has(label), `"${panel}" uses the label ${label}`).toBe(true);
      }
    }
  });
});

describe('the scrape', () => {
  it('exports the watch as the rules read it: expiry instants, flags and failures per domain', () => {
    const metrics = exported(scrape);
    for (const name of [
      'hostops_watch_domain_expiry_timestamp_seconds',
      'hostops_watch_domain_flag',
      'hostops_watch_domain_failures',
      'hostops_watch_last_run_timestamp_seconds',
      'hostops_watch_schedule_interval_seconds',
      'hostops_watch_lead_time_seconds',
      'hostops_approvals_waiting_past_half_timeout',
      'hostops_replicas_alive',
      'hostops_ready',
    ]) {
      expect(metrics.has(name), name).toBe(true);
    }
    expect(scrape).toMatch(
      /^hostops_watch_domain_flag\{domain="moved\.example",flag="transferred_away"\} 1$/m,
    );
    expect(scrape).toMatch(/^hostops_watch_domain_flag\{domain="moved\.example",flag="inactive"\} 1$/m);
    expect(scrape).toMatch(/^hostops_watch_domain_flag\{domain="gone\.example",flag="not_found"\} 1$/m);
    expect(scrape).toMatch(/^hostops_watch_domain_failures\{domain="broken\.example"\} 1$/m);
    // The provider's flags; the registry's (registry_…) are the next test's.
    expect(scrape).not.toMatch(/^hostops_watch_domain_flag\{domain="soon\.example",flag="(?!registry_)/m);
    expect(scrape).toMatch(/^hostops_watch_schedule_interval_seconds 86400$/m);
    expect(scrape).toMatch(/^hostops_watch_lead_time_seconds 2592000$/m);
  });

  it('exports the registry as the rules read it: its expiry, its findings as flags, its requests', () => {
    expect(scrape).toMatch(
      /^hostops_watch_domain_registry_expiry_timestamp_seconds\{domain="soon\.example"\} 2208988800$/m,
    );
    expect(scrape).toMatch(
      /^hostops_watch_domain_flag\{domain="soon\.example",flag="registry_transfer_pending"\} 1$/m,
    );
    expect(scrape).toMatch(
      /^hostops_watch_domain_flag\{domain="soon\.example",flag="registry_expiry_differs"\} 1$/m,
    );
    expect(scrape).toMatch(/^hostops_watch_alerts_total\{kind="registry_transfer_pending"\} 1$/m);
    expect(scrape).toMatch(
      new RegExp(
        `^hostops_rdap_requests_total\\{server="${registry.origin.replaceAll('.', '\\.')}",status="200"\\} \\d+$`,
        'm',
      ),
    );
    expect(scrape).toMatch(/^hostops_rdap_request_duration_seconds_count \d+$/m);
  });

  it.skipIf(!promtool)('passes promtool check metrics for HostOps’ own metrics', () => {
    const result = spawnSync('promtool', ['check', 'metrics'], { input: scrape, encoding: 'utf8' });
    const problems = `${result.stdout}${result.stderr}`
      .split('\n')
      .filter((line) => line.startsWith('hostops_'));
    // The deprecated days gauge (promtool: unit "days" instead of "seconds") is gone: nothing to report.
    expect(problems).toEqual([]);
  });
});
