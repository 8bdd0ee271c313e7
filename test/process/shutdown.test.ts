// Graceful shutdown of the real process: SIGTERM/SIGINT while idle, during a slow confirmed change, and
// with a change stuck past the grace time.
import { afterEach, describe, expect, it } from 'vitest';
import {
  callbackType,
  confirmChange,
  type Fakes,
  isEphemeral,
  killSpawned,
  leakedTokens,
  logged,
  messageOf,
  nth,
  PROCESS_ROLES,
  type SpawnedBot,
  spawnBot,
  startFakes,
  textOf,
  until,
} from '../support/spawnBot.js';

let fakes: Fakes | undefined;
afterEach(async () => {
  await killSpawned();
  await fakes?.stop();
  fakes = undefined;
});

async function start(env: Record<string, string> = {}): Promise<{ f: Fakes; bot: SpawnedBot }> {
  const f = await startFakes();
  fakes = f;
  const bot = await spawnBot({ discord: f.discord, api: f.api, env });
  await bot.waitForLog(logged('gateway ready'), 15_000);
  return { f, bot };
}

describe.each(['SIGTERM', 'SIGINT'] as const)('%s while idle', (signal) => {
  it('exits 0 well under a second after the signal', async () => {
    const { f, bot } = await start();
    bot.kill(signal);
    const exit = await bot.exitWithin(5_000);
    expect(exit.code, bot.output).toBe(0);
    expect(exit.signal).toBeNull();
    expect(exit.ms).toBeLessThan(1_000);
    expect(bot.lines.some(logged('stopped', { drained: true })), bot.output).toBe(true);
    // It closed the session rather than being cut off.
    await until(() => !f.discord.gatewayConnected || undefined, 'the gateway socket to close', 1_000);
    expect(leakedTokens(bot)).toEqual([]);
  });
});

describe('SIGTERM during a slow confirmed change', () => {
  it('completes the change, delivers both answers, refuses new commands, exits 0 within the grace', async () => {
    const graceMs = 5_000;
    const { f, bot } = await start({ SHUTDOWN_GRACE_MS: String(graceMs) });
    f.api.enqueue('setReverseDns', { body: {}, delayMs: 1_500 });

    const { click } = await confirmChange(f.discord, {
      commandName: 'server',
      subcommand: 'rdns',
      options: { id: 42, ip: '203.0.113.7', hostname: 'host.example.com' },
    });
    await until(() => f.api.requestsFor('setReverseDns')[0], 'the change to reach the API', 5_000, 5);
    const signalledAt = bot.kill('SIGTERM');
    await bot.waitForLog(logged('shutting down'));
    // No longer ready: a load balancer or orchestrator should stop counting on this instance.
    const draining = await bot.get('/healthz');
    expect(draining.status).toBe(503);
    expect(draining.json()).toMatchObject({ gateway: 'stopping' });

    // A command arriving while the bot drains: told to come back, nothing sent to the provider.
    const apiCallsBefore = f.api.requests.length;
    const late = f.discord.dispatchInteraction({
      commandName: 'domain',
      subcommand: 'info',
      options: { domain: 'example.com' },
      roles: [PROCESS_ROLES.operator],
    });
    const lateReply = await nth(f.discord, late, 0);
    expect(callbackType(lateReply)).toBe(4);
    expect(isEphemeral(messageOf(lateReply))).toBe(true);
    expect(textOf(messageOf(lateReply))).toContain('HostOps is restarting; try again in a minute.');

    const exit = await bot.exitWithin(graceMs + 3_000);
    expect(exit.code, bot.output).toBe(0);
    expect(exit.ms).toBeLessThan(graceMs);
    // It waited for the provider rather than cutting the change off.
    expect(performance.now() - signalledAt).toBeGreaterThan(500);

    expect(f.api.requestsFor('setReverseDns')).toHaveLength(1);
    expect(f.api.requests.length - apiCallsBefore).toBe(0);
    expect(f.api.requests.filter((r) => r.operation === 'domainInfo')).toHaveLength(0);

    const requests = f.discord.requestsFor(click);
    const [update, edit, followUp] = requests;
    if (!update || !edit || !followUp) throw new Error(`expected 3 requests, got ${requests.length}`);
    expect(callbackType(update)).toBe(7);
    expect(edit.method).toBe('PATCH');
    expect(edit.path).toMatch(/\/messages\/@original$/);
    expect(textOf(messageOf(edit))).toContain('Reverse DNS set');
    expect(followUp.method).toBe('POST');
    expect(followUp.path).toMatch(/^\/webhooks\/\d+\/[^/]+$/);
    expect(textOf(messageOf(followUp))).toContain('set the reverse DNS');
    expect(bot.lines.some(logged('stopped', { drained: true })), bot.output).toBe(true);
    expect(leakedTokens(bot)).toEqual([]);
  });
});

describe('SIGTERM with a change stuck past the grace time', () => {
  it('exits 0 shortly after the grace and tells the owner the outcome is unknown', async () => {
    const graceMs = 1_500;
    const { f, bot } = await start({ SHUTDOWN_GRACE_MS: String(graceMs), HOSTING_API_TIMEOUT_MS: '30000' });
    f.api.enqueue('bindPanelLicense', { hang: true });

    const { click } = await confirmChange(f.discord, {
      commandName: 'panel',
      subcommand: 'bind',
      options: { license: 'ABCD-1234-EFGH', ip: '203.0.113.9' },
    });
    await until(() => f.api.requestsFor('bindPanelLicense')[0], 'the change to reach the API', 5_000, 5);
    bot.kill('SIGTERM');

    const exit = await bot.exitWithin(graceMs + 5_000);
    expect(exit.code, bot.output).toBe(0);
    expect(exit.ms).toBeGreaterThanOrEqual(graceMs - 50);
    expect(exit.ms).toBeLessThan(graceMs + 1_500);

    expect(f.api.requestsFor('bindPanelLicense')).toHaveLength(1);
    const requests = f.discord.requestsFor(click);
    const edits = requests.filter((r) => r.method === 'PATCH' && r.path.endsWith('/messages/@original'));
    expect(edits.length, JSON.stringify(requests.map((r) => r.body))).toBeGreaterThan(0);
    const lastEdit = edits.at(-1);
    if (!lastEdit) throw new Error('no edit');
    const last = textOf(messageOf(lastEdit));
    expect(last).toContain('Outcome unknown');
    expect(last).toMatch(/Reference: `[0-9a-f]+`/);
    // No public record claiming success.
    expect(requests.filter((r) => r.method === 'POST' && !r.path.endsWith('/callback'))).toHaveLength(0);
    expect(bot.lines.some(logged('stopped', { drained: false })), bot.output).toBe(true);
    expect(leakedTokens(bot)).toEqual([]);
  });
});
