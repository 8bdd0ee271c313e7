// One real HostOps process, kept running through the file: /healthz across start-up and a gateway drop,
// /metrics after known commands, gateway faults it must survive, a hanging provider, and /musicbot create
// with the real password generator.
// The tests use different commands so that none changes what another counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DispatchedInteraction } from '../support/FakeDiscord.js';
import { defaultResponders } from '../support/FakeHostingApi.js';
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

const HEARTBEAT_MS = 400;
const API_TIMEOUT_MS = 1_500;
const HANGING_DOMAIN = 'hanging-provider.com';

let f: Fakes;
let bot: SpawnedBot;
/** performance.now() just before the process was spawned, and once it was ready. */
let spawnedAt = 0;
let readyAt = 0;
/** /healthz answers seen while the process was starting (before the gateway session was ready). */
let startupHealth: { status: number; body: Record<string, unknown> } | undefined;

beforeAll(async () => {
  f = await startFakes({ heartbeatIntervalMs: HEARTBEAT_MS });
  // Discord answers slowly at first, so the process sits in "starting" long enough to be asked.
  f.discord.setRestDelay(1_500);
  f.api.respond('domainInfo', (request) =>
    request.param === HANGING_DOMAIN ? { hang: true } : defaultResponders.domainInfo(request),
  );
  spawnedAt = performance.now();
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
  readyAt = performance.now();
}, 120_000);

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

/** Every sample of a histogram for one label set, as `{ buckets: {le: count}, sum, count }`. */
function histogram(text: string, name: string, labels: string) {
  const buckets: Record<string, number> = {};
  let sum: number | undefined;
  let count: number | undefined;
  for (const line of text.split('\n')) {
    const bucket = new RegExp(`^${name}_bucket\\{le="([^"]+)",${labels}\\} (\\S+)$`).exec(line);
    if (bucket?.[1] !== undefined) buckets[bucket[1]] = Number(bucket[2]);
    if (line.startsWith(`${name}_sum{${labels}} `)) sum = Number(line.split(' ').at(-1));
    if (line.startsWith(`${name}_count{${labels}} `)) count = Number(line.split(' ').at(-1));
  }
  return { buckets, sum, count };
}

/**
 * A histogram holding exactly one observation: its count is 1, and each bucket counts it exactly when
 * the observed value (the sum) is at most the bucket's bound — whatever the value, on any machine.
 */
function expectOneObservation(text: string, name: string, labels: string): number {
  const { buckets, sum, count } = histogram(text, name, labels);
  expect(count, `${name}{${labels}}`).toBe(1);
  expect(sum).toBeGreaterThan(0);
  const bounds = Object.keys(buckets);
  expect(bounds.length).toBeGreaterThan(2);
  for (const le of bounds) {
    const bound = le === '+Inf' ? Number.POSITIVE_INFINITY : Number(le);
    expect(buckets[le], `${name}_bucket{le="${le}",${labels}} with sum ${sum}`).toBe(
      (sum ?? 0) <= bound ? 1 : 0,
    );
  }
  return sum ?? 0;
}

/** The line the bot logs when a command ends, for this command and outcome (waits for it). */
const finished = (command: string, outcome: string) =>
  bot.waitForLog(logged('command finished', { command, outcome }));

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
    // Whole seconds since the process started: no more than have passed since it was spawned.
    expect(Number.isInteger(h.body.uptimeSeconds)).toBe(true);
    expect(h.body.uptimeSeconds).toBeGreaterThanOrEqual(0);
    expect(h.body.uptimeSeconds).toBeLessThanOrEqual(Math.ceil((performance.now() - spawnedAt) / 1000));
    // Nothing has called the provider yet.
    expect(f.api.requests).toHaveLength(0);
    expect(h.body.lastApiSuccess).toBeNull();
    expect(h.body.lastApiFailure).toBeNull();
    expect(Object.keys(h.body).sort()).toEqual(
      ['gateway', 'lastApiFailure', 'lastApiSuccess', 'replica', 'status', 'store', 'uptimeSeconds'].sort(),
    );
    expect(readyAt).toBeGreaterThan(spawnedAt);
  });

  it('is 503 while the gateway is down and 200 again once the session is resumed', async () => {
    const resumes = f.discord.resumeCount;
    // The fake holds the resume until /healthz has been seen reporting the outage.
    const release = f.discord.holdSessions();
    try {
      f.discord.dropGateway();
      const down = await healthBecomes(503, 5_000);
      expect(down.body).toMatchObject({ status: 'unavailable', gateway: 'reconnecting' });
      await until(() => f.discord.heldSessionCount > 0 || undefined, 'the bot to ask for its session back');
      expect((await health()).status).toBe(503);
    } finally {
      release();
    }
    await until(() => f.discord.resumeCount > resumes || undefined, 'the session to resume', 5_000);
    await healthBecomes(200, 5_000);
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
      const ack = expectOneObservation(text, 'hostops_command_ack_seconds', `command="${command}"`);
      // Discord accepted the answer within its 3 s (the fake refuses anything later).
      expect(ack).toBeLessThan(3);
    }
    // The duration of a read runs to its answer, so it is at least its acknowledgement.
    const readAck = histogram(text, 'hostops_command_ack_seconds', 'command="/domain info"').sum ?? 0;
    const readDuration = expectOneObservation(
      text,
      'hostops_command_duration_seconds',
      'command="/domain info",outcome="ok"',
    );
    expect(readDuration).toBeGreaterThanOrEqual(readAck);
    expectOneObservation(
      text,
      'hostops_command_duration_seconds',
      'command="/server rdns",outcome="refused"',
    );
    expectOneObservation(text, 'hostops_api_request_duration_seconds', 'operation="domainInfo"');
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    expect(f.api.requestsFor('setReverseDns')).toHaveLength(0);

    // /healthz remembers the provider's last good answer: the lookup just made.
    const h = await health();
    const lookup = f.api.requestsFor('domainInfo')[0];
    if (!lookup) throw new Error('no lookup');
    const at = Date.parse(String(h.body.lastApiSuccess));
    const lookupAt = performance.timeOrigin + lookup.at;
    expect(at).toBeGreaterThanOrEqual(Math.floor(lookupAt) - 1);
    expect(at).toBeLessThanOrEqual(Date.now());
    expect(h.body.lastApiFailure).toBeNull();
  });

  it('counts invalid, failed and cancelled commands, retried API calls, and how long each command took', async () => {
    // Invalid input: refused before any API call.
    const invalid = f.discord.dispatchInteraction({
      commandName: 'server',
      subcommand: 'logs',
      options: { id: -1 },
      roles: [PROCESS_ROLES.viewer],
    });
    expect(isEphemeral(messageOf(await nth(f.discord, invalid, 0)))).toBe(true);
    await finished('/server logs', 'invalid');
    // Failed: the provider answers 500 (not retried).
    f.api.enqueue('serverLog', { status: 500, body: { error: 'boom' } });
    const failed = f.discord.dispatchInteraction({
      commandName: 'server',
      subcommand: 'logs',
      options: { id: 8 },
      roles: [PROCESS_ROLES.viewer],
    });
    expect(textOf(messageOf(await nth(f.discord, failed, 1)))).toMatch(/provider returned an error \(500\)/);
    await finished('/server logs', 'failed');
    // Retried: a 503 with Retry-After 0, then the answer.
    f.api.enqueue('serverLog', { status: 503, headers: { 'retry-after': '0' }, body: {} });
    const retried = f.discord.dispatchInteraction({
      commandName: 'server',
      subcommand: 'logs',
      options: { id: 9 },
      roles: [PROCESS_ROLES.viewer],
    });
    expect(textOf(messageOf(await nth(f.discord, retried, 1)))).toContain('Server 9');
    await finished('/server logs', 'ok');
    // Cancelled: a prompt, then Cancel.
    const change = f.discord.dispatchInteraction({
      commandName: 'domain',
      subcommand: 'dns',
      options: { domain: 'example.com', records: 'www 3600 A 203.0.113.7' },
      roles: [PROCESS_ROLES.operator],
    });
    const prompt = await nth(f.discord, change, 0);
    const message = f.discord.originalMessage(change);
    if (!message) throw new Error('no prompt');
    const cancel = f.discord.dispatchComponent({
      customId: confirmIdOf(prompt).replace(':confirm:', ':cancel:'),
      message: { id: message.id },
      roles: [PROCESS_ROLES.operator],
    });
    expect(textOf(messageOf(await nth(f.discord, cancel, 0)))).toContain('Cancelled');
    await finished('/domain dns', 'cancelled');

    const text = await metrics();
    for (const [command, outcome] of [
      ['/server logs', 'invalid'],
      ['/server logs', 'failed'],
      ['/server logs', 'ok'],
      ['/domain dns', 'cancelled'],
    ] as const) {
      expect(text).toContain(`hostops_commands_total{command="${command}",outcome="${outcome}"} 1`);
      expectOneObservation(
        text,
        'hostops_command_duration_seconds',
        `command="${command}",outcome="${outcome}"`,
      );
    }
    expect(text).toMatch(/^hostops_api_retries_total\{operation="serverLog"\} 1$/m);
    expect(text).toMatch(/^hostops_api_requests_total\{operation="serverLog",status="503"\} 1$/m);
    expect(text).toMatch(/^hostops_api_requests_total\{operation="serverLog",status="500"\} 1$/m);
    expect(text).toMatch(/^hostops_api_requests_total\{operation="serverLog",status="200"\} 1$/m);
    expect(f.api.requestsFor('serverLog').map((r) => r.param)).toEqual(['8', '9', '9']);
    expect(f.api.requestsFor('submitDnsRecords')).toHaveLength(0);
    // (`expired` is counted in test/e2e/timing.test.ts, where a prompt is left to run out.)
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

    const slowAnswer = await nth(f.discord, slow, 1, 3 * API_TIMEOUT_MS);
    // The quick one was not held up behind the hanging one, which was answered once its timeout ran out.
    expect(quickAnswer.at).toBeLessThan(slowAnswer.at);
    // (The budget starts once the bot has the command, after it was dispatched.)
    expect(slowAnswer.at - slow.dispatchedAt).toBeGreaterThanOrEqual(API_TIMEOUT_MS - 50);
    expect(textOf(messageOf(slowAnswer))).toMatch(/no answer .*within/i);
    // A read may be retried, but never past the timeout.
    expect(f.api.requestsFor('domainInfo').filter((r) => r.param === HANGING_DOMAIN)).toHaveLength(1);

    const h = await health();
    expect(h.status).toBe(200);
    const failure = h.body.lastApiFailure as Record<string, unknown>;
    expect(failure).toMatchObject({ operation: 'domainInfo', outcome: 'timeout' });
    expect(Date.parse(String(failure.at))).toBeGreaterThanOrEqual(
      Math.floor(performance.timeOrigin + slow.dispatchedAt),
    );
    expect(Date.parse(String(failure.at))).toBeLessThanOrEqual(Date.now());
  });
});

describe('/musicbot create with the real password generator', () => {
  it('sends a fresh 24-character password to the API and shows it to the invoker only, never in a log line', async () => {
    const { click } = await confirmChange(f.discord, {
      commandName: 'musicbot',
      subcommand: 'create',
      options: { username: 'dj-process', email: 'dj@example.com', storage: '1GB', bots: 1 },
    });
    const outcome = await nth(f.discord, click, 1);
    const publicRecord = await nth(f.discord, click, 2);
    await finished('/musicbot create', 'done');

    const [sent] = f.api.requestsFor('createMusicBotUser');
    const password = sent?.query.get('password') ?? '';
    expect(password).toMatch(/^[A-HJ-NP-Za-km-z2-9]{24}$/);
    expect(password).toMatch(/[a-z]/);
    expect(password).toMatch(/[A-Z]/);
    expect(password).toMatch(/[0-9]/);
    // The invoker's (ephemeral) prompt, turned into the outcome, shows it.
    expect(outcome.message?.ephemeral).toBe(true);
    expect(textOf(messageOf(outcome))).toContain(password);
    // Nothing anyone else sees carries it, and the process never wrote it anywhere.
    expect(publicRecord.message?.ephemeral).toBe(false);
    const carrying = f.discord.requests.filter((r) => JSON.stringify(r.body ?? '').includes(password));
    expect(carrying).toEqual([outcome]);
    expect(bot.lines.some(logged('change confirmed, sending'))).toBe(true);
    expect(bot.output).not.toContain(password);
  });
});

it('never writes a token to its output', () => {
  expect(bot.lines.length).toBeGreaterThan(10);
  expect(leakedTokens(bot)).toEqual([]);
});
