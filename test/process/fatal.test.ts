// Faults the bot must not retry: fatal gateway close codes and a rejected token end the process non-zero
// with one clear log line, instead of a reconnect loop. Each test owns its process, so they run together.
import { afterAll, describe, expect, it } from 'vitest';
import { FakeDiscord } from '../support/FakeDiscord.js';
import { FakeHostingApi } from '../support/FakeHostingApi.js';
import {
  type Fakes,
  killSpawned,
  leakedTokens,
  logged,
  type SpawnedBot,
  spawnBot,
  startFakes,
} from '../support/spawnBot.js';

const PINO_FATAL = 60;
const stops: (() => Promise<void>)[] = [];

afterAll(async () => {
  await killSpawned();
  await Promise.all(stops.map((stop) => stop()));
});

async function fakes(): Promise<Fakes> {
  const f = await startFakes();
  stops.push(f.stop);
  return f;
}

function fatalLines(bot: SpawnedBot) {
  return bot.lines.filter((line) => line.json.level === PINO_FATAL);
}

/** Exit code 1, exactly one fatal line, naming the cause; no token anywhere in the output. */
function expectOneClearFatalLine(bot: SpawnedBot, cause: RegExp): void {
  expect(bot.exit?.code, bot.output).toBe(1);
  const fatal = fatalLines(bot);
  expect(fatal, bot.output).toHaveLength(1);
  expect(String(fatal[0]?.json.msg)).toMatch(cause);
  expect(leakedTokens(bot)).toEqual([]);
}

describe.concurrent('fatal gateway close codes', () => {
  it.each([
    [4004, /the bot token was rejected \(4004\): check DISCORD_TOKEN/],
    [4010, /invalid shard \(4010\)/],
    [4011, /sharding required \(4011\)/],
    [4012, /invalid gateway API version \(4012\)/],
    [4013, /invalid intents \(4013\)/],
    [4014, /disallowed intents \(4014\)/],
  ])('close %i after READY → exit 1 with one fatal line, no reconnect', async (code, cause) => {
    const f = await fakes();
    const bot = await spawnBot({ discord: f.discord, api: f.api });
    await bot.waitForLog(logged('gateway ready'), 15_000);
    f.discord.closeGateway(code);
    const exit = await bot.exitWithin(8_000);
    expect(exit.signal).toBeNull();
    expectOneClearFatalLine(bot, cause);
    expect(f.discord.identifyCount).toBe(1);
    expect(f.discord.resumeCount).toBe(0);
    expect(f.discord.gatewayConnected).toBe(false);
  });

  it('disallowed intents (4014) at IDENTIFY → exit 1 with one fatal line, no retry', async () => {
    const f = await fakes();
    f.discord.failNextIdentify(4014, 'Disallowed intent(s).');
    const bot = await spawnBot({ discord: f.discord, api: f.api });
    const exit = await bot.exitWithin(8_000);
    expect(exit.signal).toBeNull();
    expectOneClearFatalLine(bot, /4014/);
    expect(String(fatalLines(bot)[0]?.json.msg)).toMatch(/intents/);
    // failNextIdentify consumed the only attempt: a retry would have been accepted and counted.
    expect(f.discord.identifyCount).toBe(0);
  });
});

describe('a rejected bot token at login', () => {
  it('exits non-zero with a clear message and never prints the token', async () => {
    const discord = await FakeDiscord.start({ token: 'the-token-discord-knows.abcdef' });
    const api = await FakeHostingApi.start();
    stops.push(() => Promise.all([discord.stop(), api.stop()]).then(() => undefined));
    const bot = await spawnBot({
      discord,
      api,
      env: { DISCORD_TOKEN: 'MTIzNDU2Nzg5MDEyMzQ1Njc4.wrong-token-value.xyz' },
    });
    const exit = await bot.exitWithin(8_000);
    expect(exit.signal).toBeNull();
    expectOneClearFatalLine(bot, /token/i);
    expect(String(fatalLines(bot)[0]?.json.msg)).toMatch(/DISCORD_TOKEN/);
    expect(bot.output).not.toContain('MTIzNDU2Nzg5MDEyMzQ1Njc4');
    expect(discord.identifyCount).toBe(0);
    // It gave up instead of retrying the login: one attempt, refused, and the process is gone.
    const logins = discord.requests.filter((r) => r.path === '/gateway/bot');
    expect(logins.map((r) => r.status)).toEqual([401]);
  });
});
