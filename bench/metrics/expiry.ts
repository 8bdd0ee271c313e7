// 3. Bulk expiry: /domain expiry with 50 domains, API 100 ms per call; dispatch → the answer (PATCH @original,
// sent once every lookup has settled), against ⌈50/8⌉ × the API's own time and against one call at a time.
import { setTimeout as sleep } from 'node:timers/promises';
import { defaultResponders, type ReceivedRequest } from '../../test/support/FakeHostingApi.js';
import { ROLES } from '../botSetup.js';
import { waitUntil, warmUp } from '../dispatch.js';
import { withBot } from '../launch.js';
import { type Metric, type MetricResult, ratioRow } from '../report.js';
import { startStage } from '../stage.js';
import { fmtSummary, median, ms, summarize } from '../stats.js';
import { apiOwnTimes } from './latency.js';

const DOMAINS = 50;
const IN_FLIGHT = 8;
const API_MS = 100;
const RUNS = 5;

export const expiry: Metric = {
  name: 'expiry',
  title: 'Bulk expiry',
  async run(): Promise<MetricResult> {
    const reference = await startStage();
    reference.api.latencyMs = API_MS;
    let own: number[];
    try {
      own = await apiOwnTimes(reference, DOMAINS);
    } finally {
      await reference.stop();
    }
    const oneAtATime = own.reduce((a, b) => a + b, 0);
    const ideal = Math.ceil(DOMAINS / IN_FLIGHT) * median(own);

    const domains = Array.from({ length: DOMAINS }, (_, n) => `expiry-${n}.example.com`).join(' ');
    const { times, peaks, messages } = await withBot('hostops', {}, {}, async ({ stage, tracker }) => {
      await warmUp(stage, tracker, 10);
      // The delay lives in the responder so calls in flight can be counted exactly.
      let inFlight = 0;
      let peak = 0;
      stage.api.respond('domainInfo', async (request: ReceivedRequest) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await sleep(API_MS);
        inFlight--;
        return defaultResponders.domainInfo(request);
      });
      const times: number[] = [];
      const peaks: number[] = [];
      const messages: number[] = [];
      for (let run = 0; run <= RUNS; run++) {
        peak = 0;
        const i = stage.discord.dispatchInteraction({
          commandName: 'domain',
          subcommand: 'expiry',
          options: { domains },
          roles: [ROLES.viewer],
        });
        await waitUntil(
          () => {
            tracker.scan();
            return tracker.original.has(i.token);
          },
          15_000,
          'the expiry answer',
        );
        // Later chunks of a long answer arrive as follow-ups; give them a moment, they are not timed.
        await sleep(200);
        tracker.scan();
        // Run 0 warms up the path and is not counted.
        if (run === 0) continue;
        times.push((tracker.original.get(i.token) ?? Number.NaN) - i.dispatchedAt);
        peaks.push(peak);
        messages.push(1 + (tracker.followups.get(i.token)?.length ?? 0));
      }
      return { times, peaks, messages };
    });
    const hostops = median(times);
    return {
      rows: [
        ratioRow(
          `Bulk expiry, ${DOMAINS} domains (API ${API_MS} ms), median of ${RUNS}`,
          hostops,
          ideal,
          1.15,
          ms,
          `ideal ⌈${DOMAINS}/${IN_FLIGHT}⌉ × API`,
        ),
      ],
      details: [
        `HostOps dispatch → answer: ${fmtSummary(summarize(times))}; runs: ${times.map(ms).join(', ')}`,
        `API calls in flight at most: ${peaks.join(', ')} (limit ${IN_FLIGHT}); messages per answer: ${messages.join(', ')}`,
        `API's own time (undici, sequential): median ${ms(median(own))}; ideal = ${Math.ceil(DOMAINS / IN_FLIGHT)} × ${ms(median(own))} = ${ms(ideal)}`,
        `One call at a time (${DOMAINS} sequential undici GETs, measured): ${ms(oneAtATime)}; HostOps is ${(oneAtATime / hostops).toFixed(1)}× faster`,
      ],
    };
  },
};
