// 7. The journal's own cost on the path of a change, on the default engine (a SQLite file in WAL mode):
// the insert behind every prompt, the conditional update behind every Confirm (read + claim), the
// outcome, and the audit row every command writes. Measured in-process against the real store, so the
// figures are the store's alone, with nothing of Discord or the API in them.
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.js';
import { TMP } from '../botSetup.js';
import type { Metric, MetricResult } from '../report.js';
import { fmtSummary, ms, summarize } from '../stats.js';

const CHANGES = 2000;
// What the acknowledgement of a Confirm may spend on the store before it costs the 3-second deadline.
const ACK_BUDGET_MS = 5;

export const journal: Metric = {
  name: 'journal',
  title: 'Journal writes (SQLite)',
  async run(): Promise<MetricResult> {
    const dir = join(TMP, 'journal');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const store = await openStore(`sqlite:${join(dir, 'bench.db')}`);
    const insert: number[] = [];
    const claim: number[] = [];
    const settle: number[] = [];
    const audit: number[] = [];
    try {
      for (let n = 0; n < CHANGES; n++) {
        const id = randomBytes(12).toString('base64url');
        const now = new Date();
        let t = performance.now();
        await store.changes.insert({
          id,
          operation: 'setReverseDns',
          command: '/server rdns',
          target: `server ${n} 203.0.113.7`,
          parameters: { serverId: n, ip: '203.0.113.7', hostname: 'host.example.com', validate: true },
          preview: { title: 'Set reverse DNS', fields: [] },
          requestedById: '100000000000000001',
          requestedByName: 'bench',
          locale: 'en',
          guildId: '100000000000000002',
          channelId: '100000000000000003',
          state: 'pending',
          correlationId: 'bench',
          createdAt: now,
          expiresAt: new Date(now.getTime() + 120_000),
        });
        insert.push(performance.now() - t);
        t = performance.now();
        const record = await store.changes.get(id);
        const claimed = await store.changes.transition(id, 'pending', 'sending', {}, { notExpiredAt: now });
        claim.push(performance.now() - t);
        if (!record || !claimed) throw new Error('claim failed');
        t = performance.now();
        await store.changes.transition(id, 'sending', 'done', { result: {} });
        settle.push(performance.now() - t);
        t = performance.now();
        await store.audit.insert({
          at: now,
          userId: '100000000000000001',
          userName: 'bench',
          guildId: '100000000000000002',
          channelId: '100000000000000003',
          command: 'server',
          subcommand: 'rdns',
          target: `server ${n}`,
          outcome: 'done',
          detail: null,
          correlationId: 'bench',
          durationMs: 10,
          parameters: null,
          changeId: id,
        });
        audit.push(performance.now() - t);
      }
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
    const claimSummary = summarize(claim.slice(100));
    const prompt = summarize(insert.slice(100));
    return {
      rows: [
        {
          metric: 'journal: Confirm claim (get + conditional update)',
          hostops: `p99 ${ms(claimSummary.p99)}`,
          reference: `${ACK_BUDGET_MS} ms budget`,
          ratio: `${(claimSummary.p99 / ACK_BUDGET_MS).toFixed(2)}×`,
          target: `p99 ≤ ${ACK_BUDGET_MS} ms`,
          met: claimSummary.p99 <= ACK_BUDGET_MS,
        },
        {
          metric: 'journal: prompt insert',
          hostops: `p99 ${ms(prompt.p99)}`,
          reference: `${ACK_BUDGET_MS} ms budget`,
          ratio: `${(prompt.p99 / ACK_BUDGET_MS).toFixed(2)}×`,
          target: `p99 ≤ ${ACK_BUDGET_MS} ms`,
          met: prompt.p99 <= ACK_BUDGET_MS,
        },
      ],
      details: [
        `${CHANGES} changes through a SQLite file (WAL), the first 100 of each series dropped as warm-up`,
        `prompt insert: ${fmtSummary(prompt)}`,
        `Confirm claim (get + pending → sending): ${fmtSummary(claimSummary)}`,
        `outcome (sending → done): ${fmtSummary(summarize(settle.slice(100)))}`,
        `audit row: ${fmtSummary(summarize(audit.slice(100)))}`,
      ],
    };
  },
};
