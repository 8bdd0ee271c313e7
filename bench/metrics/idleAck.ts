// The idle collection and the acknowledgements: a HostOps grown by a burst, then left alone until its
// collector starts a collection (its 'collecting while quiet' line, written synchronously just before the
// pause); at that moment a handful of `/domain info` is dispatched, arriving while the collection runs.
// The same handful dispatched later, with no collection running, is the reference.
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DispatchedInteraction } from '../../test/support/FakeDiscord.js';
import { dispatchAtRate, domainInfo, waitForAcks, waitUntil, warmUp } from '../dispatch.js';
import { withBot } from '../launch.js';
import { type Metric, type MetricResult, ratioRow } from '../report.js';
import { fmtSummary, ms, summarize } from '../stats.js';

const CYCLES = 3;
const BURST = 1_500;
const BURST_RATE = 60;
/** Commands dispatched at once when a collection starts (and later, with none running). */
const HANDFUL = 5;
/** The collector looks every 10 s and wants a quiet span: a collection comes within about two looks. */
const WAIT_FOR_COLLECTION_MS = 40_000;
const WARM_UP = 20;

export const idleAck: Metric = {
  name: 'idleack',
  title: 'Acknowledgements of commands arriving during an idle collection',
  async run(): Promise<MetricResult> {
    // LOG_LEVEL=info for the collection's lines: both arms run in this one process, alike.
    return withBot('hostops', {}, { env: { LOG_LEVEL: 'info' } }, async ({ stage, bot, tracker }) => {
      let onCollecting: (() => void) | undefined;
      const pauses: number[] = [];
      const lines = createInterface({ input: bot.child.stdout ?? process.stdin });
      lines.on('line', (line) => {
        if (line.includes('"collecting while quiet"')) onCollecting?.();
        if (line.includes('"collected while quiet"'))
          pauses.push((JSON.parse(line) as { pauseMs: number }).pauseMs);
      });
      await warmUp(stage, tracker, WARM_UP);
      const acksOf = async (handful: DispatchedInteraction[]) => {
        await waitForAcks(tracker, handful, 10_000);
        tracker.scan();
        return handful.map((i) => (tracker.ackAt(i) ?? Number.POSITIVE_INFINITY) - i.dispatchedAt);
      };
      const during: number[] = [];
      const none: number[] = [];
      let missed = 0;
      for (let cycle = 0; cycle < CYCLES; cycle++) {
        const grown = await dispatchAtRate(BURST_RATE, BURST, () => domainInfo(stage));
        await waitForAcks(tracker, grown.dispatched, 30_000);
        let handful: DispatchedInteraction[] = [];
        const started = new Promise<void>((resolve) => {
          onCollecting = () => {
            handful = Array.from({ length: HANDFUL }, () => domainInfo(stage));
            resolve();
          };
        });
        const collected = await Promise.race([
          started.then(() => true),
          sleep(WAIT_FOR_COLLECTION_MS, false),
        ]);
        onCollecting = undefined;
        if (!collected) {
          missed++;
          continue;
        }
        during.push(...(await acksOf(handful)));
        // The same handful with nothing collecting (the collector just collected: it waits for new growth).
        await sleep(3_000);
        none.push(...(await acksOf(Array.from({ length: HANDFUL }, () => domainInfo(stage)))));
      }
      await waitUntil(() => pauses.length >= CYCLES - missed, 5_000, '');
      lines.close();
      const metric = `ack p99 of commands arriving during an idle collection vs none (${CYCLES} cycles of a ${BURST}-command burst, ${HANDFUL} commands each)`;
      const details = [
        `HostOps as \`npm start\` runs it (\`--expose-gc\`), \`LOG_LEVEL=info\` (for the collection's lines). Each cycle: ${BURST} \`/domain info\` at ${BURST_RATE}/s (API 0 ms), then nothing until the bot logs 'collecting while quiet' (written synchronously right before the collection; the collector looks every 10 s and starts only on a quiet span with nothing in flight), when ${HANDFUL} \`/domain info\` are dispatched at once: they arrive during the pause. 3 s after, ${HANDFUL} more the same way, with no collection running: the reference. Shared 2-core machine with other engineers' test runs: noisy.`,
        `Pauses (the bot's own 'collected while quiet' pauseMs): ${pauses.join(', ') || 'none'} ms; cycles with no collection within ${WAIT_FOR_COLLECTION_MS / 1000} s: ${missed}.`,
        `During: ${during.length > 0 ? fmtSummary(summarize(during)) : '—'}; none: ${none.length > 0 ? fmtSummary(summarize(none)) : '—'}.`,
      ];
      if (during.length === 0 || none.length === 0) {
        return {
          rows: [
            {
              metric,
              hostops: 'no collection ran',
              reference: '',
              ratio: 'n/a',
              target: '≤ 2× none',
              met: false,
            },
          ],
          details,
        };
      }
      return { rows: [ratioRow(metric, summarize(during).p99, summarize(none).p99, 2, ms, 'none')], details };
    });
  },
};
