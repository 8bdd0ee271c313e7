// Issue 50: the one access decision with 1,000 grants in force, in-process against the real store (a
// SQLite file): what the gate spends when a member's role tier does not reach a command and their grants
// decide — the generation read (one primary-key row) and the compiled decision.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Asked } from '../../src/access/AccessPolicy.js';
import { GrantCache } from '../../src/access/GrantCache.js';
import { resourceOf } from '../../src/access/patterns.js';
import { type Grant, openStore } from '../../src/store/index.js';
import { TMP } from '../botSetup.js';
import type { Metric, MetricResult } from '../report.js';
import { type Summary, summarize } from '../stats.js';

/** Sub-millisecond figures: three decimals. */
const ms3 = (value: number) => `${value.toFixed(3)} ms`;
const fmt = (s: Summary) => `n=${s.n}, p50 ${ms3(s.p50)}, p99 ${ms3(s.p99)}, max ${ms3(s.max)}`;

export const GRANTS = 1000;
const DECISIONS = 20_000;
const TARGET_MS = 0.2;
const ACCESS = { viewerRoleIds: ['1'], operatorRoleIds: ['2'], adminRoleIds: ['3'], channelIds: [] };

/** 1,000 grants over 100 roles and 400 users; the asker holds three roles of them (30 grants). */
export function benchGrants(): Grant[] {
  return Array.from({ length: GRANTS }, (_, n) => ({
    id: `g${n.toString(16).padStart(8, '0')}`,
    subject:
      n % 5 === 0
        ? { kind: 'user' as const, id: `u${n % 400}` }
        : { kind: 'role' as const, id: `r${n % 100}` },
    what: n % 3 === 0 ? ['operator'] : ['domain dns', 'server rdns'],
    patterns: [`*.customer${n}.example`, `server:${n * 10 + 1}-${n * 10 + 10}`, `ip:10.${n % 256}.0.0/16`],
    until: null,
    createdBy: 'bench',
    createdAt: new Date(0),
    requestId: null,
  }));
}

export const access: Metric = {
  name: 'access',
  title: 'Access decision with 1,000 grants',
  async run(): Promise<MetricResult> {
    const dir = join(TMP, 'access');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const store = await openStore(`sqlite:${join(dir, 'bench.db')}`);
    const full: number[] = [];
    const compiled: number[] = [];
    try {
      for (const grant of benchGrants()) await store.grants.add(grant);
      const cache = new GrantCache(store, ACCESS);
      const asker = { userId: 'u7', roleIds: new Set(['r1', 'r41', 'r81']) };
      const now = new Date();
      const asks: Asked[] = [
        // Inside (customer 41 is r41's), outside (nobody's), and a server range.
        {
          command: 'domain dns',
          tier: 'operator',
          kind: 'change',
          resources: [resourceOf('domain', 'shop.customer41.example')].filter((r) => r !== undefined),
        },
        {
          command: 'domain dns',
          tier: 'operator',
          kind: 'change',
          resources: [resourceOf('domain', 'shop.nobody.example')].filter((r) => r !== undefined),
        },
        {
          command: 'server rdns',
          tier: 'operator',
          kind: 'change',
          resources: [resourceOf('server', 815), resourceOf('ip', '10.81.3.4')].filter(
            (r) => r !== undefined,
          ),
        },
      ];
      for (let n = 0; n < DECISIONS; n++) {
        const asked = asks[n % asks.length] as Asked;
        let t = performance.now();
        const policy = await cache.policy();
        policy.decide(asker, asked, now);
        full.push(performance.now() - t);
        t = performance.now();
        policy.decide(asker, asked, now);
        compiled.push(performance.now() - t);
      }
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
    const decision = summarize(full.slice(1000));
    const alone = summarize(compiled.slice(1000));
    return {
      rows: [
        {
          metric: 'access: decision with 1,000 grants (generation read + decide)',
          hostops: `p99 ${ms3(decision.p99)}`,
          reference: `${TARGET_MS} ms target`,
          ratio: `${(decision.p99 / TARGET_MS).toFixed(2)}×`,
          target: `p99 ≤ ${TARGET_MS} ms`,
          met: decision.p99 <= TARGET_MS,
        },
      ],
      details: [
        `${GRANTS} grants in a SQLite file (100 roles, 400 users; the asker holds 3 roles), ${DECISIONS} decisions cycling inside, outside and a server with its address; the first 1,000 dropped as warm-up`,
        `generation read + decision: ${fmt(decision)}`,
        `compiled decision alone: ${fmt(alone)}`,
      ],
    };
  },
};
