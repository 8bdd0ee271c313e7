// Issue 50: what 1,000 grants in force add to the acknowledgement of a burst. A burst of 200 `/domain info`
// (API 2 s) from a member whose roles reach no tier and whose one grant among 1,000 allows it — the gate
// reads the grants' generation and decides on them for each — against the same burst from a viewer by role
// with no grants at all (the gate decides by the role alone, no store read). Fresh processes, alternating,
// three bursts each; the median of the p99s.
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openStore } from '../../src/store/index.js';
import { BOT_CWD, prepareBotCwd, ROLES, TMP } from '../botSetup.js';
import { ackTimes, waitForAcks, warmUp } from '../dispatch.js';
import { withBot } from '../launch.js';
import { type Metric, type MetricResult, ratioRow } from '../report.js';
import type { Stage } from '../stage.js';
import { fmtSummary, ms, type Summary, summarize } from '../stats.js';
import { benchGrants, GRANTS } from './access.js';
import { BURST, BURST_REPEATS } from './ack.js';

const API_MS = 2000;
const WARM_UP = 20;
const LIMIT = 1.1;
const SUPPORT_ROLE = '300000000000000051';
const GRANTED_CWD = join(TMP, 'cwd-grants');

/** BOT_CWD's store with 1,000 grants in force, one of them the support role's `viewer` on example.com. */
async function prepareGranted(): Promise<void> {
  await prepareBotCwd(GRANTED_CWD);
  const store = await openStore(`sqlite:${join(GRANTED_CWD, 'data', 'hostops.db')}`);
  try {
    const [first, ...rest] = benchGrants();
    if (!first) throw new Error('no grants');
    const support = {
      ...first,
      subject: { kind: 'role' as const, id: SUPPORT_ROLE },
      what: ['viewer'],
      patterns: ['example.com', '*.example.com'],
    };
    for (const grant of [support, ...rest]) await store.grants.add(grant);
    if ((await store.grants.load()).grants.length !== GRANTS) throw new Error('grants not in force');
  } finally {
    await store.close();
  }
}

function info(stage: Stage, role: string) {
  return stage.discord.dispatchInteraction({
    commandName: 'domain',
    subcommand: 'info',
    options: { domain: 'example.com' },
    roles: [role],
  });
}

async function burstAs(
  role: string,
  cwd: string,
): Promise<{ summary: Summary; refused: number; late: number }> {
  return withBot('hostops', {}, { cwd }, async ({ stage, tracker }) => {
    await warmUp(stage, tracker, WARM_UP);
    // And as the burst's member, so the grants are compiled (once per generation) before it, as in a bot
    // that has decided before: the burst measures the decisions, not the first load.
    const warm = Array.from({ length: WARM_UP }, () => info(stage, role));
    await waitForAcks(tracker, warm, 10_000);
    stage.api.latencyMs = API_MS;
    await sleep(200);
    const dispatched = Array.from({ length: BURST }, () => info(stage, role));
    await waitForAcks(tracker, dispatched, API_MS + 5_000);
    const { times, missing } = ackTimes(tracker, dispatched);
    // A refusal is an immediate reply (type 4) where the allowed read defers (type 5): none may be refused.
    const refused = dispatched.filter((i) => tracker.ack.get(i.id)?.type === 4).length;
    return { summary: summarize(times), refused, late: missing + times.filter((t) => t > 3000).length };
  });
}

const median = (runs: { summary: Summary }[]) =>
  [...runs].sort((a, b) => a.summary.p99 - b.summary.p99)[Math.floor((runs.length - 1) / 2)];

export const accessAck: Metric = {
  name: 'accessack',
  title: 'Acknowledgements with 1,000 grants in force',
  async run(): Promise<MetricResult> {
    await prepareGranted();
    const none: Awaited<ReturnType<typeof burstAs>>[] = [];
    const granted: Awaited<ReturnType<typeof burstAs>>[] = [];
    for (let n = 0; n < BURST_REPEATS; n++) {
      none.push(await burstAs(ROLES.viewer, BOT_CWD));
      granted.push(await burstAs(SUPPORT_ROLE, GRANTED_CWD));
    }
    const base = median(none);
    const withGrants = median(granted);
    if (!base || !withGrants) throw new Error('no bursts');
    const refused = granted.reduce((sum, r) => sum + r.refused, 0);
    return {
      rows: [
        {
          ...ratioRow(
            `Ack p99, burst ${BURST} (API ${API_MS / 1000} s), ${GRANTS.toLocaleString('en-US')} grants vs none (median of ${BURST_REPEATS})`,
            withGrants.summary.p99,
            base.summary.p99,
            LIMIT,
            ms,
            'no grants',
          ),
          ...(refused > 0 ? { met: false } : {}),
        },
      ],
      details: [
        `by grant (support role, 1 of ${GRANTS} grants in force): ${granted.map((r) => fmtSummary(r.summary)).join(' | ')}; refused ${refused}, later than 3 s ${granted.reduce((s, r) => s + r.late, 0)}`,
        `by role (viewer, no grants): ${none.map((r) => fmtSummary(r.summary)).join(' | ')}; later than 3 s ${none.reduce((s, r) => s + r.late, 0)}`,
      ],
    };
  },
};
