// One launch of the bot on the loaded store for everything measured with it up: /audit, the CSV export,
// autocomplete, /watch list through every page and a watch run.
import { setTimeout as sleep } from 'node:timers/promises';
import { ROLES } from '../../botSetup.js';
import { warmUp } from '../../dispatch.js';
import { waitReady } from '../../launch.js';
import { serverId } from '../../loadHistory.js';
import { rssBytes } from '../../procStats.js';
import { spawnBot } from '../../spawnBot.js';
import { type Stage, startStage } from '../../stage.js';
import { median, ms, summarize } from '../../stats.js';
import { Tracker } from '../../Tracker.js';
import { answered } from './answered.js';
import { auditCases, literalTargets } from './auditSearches.js';
import { DAY_S, EXPORTS, SAMPLE_MS, SCALE, SUGGEST_REPEATS, WATCH_API_MS } from './historySettings.js';
import type { Prepared } from './prepareHistory.js';

const DOMAIN_TYPED = [
  '',
  's',
  'si',
  'site',
  'site1',
  'site12',
  'site123',
  'watch',
  'watch01',
  'example',
  '.de',
  'zzz',
];
const SERVER_TYPED = ['', '1', '10', '100', '1004', String(serverId(42)), '9', 'x'];

interface ExportResult {
  ms: number;
  idle: number;
  peak: number;
  rows: number;
  bytes: number;
}

/** /audit export over /domain info (a quarter of a million matches): the first 10,000 as CSV. */
async function exports(stage: Stage, tracker: Tracker, pid: number): Promise<ExportResult[]> {
  const results: ExportResult[] = [];
  for (let n = 0; n < EXPORTS; n++) {
    const before: number[] = [];
    for (let k = 0; k < 10; k++) {
      before.push(rssBytes(pid));
      await sleep(100);
    }
    const idle = median(before);
    let peak = idle;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, rssBytes(pid));
        await sleep(SAMPLE_MS);
      }
    })();
    const i = stage.discord.dispatchInteraction({
      commandName: 'audit',
      options: { command: 'domain info', days: SCALE.days, export: true },
      roles: [ROLES.operator],
    });
    const answer = await answered(stage, tracker, i, 60_000);
    sampling = false;
    await sampler;
    const file = answer.files[0];
    const rows = file === undefined ? 0 : file.text.split('\r\n').length - 2;
    results.push({ ms: answer.ms, idle, peak, rows, bytes: file?.size ?? 0 });
  }
  return results;
}

/** Autocomplete of `domain` (/domain info) and `id` (/server logs): dispatch → the choices. */
async function suggestions(stage: Stage, tracker: Tracker) {
  const domain: number[] = [];
  const server: number[] = [];
  const perTyped: string[] = [];
  for (let n = 0; n < SUGGEST_REPEATS; n++) {
    for (const [typed, command, option, into] of [
      ...DOMAIN_TYPED.map((t) => [t, 'domain info', 'domain', domain] as const),
      ...SERVER_TYPED.map((t) => [t, 'server logs', 'id', server] as const),
    ]) {
      const [commandName = '', subcommand = ''] = command.split(' ');
      const i = stage.discord.dispatchAutocomplete({
        commandName,
        subcommand,
        options: { [option]: typed },
        roles: [ROLES.admin],
      });
      const answer = await answered(stage, tracker, i, 5_000);
      into.push(answer.ms);
      if (n === SUGGEST_REPEATS - 1) {
        const choices = (stage.discord.requestsFor(i)[0]?.body as { data?: { choices?: unknown[] } })?.data
          ?.choices;
        perTyped.push(`${option} "${typed}": ${choices?.length ?? 0} choices, ${ms(answer.ms)}`);
      }
    }
  }
  return {
    domain: summarize(domain),
    server: summarize(server),
    all: summarize([...domain, ...server]),
    perTyped,
  };
}

/** /watch list, then Next through every page. */
async function watchList(stage: Stage, tracker: Tracker) {
  const first = await answered(
    stage,
    tracker,
    stage.discord.dispatchInteraction({ commandName: 'watch', subcommand: 'list', roles: [ROLES.viewer] }),
  );
  const pages: number[] = [first.ms];
  let lastFooter = '';
  for (let offset = 10; offset < SCALE.watched; offset += 10) {
    const click = stage.discord.dispatchComponent({
      customId: `hostops:watchlist:${offset}`,
      roles: [ROLES.viewer],
    });
    const page = await answered(stage, tracker, click);
    pages.push(page.ms);
    lastFooter = page.body?.embeds?.[0]?.footer?.text ?? '';
  }
  return { pages: summarize(pages), lastFooter };
}

/** `/watch check`: a run over every watched domain, the API answering each in WATCH_API_MS. */
async function watchRun(stage: Stage, tracker: Tracker) {
  stage.api.latencyMs = WATCH_API_MS;
  const i = stage.discord.dispatchInteraction({
    commandName: 'watch',
    subcommand: 'check',
    roles: [ROLES.operator],
  });
  const answer = await answered(stage, tracker, i, 30 * 60_000);
  stage.api.latencyMs = 0;
  const text = answer.body?.embeds?.[0]?.description ?? '';
  const seconds = /in ([\d.]+) s/.exec(text)?.[1];
  return { ms: answer.ms, runMs: seconds === undefined ? Number.NaN : Number(seconds) * 1000, text };
}

/** The fake API answers each watched domain as the loader left it: nothing new to report but what is due. */
function answerWatchedDomains(stage: Stage, now: Date): void {
  stage.api.respond('domainInfo', (request) => {
    // The fake keeps every request; 10,000 of them would only weigh on the bench process.
    stage.api.requests.length = 0;
    const n = Number(/^watch(\d+)\./.exec(request.param ?? '')?.[1] ?? -1);
    if (n < 0 || n % 1000 === 999) return { status: 404, body: { error: 'domain not found' } };
    const daysLeft = (n % 400) - 5;
    const expirydate = new Date(now.getTime() + daysLeft * DAY_S * 1000).toISOString().slice(0, 10);
    return {
      body: {
        expirydate,
        active: 'true',
        expired: String(daysLeft < 0),
        transferredAway: String(n % 500 === 0),
      },
    };
  });
}

/** One launch on the loaded store for the /audit searches alone (BENCH_HISTORY_ONLY=audit). */
export async function auditSession(prepared: Prepared, env: Record<string, string>) {
  const stage = await startStage();
  const tracker = new Tracker(stage.discord);
  const bot = spawnBot('hostops', stage, { env });
  try {
    await waitReady(stage, bot, tracker);
    await warmUp(stage, tracker, 20);
    await answered(
      stage,
      tracker,
      stage.discord.dispatchInteraction({ commandName: 'audit', roles: [ROLES.operator] }),
    );
    const audit = await auditCases(stage, tracker);
    const literal = await literalTargets(prepared, stage, tracker);
    return { audit, literal };
  } finally {
    await bot.stop();
    await stage.stop();
  }
}

/** One launch on the loaded store for everything that needs the bot up: /audit … the watch run. */
export async function session(prepared: Prepared, env: Record<string, string>) {
  const stage = await startStage();
  const tracker = new Tracker(stage.discord);
  answerWatchedDomains(stage, prepared.loaded.now);
  const bot = spawnBot('hostops', stage, { env });
  try {
    await waitReady(stage, bot, tracker);
    await warmUp(stage, tracker, 20);
    // Each kind of interaction measured below once, unmeasured (its code loaded and compiled).
    for (const i of [
      stage.discord.dispatchInteraction({ commandName: 'audit', roles: [ROLES.operator] }),
      stage.discord.dispatchAutocomplete({
        commandName: 'domain',
        subcommand: 'info',
        options: { domain: 'warm' },
        roles: [ROLES.admin],
      }),
      stage.discord.dispatchInteraction({ commandName: 'watch', subcommand: 'list', roles: [ROLES.viewer] }),
    ])
      await answered(stage, tracker, i);
    const audit = await auditCases(stage, tracker);
    const literal = await literalTargets(prepared, stage, tracker);
    const exported = await exports(stage, tracker, bot.pid);
    const suggested = await suggestions(stage, tracker);
    const listed = await watchList(stage, tracker);
    const run = await watchRun(stage, tracker);
    const rssAfter = rssBytes(bot.pid);
    return { audit, literal, exported, suggested, listed, run, rssAfter };
  } finally {
    await bot.stop();
    await stage.stop();
  }
}
