// A handler that throws, synchronously, after deferring, or from a callback/promise that escapes it:
// the user gets an answer with a reference, the log line carries the same correlation id, and the bot
// answers the next command. An error outside any command ends the process with exit code 1.
// Runs fixtures/faultyBot.ts: the product's own wiring with one extra, failing command.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DispatchedInteraction } from '../support/FakeDiscord.js';
import { sourceEntryArgs } from '../support/runSource.js';
import {
  callbackType,
  type Fakes,
  isEphemeral,
  killSpawned,
  type LogLine,
  leakedTokens,
  logged,
  messageOf,
  nth,
  PROCESS_ROLES,
  type SpawnedBot,
  spawnBot,
  startFakes,
  textOf,
} from '../support/spawnBot.js';

const PINO_ERROR = 50;
const PINO_FATAL = 60;
const REFERENCE = /Reference: `([0-9a-f]{6,})`/;

let f: Fakes;
let bot: SpawnedBot;

beforeAll(async () => {
  f = await startFakes();
  bot = await spawnBot({ discord: f.discord, api: f.api, entry: 'test/process/fixtures/faultyBot.ts' });
  // Run from source through tsx, which compiles it first: on a loaded machine (files run side by side)
  // that alone has taken over 15 s. A bound for a hung start, not a timing.
  await bot.waitForLog(logged('gateway ready'), 40_000);
}, 120_000);

afterAll(async () => {
  await killSpawned();
  await f?.stop();
});

function faulty(subcommand: string): DispatchedInteraction {
  return f.discord.dispatchInteraction({ commandName: 'faulty', subcommand, roles: [PROCESS_ROLES.viewer] });
}

/** The bot still works end to end: a read that calls the provider is answered. */
async function expectNextCommandAnswered(): Promise<void> {
  const next = f.discord.dispatchInteraction({
    commandName: 'server',
    subcommand: 'logs',
    options: { id: 7 },
    roles: [PROCESS_ROLES.viewer],
  });
  const answer = await nth(f.discord, next, 1);
  expect(answer.method).toBe('PATCH');
  expect(textOf(messageOf(answer))).toContain('Server 7');
}

function finishedLine(command: string, from: number): Promise<LogLine> {
  return bot.waitForLog((l) => bot.lines.indexOf(l) >= from && logged('command finished', { command })(l));
}

describe('a handler that throws', () => {
  it('synchronously: ephemeral "something went wrong" with a reference that is the logged cid', async () => {
    const i = faulty('throw');
    const reply = await nth(f.discord, i, 0);
    expect(callbackType(reply)).toBe(4);
    expect(isEphemeral(messageOf(reply))).toBe(true);
    const text = textOf(messageOf(reply));
    expect(text).toContain('Something went wrong');
    const cid = REFERENCE.exec(text)?.[1];
    expect(cid, text).toBeDefined();
    const line = await bot.waitForLog(
      logged('command failed unexpectedly', { cid, command: '/faulty throw' }),
    );
    expect(line.json.level).toBe(PINO_ERROR);
    expect(JSON.stringify(line.json.err)).toContain('expiryDate');
    await expectNextCommandAnswered();
  });

  it('after deferring: the deferred reply is edited with the reference', async () => {
    const i = faulty('read');
    expect(callbackType(await nth(f.discord, i, 0))).toBe(5);
    const edit = await nth(f.discord, i, 1);
    expect(edit.method).toBe('PATCH');
    const text = textOf(messageOf(edit));
    expect(text).toContain('Something went wrong');
    const cid = REFERENCE.exec(text)?.[1];
    expect(cid, text).toBeDefined();
    await bot.waitForLog(logged('command failed unexpectedly', { cid, command: '/faulty read' }));
    await expectNextCommandAnswered();
  });

  it.each([
    ['timer', 'uncaughtException', 'escaped from a timer'],
    ['rejection', 'unhandledRejection', 'escaped as a rejection'],
  ])(
    'from an escaping %s: logged with the command cid, the bot keeps serving',
    async (sub, kind, message) => {
      const from = bot.lines.length;
      const i = faulty(sub);
      expect(textOf(messageOf(await nth(f.discord, i, 0)))).toContain('scheduled');
      const finished = await finishedLine(`/faulty ${sub}`, from);
      const cid = finished.json.cid;
      expect(typeof cid).toBe('string');
      const escaped = await bot.waitForLog(logged('error escaped a command handler', { kind }));
      expect(escaped.json).toMatchObject({ cid, command: `/faulty ${sub}`, interaction: i.id });
      expect(escaped.json.level).toBe(PINO_ERROR);
      expect(JSON.stringify(escaped.json.err)).toContain(message);
      expect(bot.exit).toBeUndefined();
      await expectNextCommandAnswered();
    },
  );
});

describe('an error outside any command', () => {
  it('ends the bot with exit code 1 and one fatal line', async () => {
    bot.kill('SIGUSR2');
    const exit = await bot.exitWithin(5_000);
    expect(exit.code, bot.output).toBe(1);
    const fatal = bot.lines.filter((l) => l.json.level === PINO_FATAL);
    expect(fatal, bot.output).toHaveLength(1);
    expect(fatal[0]?.json.msg).toBe('unexpected error outside any command; exiting');
    expect(JSON.stringify(fatal[0]?.json.err)).toContain('fault outside any command');
    expect(leakedTokens(bot)).toEqual([]);
  });
});

const run = promisify(execFile);

async function guardsChild(mode: 'exception' | 'rejection') {
  const cwd = mkdtempSync(join(tmpdir(), 'hostops-guards-'));
  try {
    await run(process.execPath, [...sourceEntryArgs('test/process/fixtures/guardsChild.ts'), mode], {
      cwd,
      env: { PATH: process.env.PATH ?? '' },
      timeout: 15_000,
    });
    return { code: 0, lines: [] as Record<string, unknown>[] };
  } catch (error) {
    const { code, stdout } = error as { code: number; stdout: string };
    const lines = stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    return { code, lines };
  }
}

describe.concurrent('process guards (installProcessGuards + handlerScope)', () => {
  it.each(['exception', 'rejection'] as const)(
    'inside a handler scope: logged with its cid; outside (%s): exit 1',
    async (mode) => {
      const { code, lines } = await guardsChild(mode);
      expect(code, JSON.stringify(lines)).toBe(1);
      const escaped = lines.filter((l) => l.msg === 'error escaped a command handler');
      expect(escaped.map((l) => l.kind).sort()).toEqual(['uncaughtException', 'unhandledRejection']);
      for (const line of escaped) expect(line).toMatchObject({ cid: 'c0ffee1234', command: '/fixture' });
      expect(lines.some((l) => l.msg === 'still alive after faults inside handlers')).toBe(true);
      const fatal = lines.filter((l) => l.level === PINO_FATAL);
      expect(fatal).toHaveLength(1);
      expect(fatal[0]).toMatchObject({
        msg: 'unexpected error outside any command; exiting',
        kind: mode === 'exception' ? 'uncaughtException' : 'unhandledRejection',
      });
      expect(lines.some((l) => l.msg === 'survived a fault outside any handler')).toBe(false);
    },
  );
});
