// 6. Cold start: spawn() → ready, median of 5 launches each, HostOps and bare alternating. Ready is the same
// for both: a /domain info probe is dispatched the moment the fake has sent READY and GUILD_CREATE, and
// ready is when its first callback arrives (the bot can take commands).

import type { BotKind } from '../botSetup.js';
import { waitReady } from '../launch.js';
import { cpuMs } from '../procStats.js';
import { type Metric, type MetricResult, ratioRow } from '../report.js';
import { type SpawnOptions, spawnBot, withPort } from '../spawnBot.js';
import { startStage } from '../stage.js';
import { median, ms } from '../stats.js';
import { Tracker } from '../Tracker.js';

const LAUNCHES = 5;

interface Launch {
  ready: number;
  handshake: number;
  /** CPU time (user + system, all threads) the process had used when ready: less sensitive to a busy machine. */
  cpu: number;
}

/**
 * One launch: spawn → ready; `env` is added to the bot's environment (e.g. another DATABASE_URL), `spawn`
 * to its options (e.g. interactions over HTTP).
 */
export async function coldLaunch(
  kind: BotKind,
  env: Record<string, string> = {},
  spawn: SpawnOptions = {},
): Promise<Launch> {
  const stage = await startStage();
  const tracker = new Tracker(stage.discord);
  const bot = spawnBot(kind, stage, await withPort({ ...spawn, env }));
  try {
    const { handshakeAt, readyAt } = await waitReady(stage, bot, tracker);
    const cpu = cpuMs(bot.pid);
    return { ready: readyAt - bot.spawnedAt, handshake: handshakeAt - bot.spawnedAt, cpu };
  } finally {
    await bot.stop();
    await stage.stop();
  }
}

export const coldStart: Metric = {
  name: 'coldstart',
  title: 'Cold start',
  async run(): Promise<MetricResult> {
    const runs: Record<'hostops' | 'bare', Launch[]> = {
      hostops: [],
      bare: [],
    };
    for (let n = 0; n < LAUNCHES; n++) {
      for (const kind of ['hostops', 'bare'] as const) runs[kind].push(await coldLaunch(kind));
    }
    const list = (kind: 'hostops' | 'bare', key: keyof Launch) =>
      runs[kind].map((r) => ms(r[key])).join(', ');
    const cpu = (kind: 'hostops' | 'bare') => median(runs[kind].map((r) => r.cpu));
    const hostops = median(runs.hostops.map((r) => r.ready));
    const bare = median(runs.bare.map((r) => r.ready));
    return {
      rows: [ratioRow(`Cold start, spawn → ready (median of ${LAUNCHES})`, hostops, bare, 1.3, ms, 'bare')],
      details: [
        `HostOps spawn → probe acknowledged: ${list('hostops', 'ready')}; spawn → READY sent: ${list('hostops', 'handshake')}`,
        `bare spawn → probe acknowledged: ${list('bare', 'ready')}; spawn → READY sent: ${list('bare', 'handshake')}`,
        `CPU time used by then (user + system, all threads, /proc; 10 ms ticks), median: HostOps ${ms(cpu('hostops'))} (${list('hostops', 'cpu')}), bare ${ms(cpu('bare'))} (${list('bare', 'cpu')}), ${(cpu('hostops') / cpu('bare')).toFixed(2)}×. A busy machine stretches wall time more than CPU time.`,
      ],
    };
  },
};
