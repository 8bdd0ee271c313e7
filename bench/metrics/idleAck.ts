// The idle collection and the acknowledgements: a HostOps grown by a burst, then left alone until its
// collector offers V8 the garbage ('collection offered while quiet'); V8's memory reducer collects some
// seconds later if the process is still idle, marking in steps between tasks ('V8 is collecting while
// quiet', at its first step) and ending in one pause, which the bot reports ('collected while quiet', with
// when it started and how long it held the loop). From the first step on, a `/domain info` goes out every
// TRICKLE_MS; those dispatched while the final pause ran are the ones measured (not before: commands while
// V8 decides make it wait, as they should). A handful later, with nothing collecting, is the reference.
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DispatchedInteraction } from '../../test/support/FakeDiscord.js';
import { dispatchAtRate, domainInfo, waitForAcks, warmUp } from '../dispatch.js';
import { withBot } from '../launch.js';
import { type Metric, type MetricResult, ratioRow } from '../report.js';
import { fmtSummary, ms, summarize } from '../stats.js';

const CYCLES = 4;
const BURST = 1_500;
const BURST_RATE = 60;
/** Commands dispatched at once when a collection starts (and later, with none running). */
const HANDFUL = 5;
/** The collector looks every 10 s and wants a quiet span; V8 collects within about 15 s of the offer. */
const WAIT_FOR_COLLECTION_MS = 60_000;
/** From V8's first marking step until the collection, one command this often: some arrive in its pause. */
const TRICKLE_MS = 20;
const WARM_UP = 20;

/** The bot's 'collected while quiet' line. */
interface Collection {
  /** Epoch ms at which the pause started. */
  at: number;
  pauseMs: number;
  rssBefore: number;
  rssAfter: number;
}

export const idleAck: Metric = {
  name: 'idleack',
  title: 'Acknowledgements of commands arriving during an idle collection',
  async run(): Promise<MetricResult> {
    // LOG_LEVEL=info for the collection's lines: both arms run in this one process, alike.
    return withBot('hostops', {}, { env: { LOG_LEVEL: 'info' } }, async ({ stage, bot, tracker }) => {
      let onMarking: (() => void) | undefined;
      let offers = 0;
      let onCollected: ((c: Collection) => void) | undefined;
      const pauses: Collection[] = [];
      const lines = createInterface({ input: bot.child.stdout ?? process.stdin });
      lines.on('line', (line) => {
        if (line.includes('"collection offered while quiet"')) offers++;
        if (line.includes('"V8 is collecting while quiet"')) onMarking?.();
        if (line.includes('"collected while quiet"')) {
          const c = JSON.parse(line) as Collection;
          pauses.push(c);
          onCollected?.(c);
        }
      });
      await warmUp(stage, tracker, WARM_UP);
      const acksOf = async (handful: DispatchedInteraction[]) => {
        await waitForAcks(tracker, handful, 10_000);
        tracker.scan();
        return handful.map((i) => (tracker.ackAt(i) ?? Number.POSITIVE_INFINITY) - i.dispatchedAt);
      };
      const during: number[] = [];
      const trickle: number[] = [];
      const none: number[] = [];
      let missed = 0;
      for (let cycle = 0; cycle < CYCLES; cycle++) {
        const grown = await dispatchAtRate(BURST_RATE, BURST, () => domainInfo(stage));
        await waitForAcks(tracker, grown.dispatched, 30_000);
        const sent: DispatchedInteraction[] = [];
        let dripping: NodeJS.Timeout | undefined;
        const collected = new Promise<Collection>((resolve) => {
          onCollected = resolve;
        });
        onMarking = () => {
          dripping ??= setInterval(() => sent.push(domainInfo(stage)), TRICKLE_MS);
        };
        const collection = await Promise.race([collected, sleep(WAIT_FOR_COLLECTION_MS, undefined)]);
        clearInterval(dripping);
        onMarking = onCollected = undefined;
        if (!collection) {
          missed++;
          continue;
        }
        // The bot's epoch instant on this process's performance clock (one machine, one wall clock).
        const start = collection.at - performance.timeOrigin;
        const end = start + collection.pauseMs;
        const acks = await acksOf(sent);
        trickle.push(...acks);
        sent.forEach((i, n) => {
          if (i.dispatchedAt >= start && i.dispatchedAt <= end) during.push(acks[n] as number);
        });
        // The same handful with nothing collecting (the collector just collected: it waits for new growth).
        await sleep(3_000);
        none.push(...(await acksOf(Array.from({ length: HANDFUL }, () => domainInfo(stage)))));
      }
      lines.close();
      const metric = `ack p99 of commands arriving during an idle collection vs none (${CYCLES} cycles of a ${BURST}-command burst; one command every ${TRICKLE_MS} ms until the collection, those arriving in its pause)`;
      const details = [
        `HostOps as \`npm start\` runs it (\`--expose-gc\`), \`LOG_LEVEL=info\` (for the collection's lines). Each cycle: ${BURST} \`/domain info\` at ${BURST_RATE}/s (API 0 ms), then nothing: the collector looks every 10 s and offers V8 the garbage on a quiet span with nothing in flight ('collection offered while quiet'), and V8 collects when it judges the process idle; from its first marking step ('V8 is collecting while quiet') one \`/domain info\` every ${TRICKLE_MS} ms until the bot logs 'collected while quiet' (when V8's final pause started and how long it was). Measured: those dispatched within that pause. 3 s after, ${HANDFUL} at once with no collection running: the reference. Shared 2-core machine with other engineers' test runs: noisy.`,
        `Offers: ${offers}. Collections (the bot's own 'collected while quiet'): ${pauses.map((c) => `${c.pauseMs} ms, RSS ${(c.rssBefore / 1e6).toFixed(0)} → ${(c.rssAfter / 1e6).toFixed(0)} MB`).join('; ') || 'none'}; cycles with no collection within ${WAIT_FOR_COLLECTION_MS / 1000} s: ${missed}.`,
        `During the pause: ${during.length > 0 ? fmtSummary(summarize(during)) : '—'}; every command from V8's first marking step to the end of the collection: ${trickle.length > 0 ? fmtSummary(summarize(trickle)) : '—'}; none: ${none.length > 0 ? fmtSummary(summarize(none)) : '—'}.`,
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
