// A bot started and ready: spawned on a fresh stage, answering its probe, warmed up; stopped with its stage.
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BotKind } from './botSetup.js';
import { domainInfo, waitUntil, warmUp } from './dispatch.js';
import { type BotProcess, type SpawnOptions, spawnBot, withPort } from './spawnBot.js';
import { type Stage, startStage } from './stage.js';
import { Tracker } from './Tracker.js';

export interface Ready {
  /** performance.now() when the fake had sent READY and GUILD_CREATE (IDENTIFY handshake complete). */
  handshakeAt: number;
  /** performance.now() when the first callback for a probe interaction, dispatched at handshakeAt, arrived. */
  readyAt: number;
}

/**
 * Ready = the bot answers: a `/domain info` probe is dispatched the moment the gateway handshake is done
 * (discord.js queues it until its guilds are in), and ready is when its first callback arrives. The probe's
 * final answer is awaited too, so nothing of it is left over for the measurement that follows.
 */
export async function waitReady(stage: Stage, bot: BotProcess, tracker: Tracker): Promise<Ready> {
  const deadline = performance.now() + 20_000;
  await Promise.race([
    bot.interactionsUrl === undefined
      ? stage.discord.waitForReady(20_000)
      : endpointListening(stage, bot.interactionsUrl, deadline),
    bot.exit.then(() => {
      throw new Error(`${bot.kind} exited before ready: ${bot.stderrTail()}`);
    }),
  ]);
  const handshakeAt = performance.now();
  if (bot.interactionsUrl !== undefined) stage.discord.deliverOverHttp([bot.interactionsUrl]);
  const probe = domainInfo(stage);
  await waitUntil(
    () => {
      tracker.scan();
      if (bot.exited()) throw new Error(`${bot.kind} exited: ${bot.stderrTail()}`);
      return tracker.finalAt(probe) !== undefined;
    },
    Math.max(1, deadline - performance.now()),
    `${bot.kind} to answer the ready probe`,
  );
  const readyAt = tracker.ackAt(probe) ?? Number.NaN;
  return { handshakeAt, readyAt };
}

const PING = JSON.stringify({ id: '1', application_id: '1', type: 1, token: 'ping', version: 1 });

/**
 * Over HTTP the handshake is the endpoint answering a signed PING, once its port takes a connection (tried
 * every 5 ms with a bare TCP connect: a failing fetch costs the machine far more while the bot boots).
 */
async function endpointListening(stage: Stage, url: string, deadline: number): Promise<void> {
  const { port } = new URL(url);
  const accepts = () =>
    new Promise<boolean>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
  while (!(await accepts())) {
    if (performance.now() > deadline) throw new Error(`${url} never took a connection`);
    await sleep(5);
  }
  const response = await fetch(url, {
    method: 'POST',
    headers: stage.discord.signer.headers(PING),
    body: PING,
  });
  if (!response.ok) throw new Error(`${url} answered a PING with ${response.status}`);
  await response.arrayBuffer();
}

export interface Running {
  kind: BotKind;
  stage: Stage;
  bot: BotProcess;
  tracker: Tracker;
  ready: Ready;
  stop(): Promise<void>;
}

/** A fresh stage with a bot that is ready and warmed up; the caller stops it. */
export async function launch(
  kind: BotKind,
  options: {
    guild?: { memberCount?: number; channelCount?: number };
    spawn?: SpawnOptions;
    warmUp?: number;
  } = {},
): Promise<Running> {
  const stage = await startStage(options.guild);
  const tracker = new Tracker(stage.discord);
  const bot = spawnBot(kind, stage, await withPort(options.spawn));
  const stop = async () => {
    await bot.stop();
    await stage.stop();
  };
  try {
    const ready = await waitReady(stage, bot, tracker);
    await warmUp(stage, tracker, options.warmUp ?? 0);
    return { kind, stage, bot, tracker, ready, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Runs `fn` with a fresh stage and bot, always stopping both. */
export async function withBot<T>(
  kind: BotKind,
  guild: { memberCount?: number; channelCount?: number },
  options: SpawnOptions,
  fn: (ctx: { stage: Stage; bot: BotProcess; tracker: Tracker; ready: Ready }) => Promise<T>,
): Promise<T> {
  const stage = await startStage(guild);
  const tracker = new Tracker(stage.discord);
  const bot = spawnBot(kind, stage, await withPort(options));
  try {
    const ready = await waitReady(stage, bot, tracker);
    return await fn({ stage, bot, tracker, ready });
  } finally {
    await bot.stop();
    await stage.stop();
  }
}
