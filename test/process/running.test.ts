// One real HostOps process, kept running through the file: /healthz across start-up and a gateway drop,
// /metrics after known commands, gateway faults it must survive, and a hanging provider.
// The tests use different commands so that none changes what another counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DispatchedInteraction } from '../support/FakeDiscord.js';
import { defaultResponders } from '../support/FakeHostingApi.js';
import {
  callbackType,
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

const HEARTBEAT_MS = 400;
const API_TIMEOUT_MS = 1_500;
const HANGING_DOMAIN = 'hanging-provider.com';

let f: Fakes;
let bot: SpawnedBot;
/** /healthz answers seen while the process was starting (before the gateway session was ready). */
let startupHealth: { status: number; body: Record<string, unknown> } | undefined;

beforeAll(async () => {
  f = await startFakes({ heartbeatIntervalMs: HEARTBEAT_MS });
  // Discord answers slowly at first, so the process sits in "starting" long enough to be asked.
  f.discord.setRestDelay(1_500);
  f.api.respond('domainInfo', (request) =>
    request.param === HANGING_DOMAIN ? { hang: true } : defaultResponders.domainInfo(request),
  );
  bot = await spawnBot({
    discord: f.discord,
    api: f.api,
    env: { HOSTING_API_TIMEOUT_MS: String(API_TIMEOUT_MS) },
  });
  startupHealth = await until(
    async () => {
      if (bot.exit) throw new Error(`the process exited during start-up:\n${bot.output}`);
      try {
        const response = await bot.get('/healthz');
        return { status: response.status, body: response.json() };
      } catch {
        return undefined; // not listening yet
      }
    },
    '/healthz to answer during start-up',
    15_000,
    20,
  );
  f.discord.setRestDelay(0);
  await bot.waitForLog(logged('gateway ready'), 15_000);
}, 30_000);

afterAll(async () => {
  await killSpawned();
  await f?.stop();
});

async function health(): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await bot.get('/healthz');
  return { status: response.status, body: response.json() };
}

/** Polls /healthz until it answers with this status. */
function healthBecomes(status: number, timeoutMs: number, stepMs = 5) {
  return until(
    async () => {
      const h = await health();
      return h.status === status ? h : undefined;
    },
    `/healthz ${status}`,
    timeoutMs,
    stepMs,
  );
}

async function metrics(): Promise<string> {
  const response = await bot.get('/metrics');
  expect(response.status).toBe(200);
  return response.text;
}

function sample(text: string, name: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

/** /help: an instant ephemeral answer that touches no API. */
async function expectHelpAnswered(timeoutMs = 5_000): Promise<DispatchedInteraction> {
  const i = f.discord.dispatchInteraction({ commandName: 'help', roles: [PROCESS_ROLES.viewer] });
  const reply = await nth(f.discord, i, 0, timeoutMs);
  expect(callbackType(reply)).toBe(4);
  expect(textOf(messageOf(reply))).toContain('HostOps commands');
  return i;
}

describe('/healthz', () => {
  it('is 503 before the gateway session is ready', () => {
    expect(startupHealth?.status).toBe(503);
    expect(startupHealth?.body).toMatchObject({ status: 'unavailable', gateway: 'starting' });
  });

  it('is 200 with gateway state, uptime and API history when ready', async () => {
    const h = await healthBecomes(200, 2_000);
    expect(h.body).toMatchObject({ status: 'ok', gateway: 'ready', store: 'ok' });
    // Which replica answered: host:pid:random, the pid being this very process.
    expect(String(h.body.replica)).toMatch(new RegExp(`^.+:${bot.child.pid}:[0-9a-f]{6}$`));
    expect(typeof h.body.uptimeSeconds).toBe('number');
    expect(h.body.uptimeSeconds).toBeGreaterThanOrEqual(0);
    expect(h.body).toHaveProperty('lastApiSuccess');
    expect(h.body).toHaveProperty('lastApiFailure');
  });

  it('is 503 after the gateway drops and 200 again once the session is resumed', async () => {
    const resumes = f.discord.resumeCount;
    f.discord.dropGateway();
    const down = await healthBecomes(503, 1_000, 2);
    expect(down.body).toMatchObject({ status: 'unavailable', gateway: 'reconnecting' });
    await until(() => f.discord.resumeCount > resumes || undefined, 'the session to resume', 5_000);
    await healthBecomes(200, 2_000);
  });
});

describe('/metrics', () => {
  it('counts a refused and a successful command, acknowledgement times, API calls and process metrics', async () => {
    const refused = f.discord.dispatchInteraction({
      commandName: 'server',
      subcommand: 'rdns',
      options: { id: 42, ip: '203.0.113.7', hostname: 'host.example.com' },
      roles: [],
    });
    const refusal = await nth(f.discord, refused, 0);
    expect(isEphemeral(messageOf(refusal))).toBe(true);
    const info = f.discord.dispatchInteraction({
      commandName: 'domain',
      subcommand: 'info',
      options: { domain: 'example.com' },
      roles: [PROCESS_ROLES.viewer],
    });
    await nth(f.discord, info, 1);
    await bot.waitForLog(logged('command finished', { command: '/server rdns', outcome: 'refused' }));
    await bot.waitForLog(logged('command finished', { command: '/domain info', outcome: 'ok' }));

    const text = await metrics();
    expect(text).toContain('hostops_commands_total{command="/server rdns",outcome="refused"} 1');
    expect(text).toContain('hostops_commands_total{command="/domain info",outcome="ok"} 1');
    expect(text).toMatch(/^hostops_api_requests_total\{operation="domainInfo",status="200"\} 1$/m);
    for (const command of ['/server rdns', '/domain info']) {
      expect(text).toContain(`hostops_command_ack_seconds_bucket{le="+Inf",command="${command}"} 1`);
      expect(text).toContain(`hostops_command_ack_seconds_count{command="${command}"} 1`);
    }
    expect(text).toMatch(/^hostops_command_ack_seconds_bucket\{le="0\.1",command="\/domain info"\} [01]$/m);
    expect(text).toMatch(/^hostops_api_request_duration_seconds_count\{operation="domainInfo"\} 1$/m);
    expect(text).toContain('# TYPE hostops_command_duration_seconds histogram');
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    expect(f.api.requestsFor('setReverseDns')).toHaveLength(0);

    // /healthz remembers the provider's last good answer.
    const h = await health();
    expect(typeof h.body.lastApiSuccess).toBe('string');
    expect(Date.parse(String(h.body.lastApiSuccess))).not.toBeNaN();
  });
});

describe('gateway faults end in a resumed session', () => {
  const faults: [string, () => void, () => void][] = [
    ['close 4000', () => f.discord.closeGateway(4000), () => {}],
    ['a dropped socket', () => f.discord.dropGateway(), () => {}],
    ['a RECONNECT request', () => f.discord.requestReconnect(), () => {}],
    [
      'missing heartbeat acks',
      () => f.discord.setHeartbeatAcks(false),
      () => f.discord.setHeartbeatAcks(true),
    ],
  ];
  it.each(faults)('%s → resume, /healthz 200, the next command is answered', async (_, fault, heal) => {
    const resumes = f.discord.resumeCount;
    const identifies = f.discord.identifyCount;
    const reconnects = sample(await metrics(), 'hostops_gateway_reconnects_total') ?? 0;
    const from = bot.lines.length;
    fault();
    try {
      await until(
        () => f.discord.resumeCount > resumes || undefined,
        'the session to resume',
        3 * HEARTBEAT_MS + 4_000,
      );
    } finally {
      heal();
    }
    expect(f.discord.identifyCount).toBe(identifies);
    await bot.waitForLog((l) => l.json.msg === 'gateway session resumed' && bot.lines.indexOf(l) >= from);
    await healthBecomes(200, 2_000);
    await expectHelpAnswered();
    await until(
      async () =>
        (sample(await metrics(), 'hostops_gateway_reconnects_total') ?? 0) > reconnects || undefined,
      'hostops_gateway_reconnects_total to grow',
      2_000,
    );
  });
});

describe('a hanging provider', () => {
  it('tells the user within the timeout, while other commands are answered meanwhile', async () => {
    const slow = f.discord.dispatchInteraction({
      commandName: 'domain',
      subcommand: 'info',
      options: { domain: HANGING_DOMAIN },
      roles: [PROCESS_ROLES.viewer],
    });
    await until(
      () => f.api.requestsFor('domainInfo').find((r) => r.param === HANGING_DOMAIN),
      'the lookup to reach the API',
      3_000,
      5,
    );
    const quick = f.discord.dispatchInteraction({
      commandName: 'server',
      subcommand: 'logs',
      options: { id: 7 },
      roles: [PROCESS_ROLES.viewer],
    });
    const quickAnswer = await nth(f.discord, quick, 1, 3_000);
    expect(textOf(messageOf(quickAnswer))).toContain('Server 7');

    const slowAnswer = await nth(f.discord, slow, 1, 4_000);
    expect(quickAnswer.at).toBeLessThan(slowAnswer.at);
    expect(slowAnswer.at - slow.dispatchedAt).toBeLessThanOrEqual(2_500);
    expect(slowAnswer.at - slow.dispatchedAt).toBeGreaterThanOrEqual(API_TIMEOUT_MS - 100);
    expect(textOf(messageOf(slowAnswer))).toMatch(/no answer .*within/i);
    // A read may be retried, but never past the timeout.
    expect(f.api.requestsFor('domainInfo').filter((r) => r.param === HANGING_DOMAIN)).toHaveLength(1);

    const h = await health();
    expect(h.status).toBe(200);
    expect(h.body.lastApiFailure).toMatchObject({ operation: 'domainInfo' });
  });
});

it('never writes a token to its output', () => {
  expect(bot.lines.length).toBeGreaterThan(10);
  expect(leakedTokens(bot)).toEqual([]);
});
