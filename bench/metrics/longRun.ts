// Issue 41: memory after hours of use, not only at idle. HostOps and bare, fresh processes as they ship (no
// --inspect), in the 5,000-member guild, take the same 10,000 interactions — reads, validation errors, bulk
// expiry checks, /domain dns prompts each confirmed, and a watch run half-way — then idle a minute; RSS and
// RssAnon then are compared with bare's after the same load, and the peaks with the container limit.
// HostOps is scraped as Prometheus would meanwhile (bare has no /metrics).
import { setTimeout as sleep } from 'node:timers/promises';
import type { DispatchedInteraction } from '../../test/support/FakeDiscord.js';
import { freePort } from '../../test/support/freePort.js';
import { type BotKind, ROLES } from '../botSetup.js';
import { waitUntil } from '../dispatch.js';
import { withBot } from '../launch.js';
import { rssAnonBytes, rssBytes } from '../procStats.js';
import type { Metric, MetricResult, Row } from '../report.js';
import type { Stage } from '../stage.js';
import { mb, median, mib } from '../stats.js';
import type { Tracker } from '../Tracker.js';
import { BIG_GUILD, CONTAINER_LIMIT, rssRow } from './memory.js';
import { scrapeOnce } from './scrape.js';

const INTERACTIONS = 10_000;
/** Unanswered operations at a time: the run goes as fast as the bot answers. */
const WINDOW = 64;
const API_MS = 10;
/** A scrape of /metrics after every SCRAPE_EVERY interactions (HostOps only). */
const SCRAPE_EVERY = 200;
const IDLE_MS = 60_000;
const LAUNCHES = 2;
const SAMPLE_MS = 50;
/** Longest any one operation may take before the run is called broken. */
const OP_TIMEOUT_MS = 30_000;
const DNS_RECORDS = 'www 3600 A 203.0.113.7\n@ MX 10 mail.example.com.\n@ TXT "v=spf1 -all"';

type Op = 'info' | 'invalid' | 'logs' | 'expiry' | 'dns';
/** One cycle of the mix; a `dns` is two interactions (the command and its Confirm). */
const CYCLE: readonly Op[] = [
  'info',
  'info',
  'info',
  'invalid',
  'logs',
  'info',
  'expiry',
  'dns',
  'info',
  'invalid',
];

interface LongRun {
  /** VmRSS / RssAnon after the idle minute (median of 3 samples 1 s apart). */
  rss: number;
  anon: number;
  /** Largest VmRSS / RssAnon sampled every SAMPLE_MS from the first interaction to the end of the idle minute. */
  peak: number;
  peakAnon: number;
  /** VmRSS 1 s after ready, before the load. */
  before: number;
  ms: number;
  scrapes: number;
  watchRun: boolean;
}

/** The one answer an interaction ends with: the reply, or the edit of a deferral. */
async function answered(tracker: Tracker, i: DispatchedInteraction): Promise<void> {
  await waitUntil(
    () => {
      tracker.scan();
      return tracker.finalAt(i) !== undefined;
    },
    OP_TIMEOUT_MS,
    `an answer to ${i.id}`,
  );
}

/** A /domain dns prompt and its Confirm, through the public record of the change (bare: its two replies). */
async function confirmedChange(stage: Stage, tracker: Tracker, n: number, kind: BotKind): Promise<void> {
  const command = stage.discord.dispatchInteraction({
    commandName: 'domain',
    subcommand: 'dns',
    options: { domain: `long-run-${n}.example.com`, records: DNS_RECORDS },
    roles: [ROLES.operator],
  });
  await answered(tracker, command);
  const prompt = stage.discord.originalMessage(command);
  const confirm = /"custom_id":"(hostops:confirm:[^"]+)"/.exec(JSON.stringify(prompt ?? {}))?.[1];
  if (kind === 'hostops' && confirm === undefined) throw new Error(`no Confirm in ${JSON.stringify(prompt)}`);
  const click = stage.discord.dispatchComponent({
    // Bare answers every interaction alike; its reply has no buttons.
    customId: confirm ?? 'bench:confirm',
    message: { id: prompt?.id ?? '0' },
    roles: [ROLES.operator],
  });
  await waitUntil(
    () => {
      tracker.scan();
      return kind === 'hostops'
        ? (tracker.followups.get(click.token)?.length ?? 0) > 0
        : tracker.ack.has(click.id);
    },
    OP_TIMEOUT_MS,
    `the change ${n} to be sent`,
  );
}

async function runOp(stage: Stage, tracker: Tracker, kind: BotKind, op: Op, n: number): Promise<void> {
  const viewer = [ROLES.viewer];
  switch (op) {
    case 'dns':
      return confirmedChange(stage, tracker, n, kind);
    case 'info':
      return answered(
        tracker,
        stage.discord.dispatchInteraction({
          commandName: 'domain',
          subcommand: 'info',
          options: { domain: `d-${n % 500}.example.com` },
          roles: viewer,
        }),
      );
    case 'invalid':
      return answered(
        tracker,
        stage.discord.dispatchInteraction({
          commandName: 'domain',
          subcommand: 'info',
          options: { domain: 'not a domain!' },
          roles: viewer,
        }),
      );
    case 'logs':
      return answered(
        tracker,
        stage.discord.dispatchInteraction({
          commandName: 'server',
          subcommand: 'logs',
          options: { id: 1 + (n % 50) },
          roles: viewer,
        }),
      );
    case 'expiry':
      return answered(
        tracker,
        stage.discord.dispatchInteraction({
          commandName: 'domain',
          subcommand: 'expiry',
          options: {
            domains: Array.from({ length: 5 }, (_, k) => `e-${(n + k) % 300}.example.com`).join(' '),
          },
          roles: viewer,
        }),
      );
  }
}

async function longRun(kind: BotKind): Promise<LongRun> {
  const metricsPort = kind === 'hostops' ? await freePort() : undefined;
  const env: Record<string, string> = metricsPort === undefined ? {} : { HTTP_PORT: String(metricsPort) };
  return withBot(kind, BIG_GUILD, { env }, async ({ stage, bot, tracker }) => {
    stage.api.latencyMs = API_MS;
    await sleep(1_000);
    const before = rssBytes(bot.pid);
    let peak = before;
    let peakAnon = rssAnonBytes(bot.pid);
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        if (!bot.exited()) {
          peak = Math.max(peak, rssBytes(bot.pid));
          peakAnon = Math.max(peakAnon, rssAnonBytes(bot.pid));
        }
        await sleep(SAMPLE_MS);
      }
    })();
    const t0 = performance.now();
    let interactions = 0;
    let ops = 0;
    let scrapes = 0;
    let nextScrape = SCRAPE_EVERY;
    let watchRun = false;
    const worker = async () => {
      while (interactions < INTERACTIONS) {
        const n = ops++;
        const op = CYCLE[n % CYCLE.length] ?? 'info';
        interactions += op === 'dns' ? 2 : 1;
        if (!watchRun && interactions >= INTERACTIONS / 2) {
          watchRun = true;
          await answered(
            tracker,
            stage.discord.dispatchInteraction({
              commandName: 'watch',
              subcommand: 'check',
              roles: [ROLES.operator],
            }),
          );
        }
        await runOp(stage, tracker, kind, op, n);
        if (metricsPort !== undefined && interactions >= nextScrape) {
          nextScrape += SCRAPE_EVERY;
          const scraped = await scrapeOnce(`http://127.0.0.1:${metricsPort}/metrics`);
          if (scraped.status !== 200) throw new Error(`GET /metrics answered ${scraped.status}`);
          scrapes++;
        }
        if (bot.exited()) throw new Error(`${kind} exited during the long run: ${bot.stderrTail()}`);
      }
    };
    try {
      await Promise.all(Array.from({ length: WINDOW }, worker));
    } finally {
      sampling = false;
      await sampler;
    }
    const ms = performance.now() - t0;
    sampling = true;
    const idleSampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, rssBytes(bot.pid));
        peakAnon = Math.max(peakAnon, rssAnonBytes(bot.pid));
        await sleep(SAMPLE_MS * 10);
      }
    })();
    await sleep(IDLE_MS);
    sampling = false;
    await idleSampler;
    const rss: number[] = [];
    const anon: number[] = [];
    for (let k = 0; k < 3; k++) {
      rss.push(rssBytes(bot.pid));
      anon.push(rssAnonBytes(bot.pid));
      await sleep(1_000);
    }
    return { rss: median(rss), anon: median(anon), peak, peakAnon, before, ms, scrapes, watchRun };
  });
}

export const longRunMemory: Metric = {
  name: 'longrun',
  title: 'Memory after a long run',
  async run(): Promise<MetricResult> {
    const runs: Record<'hostops' | 'bare', LongRun[]> = { hostops: [], bare: [] };
    for (let n = 0; n < LAUNCHES; n++) {
      for (const kind of ['hostops', 'bare'] as const) runs[kind].push(await longRun(kind));
    }
    const pick = (kind: 'hostops' | 'bare', key: 'rss' | 'anon') => median(runs[kind].map((r) => r[key]));
    const most = (kind: 'hostops' | 'bare', key: 'peak' | 'peakAnon') =>
      Math.max(...runs[kind].map((r) => r[key]));
    const each = (kind: 'hostops' | 'bare') =>
      runs[kind]
        .map(
          (r) =>
            `RSS ${mb(r.rss)}, RssAnon ${mb(r.anon)} (before ${mb(r.before)}; peaks ${mib(r.peak)}, RssAnon ${mib(r.peakAnon)}; load ${(r.ms / 1000).toFixed(1)} s${kind === 'hostops' ? `, ${r.scrapes} scrapes` : ''})`,
        )
        .join('; ');
    const label = `${INTERACTIONS.toLocaleString('en')} mixed interactions and a minute idle`;
    const rows: Row[] = [
      rssRow(`RSS after ${label} (median of ${LAUNCHES})`, pick('hostops', 'rss'), pick('bare', 'rss')),
      rssRow(`RssAnon after ${label} (median of ${LAUNCHES})`, pick('hostops', 'anon'), pick('bare', 'anon')),
      {
        metric: `Peak RSS / RssAnon during the ${label} (max of ${LAUNCHES})`,
        hostops: `${mib(most('hostops', 'peak'))} / ${mib(most('hostops', 'peakAnon'))}`,
        reference: `${mib(most('bare', 'peak'))} / ${mib(most('bare', 'peakAnon'))} (bare)`,
        ratio: `${((most('hostops', 'peak') / CONTAINER_LIMIT) * 100).toFixed(0)} % of the limit`,
        target: `≤ ${mib(CONTAINER_LIMIT)} (compose mem_limit)`,
        met: most('hostops', 'peak') <= CONTAINER_LIMIT,
      },
    ];
    return {
      rows,
      details: [
        `Fresh processes as they ship (no --inspect), alternating, in the guild of 5,000 members and 500 channels; API ${API_MS} ms. The same ${INTERACTIONS.toLocaleString('en')} interactions for both, at most ${WINDOW} operations unanswered: per cycle of ${CYCLE.length}, ${CYCLE.filter((o) => o === 'info').length} \`/domain info\` (500 names), ${CYCLE.filter((o) => o === 'invalid').length} with an invalid name, one \`/server logs\`, one \`/domain expiry\` of 5 domains, one \`/domain dns\` prompt of 3 records on a domain of its own and its Confirm through the public record; one \`/watch check\` (operator) half-way; HostOps scraped at /metrics every ${SCRAPE_EVERY} interactions. Bare answers every interaction with a fixed reply, on discord.js' and Node's defaults (REST handlers swept hourly, V8's heap sized from the host's memory); HostOps as \`npm start\` runs it.`,
        `After the idle minute (median of 3 samples 1 s apart), per launch — HostOps: ${each('hostops')}; bare: ${each('bare')}. Peaks sampled every ${SAMPLE_MS} ms during the load, every ${SAMPLE_MS * 10} ms during the idle minute.`,
      ],
    };
  },
};
