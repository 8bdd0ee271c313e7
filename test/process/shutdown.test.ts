// Graceful shutdown of the real process: SIGTERM/SIGINT while idle, during a slow confirmed change (with a
// Confirm pressed while it drains, and pressed again after a restart), and with a change stuck past the
// grace time. Durations are checked against the configured grace and API timeout, not the wall clock.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  callbackType,
  confirmChange,
  confirmIdOf,
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

let fakes: Fakes[] = [];
afterEach(async () => {
  await killSpawned();
  await Promise.all(fakes.map((f) => f.stop()));
  fakes = [];
});

async function start(env: Record<string, string> = {}): Promise<{ f: Fakes; bot: SpawnedBot }> {
  const f = await startFakes();
  fakes.push(f);
  const bot = await spawnBot({ discord: f.discord, api: f.api, env });
  await bot.waitForLog(logged('gateway ready'), 15_000);
  return { f, bot };
}

describe('while idle', () => {
  it('SIGTERM and SIGINT each end the process with exit 0, without waiting for the grace time', async () => {
    // A grace far beyond anything else here: an idle bot that waited for it would show.
    const graceMs = 30_000;
    // One process per signal, side by side.
    await Promise.all(
      (['SIGTERM', 'SIGINT'] as const).map(async (signal) => {
        const { f, bot } = await start({ SHUTDOWN_GRACE_MS: String(graceMs) });
        bot.kill(signal);
        const exit = await bot.exitWithin(graceMs / 2);
        expect(exit.code, `${signal}: ${bot.output}`).toBe(0);
        expect(exit.signal).toBeNull();
        // Drained, not cut off by the grace running out (whatever the machine's load made of its length).
        expect(exit.ms).toBeLessThan(graceMs);
        expect(bot.lines.some(logged('shutting down', { signal })), bot.output).toBe(true);
        expect(bot.lines.some(logged('stopped', { drained: true })), bot.output).toBe(true);
        // It closed the session rather than being cut off.
        await until(() => !f.discord.gatewayConnected || undefined, 'the gateway socket to close', 1_000);
        expect(leakedTokens(bot)).toEqual([]);
      }),
    );
  });
});

describe('SIGTERM during a slow confirmed change', () => {
  it('completes the change, delivers both answers, refuses new commands and Confirm, exits 0 before the grace; the prompt works after a restart', async () => {
    const graceMs = 20_000;
    const providerMs = 1_500;
    const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'hostops-shutdown-')), 'hostops.db')}`;
    const { f, bot } = await start({ SHUTDOWN_GRACE_MS: String(graceMs), DATABASE_URL: databaseUrl });
    f.api.enqueue('setReverseDns', { body: {}, delayMs: providerMs });

    // A prompt left open: Confirm is pressed only while the bot drains.
    const open = f.discord.dispatchInteraction({
      commandName: 'panel',
      subcommand: 'bind',
      options: { license: 'DRAIN-0000-WXYZ', ip: '203.0.113.8' },
      roles: [PROCESS_ROLES.operator],
    });
    const openPrompt = await nth(f.discord, open, 0);
    const openMessage = f.discord.originalMessage(open);
    if (!openMessage) throw new Error('no prompt message');

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

    // Confirm pressed while it drains: turned away, privately, and nothing is sent.
    const drainingConfirm = f.discord.dispatchComponent({
      customId: confirmIdOf(openPrompt),
      message: { id: openMessage.id },
      roles: [PROCESS_ROLES.operator],
    });
    const turnedAway = await nth(f.discord, drainingConfirm, 0);
    expect(callbackType(turnedAway)).toBe(4);
    expect(isEphemeral(messageOf(turnedAway))).toBe(true);
    expect(textOf(messageOf(turnedAway))).toBe('Not sent: HostOps is restarting; try again in a minute.');

    const exit = await bot.exitWithin(graceMs);
    expect(exit.code, bot.output).toBe(0);
    // It drained rather than sitting out the grace, and waited for the provider rather than cutting
    // the change off.
    expect(exit.ms).toBeLessThan(graceMs);
    const exitedAt = performance.now();
    expect(exitedAt - signalledAt).toBeGreaterThan(0);
    const sent = f.api.requestsFor('setReverseDns')[0];
    if (!sent) throw new Error('the change never reached the API');
    expect(exitedAt - sent.at).toBeGreaterThanOrEqual(providerMs - 50);

    expect(f.api.requestsFor('setReverseDns')).toHaveLength(1);
    expect(f.api.requests.length - apiCallsBefore).toBe(0);
    expect(f.api.requests.filter((r) => r.operation === 'domainInfo')).toHaveLength(0);
    expect(f.api.requestsFor('bindPanelLicense')).toHaveLength(0);
    expect(f.discord.requestsFor(drainingConfirm)).toHaveLength(1);

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

    // The prompt outlived the process: after the restart the same Confirm sends it, once.
    const next = await spawnBot({ discord: f.discord, api: f.api, env: { DATABASE_URL: databaseUrl } });
    await next.waitForLog(logged('gateway ready'), 15_000);
    const again = f.discord.dispatchComponent({
      customId: confirmIdOf(openPrompt),
      message: { id: openMessage.id },
      roles: [PROCESS_ROLES.operator],
    });
    expect(callbackType(await nth(f.discord, again, 0))).toBe(7);
    expect(textOf(messageOf(await nth(f.discord, again, 1)))).toContain('License bound');
    expect(textOf(messageOf(await nth(f.discord, again, 2)))).toContain('…WXYZ');
    expect(f.api.requestsFor('bindPanelLicense').map((r) => r.query.get('license'))).toEqual([
      'DRAIN-0000-WXYZ',
    ]);
    expect(leakedTokens(next)).toEqual([]);
  }, 120_000);
});

describe('SIGTERM with a change stuck past the grace time', () => {
  it('exits 0 after the grace, long before the API timeout, and tells the owner the outcome is unknown', async () => {
    const graceMs = 1_500;
    const apiTimeoutMs = 30_000;
    const { f, bot } = await start({
      SHUTDOWN_GRACE_MS: String(graceMs),
      HOSTING_API_TIMEOUT_MS: String(apiTimeoutMs),
    });
    f.api.enqueue('bindPanelLicense', { hang: true });

    const { click } = await confirmChange(f.discord, {
      commandName: 'panel',
      subcommand: 'bind',
      options: { license: 'ABCD-1234-EFGH', ip: '203.0.113.9' },
    });
    await until(() => f.api.requestsFor('bindPanelLicense')[0], 'the change to reach the API', 5_000, 5);
    bot.kill('SIGTERM');

    const exit = await bot.exitWithin(apiTimeoutMs / 2);
    expect(exit.code, bot.output).toBe(0);
    // It gave the change the whole grace, then gave up on it instead of waiting for the API timeout.
    expect(exit.ms).toBeGreaterThanOrEqual(graceMs - 50);
    expect(exit.ms).toBeLessThan(apiTimeoutMs / 2);

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
