// 15. Answers under load (issue 34), HostOps beside the naive peer: a burst of 200 identical `/domain info`
// (one request should serve them all), a burst of 200 different ones through HOSTING_API_MAX_CONNECTIONS=10
// (each answered with the status, none told the provider did not answer), and single `/domain info` sent
// while a 50-domain `/domain expiry` and a 10,000-domain watch run hold every connection.
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DispatchedInteraction } from '../../test/support/FakeDiscord.js';
import { defaultResponders } from '../../test/support/FakeHostingApi.js';
import { type BotKind, prepareBotCwd, ROLES, TMP } from '../botSetup.js';
import { domainInfo, waitUntil, warmUp } from '../dispatch.js';
import { withBot } from '../launch.js';
import { type Metric, type MetricResult, type Row, ratioRow } from '../report.js';
import type { Stage } from '../stage.js';
import { fmtSummary, ms, summarize } from '../stats.js';
import type { Tracker } from '../Tracker.js';

const BURST = 200;
const BURST_API_MS = 2_000;
const CONNECTIONS = 10;
const SINGLE_API_MS = 1_000;
const SINGLES = 20;
/** Not a whole number of API times, so the singles fall at every point of the connections' cycle. */
const SINGLE_SPACING_MS = 1_300;
const WATCHED = 10_000;
const BULK_DOMAINS = 50;
const WARM_UP = 20;
const LOAD_CWD = join(TMP, 'load-cwd');

interface Finals {
  /** Dispatch → final answer, of those answered. */
  times: number[];
  /** Final answers that carried the domain's status (embeds). */
  results: number;
  /** Final answers saying the provider did not answer in time. */
  noAnswer: number;
  missing: number;
}

/** The final answer of each interaction: HostOps' last edit of its deferral, the naive bot's reply. */
function finalsOf(tracker: Tracker, dispatched: readonly DispatchedInteraction[]): Finals {
  tracker.scan();
  const finals: Finals = { times: [], results: 0, noAnswer: 0, missing: 0 };
  for (const i of dispatched) {
    const ack = tracker.ack.get(i.id);
    const edit = tracker.lastOriginal.get(i.token);
    const final = ack?.type === 4 ? { at: ack.at, embeds: true, content: '' } : edit;
    // A deferral's notice ("waiting for a connection") is not an answer.
    if (final === undefined || (!final.embeds && final.content.startsWith('⏳'))) {
      finals.missing++;
      continue;
    }
    finals.times.push(final.at - i.dispatchedAt);
    if (final.embeds) finals.results++;
    else if (/no answer from the provider/i.test(final.content)) finals.noAnswer++;
  }
  return finals;
}

async function waitForFinals(
  tracker: Tracker,
  dispatched: readonly DispatchedInteraction[],
  timeoutMs: number,
) {
  await waitUntil(() => finalsOf(tracker, dispatched).missing === 0, timeoutMs, '');
  return finalsOf(tracker, dispatched);
}

interface BurstRun extends Finals {
  /** Requests the provider received for the burst. */
  requests: number;
}

async function burst(kind: BotKind, domainOf: (n: number) => string, waitMs: number): Promise<BurstRun> {
  return withBot(kind, {}, {}, async ({ stage, tracker }) => {
    await warmUp(stage, tracker, WARM_UP);
    stage.api.latencyMs = BURST_API_MS;
    await sleep(200);
    const before = stage.api.requestsFor('domainInfo').length;
    const dispatched = Array.from({ length: BURST }, (_, n) => domainInfo(stage, domainOf(n)));
    const finals = await waitForFinals(tracker, dispatched, waitMs);
    return { ...finals, requests: stage.api.requestsFor('domainInfo').length - before };
  });
}

interface SingleRun {
  times: number[];
  /** Look-ups in flight at the provider when each single was dispatched. */
  busy: number[];
  expiries: number;
}

/**
 * Singles spaced SINGLE_SPACING_MS apart; for HostOps, with `/watch check` over WATCHED domains and
 * `/domain expiry` of BULK_DOMAINS kept running (a new one whenever one ends) from before the first.
 */
async function singles(kind: BotKind): Promise<SingleRun> {
  const cwd = kind === 'hostops' ? LOAD_CWD : undefined;
  return withBot(kind, {}, cwd ? { cwd } : {}, async ({ stage, tracker }) => {
    await warmUp(stage, tracker, WARM_UP);
    let inFlight = 0;
    stage.api.respond('domainInfo', async (request) => {
      inFlight++;
      await sleep(SINGLE_API_MS);
      inFlight--;
      // The fake keeps every request it saw; nothing here needs them.
      stage.api.requests.length = 0;
      return defaultResponders.domainInfo(request);
    });
    const expiries: DispatchedInteraction[] = [];
    const bulk = () => expiries.push(expiry(stage, expiries.length));
    if (kind === 'hostops') {
      stage.discord.dispatchInteraction({
        commandName: 'watch',
        subcommand: 'check',
        roles: [ROLES.operator],
      });
      bulk();
      await sleep(2 * SINGLE_API_MS);
    }
    const dispatched: DispatchedInteraction[] = [];
    const busy: number[] = [];
    for (let n = 0; n < SINGLES; n++) {
      if (kind === 'hostops' && finalsOf(tracker, expiries.slice(-1)).missing === 0) bulk();
      busy.push(inFlight);
      dispatched.push(domainInfo(stage, `single-${n}.example.com`));
      await sleep(SINGLE_SPACING_MS);
    }
    const { times, missing } = await waitForFinals(tracker, dispatched, 30_000);
    if (missing > 0) throw new Error(`${missing} of ${SINGLES} single reads got no answer (${kind})`);
    return { times, busy, expiries: expiries.length };
  });
}

function expiry(stage: Stage, run: number): DispatchedInteraction {
  const domains = Array.from({ length: BULK_DOMAINS }, (_, n) => `bulk-${run}-${n}.example.com`).join(' ');
  return stage.discord.dispatchInteraction({
    commandName: 'domain',
    subcommand: 'expiry',
    options: { domains },
    roles: [ROLES.viewer],
  });
}

const answered = (run: Finals) => `${run.results} / ${BURST}`;
const last = (run: Finals) => Math.max(...run.times);

export const load: Metric = {
  name: 'load',
  title: 'Answers under load',
  async run(): Promise<MetricResult> {
    await prepareBotCwd(LOAD_CWD, WATCHED);
    const waitMs = 4 * Math.ceil(BURST / CONNECTIONS) * BURST_API_MS;
    const identical = await burst('hostops', () => 'example.com', waitMs);
    const identicalNaive = await burst('naive', () => 'example.com', waitMs);
    const different = await burst('hostops', (n) => `burst-${n}.example.com`, waitMs);
    const differentNaive = await burst('naive', (n) => `burst-${n}.example.com`, waitMs);
    const ideal = Math.ceil(BURST / CONNECTIONS) * BURST_API_MS;
    const beside = await singles('hostops');
    const alone = await singles('naive');
    const single = summarize(beside.times);

    const rows: Row[] = [
      {
        metric: `Load: burst ${BURST} identical /domain info (API 2 s), answered with the status`,
        hostops: answered(identical),
        reference: `${answered(identicalNaive)} (naive)`,
        ratio: '—',
        target: `${BURST} of ${BURST}`,
        met: identical.results === BURST,
      },
      ratioRow(
        'Load: burst of identical reads, last final answer',
        last(identical),
        last(identicalNaive),
        1.2,
        ms,
        'naive',
      ),
      {
        metric: 'Load: burst of identical reads, requests to the provider',
        hostops: String(identical.requests),
        reference: `${identicalNaive.requests} (naive)`,
        ratio: '—',
        target: '≤ 2',
        met: identical.requests <= 2,
      },
      {
        metric: `Load: burst ${BURST} different /domain info (API 2 s, ${CONNECTIONS} connections), answered with the status`,
        hostops: `${answered(different)}, ${different.noAnswer} "no answer"`,
        reference: `${answered(differentNaive)} (naive, no connection limit)`,
        ratio: '—',
        target: `${BURST} of ${BURST}, none "no answer"`,
        met: different.results === BURST && different.noAnswer === 0,
      },
      ratioRow(
        'Load: burst of different reads, last final answer',
        last(different),
        ideal,
        1.15,
        ms,
        `ideal ⌈${BURST}/${CONNECTIONS}⌉ × 2 s`,
      ),
      {
        ...ratioRow(
          `Load: single /domain info beside a ${BULK_DOMAINS}-domain /domain expiry and a ${WATCHED.toLocaleString('en')}-domain watch run (API 1 s), p99`,
          single.p99,
          SINGLE_API_MS,
          2,
          ms,
          'the API time',
        ),
        reference: `${ms(SINGLE_API_MS)} (the API time); naive alone ${ms(summarize(alone.times).p99)}`,
      },
    ];
    const line = (name: string, run: BurstRun) =>
      `  - ${name}: ${run.results} with the status, ${run.noAnswer} "no answer", ${run.missing} unanswered; ${run.requests} requests to the provider; dispatch → final answer ${fmtSummary(summarize(run.times))}`;
    return {
      rows,
      details: [
        `Burst of ${BURST} \`/domain info example.com\` written to the gateway in one go, API answering in 2 s:`,
        line('HostOps', identical),
        line('naive', identicalNaive),
        `Burst of ${BURST} \`/domain info\` of ${BURST} different domains, API answering in 2 s; HostOps with HOSTING_API_MAX_CONNECTIONS=${CONNECTIONS} (default), naive with no limit (fetch):`,
        line('HostOps', different),
        line('naive', differentNaive),
        `  - ideal for ${CONNECTIONS} connections: ⌈${BURST}/${CONNECTIONS}⌉ × 2 s = ${ms(ideal)}`,
        `Single \`/domain info\` (${SINGLES}, ${ms(SINGLE_SPACING_MS)} apart), API answering in 1 s; HostOps with ${CONNECTIONS} connections, \`/watch check\` over ${WATCHED.toLocaleString('en')} watched domains (WATCH_CONCURRENCY 4) and \`/domain expiry\` of ${BULK_DOMAINS} domains (8 at a time; ${beside.expiries} run, a new one whenever one ended) under way:`,
        `  - HostOps: dispatch → answer ${fmtSummary(single)}; look-ups in flight at the provider when each was sent: ${beside.busy.join(', ')} (limit ${CONNECTIONS}; while the expiry and the watch share them, one is kept for a command holding none)`,
        `  - naive (no bulk work; it has no expiry or watch): dispatch → answer ${fmtSummary(summarize(alone.times))}`,
        'The machine is shared with other work while this runs (two cores); the lead re-runs the full suite.',
      ],
    };
  },
};
