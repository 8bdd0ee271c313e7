// What settles a change when its sender stalls, on PostgreSQL with real processes: replica A sends a DNS
// set (the provider answers `done`, but only once A has stopped) and a panel binding (never answered),
// then freezes (SIGSTOP). Replica B, started meanwhile, finds A's lease gone and records both `unknown` —
// the DNS set is remembered then, as sent when A sent it, so `/domain records` shows it. A wakes up with
// the provider's `done` (refused: it lost the lease; the set stays remembered) and is stopped (SIGTERM)
// while the binding still hangs: its shutdown gives the binding up, but B has already settled it, so A
// tells nobody — one `unknown` audit row, one audit-channel line, one channel notice per change.
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { type DnsSet, openStore, type Store } from '../../src/store/index.js';
import type { DispatchedInteraction, FakeDiscord, InteractionOptions } from '../support/FakeDiscord.js';
import { defaultResponders } from '../support/FakeHostingApi.js';
import {
  callbackType,
  confirmIdOf,
  type Fakes,
  killSpawned,
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
import { createDatabase } from '../support/startPostgres.js';

const AUDIT_CHANNEL = '500000000000000077';
const DOMAIN = 'stalled-sender.example';
const RECORDS = 'www 3600 A 192.0.2.44\n@ MX 10 mail.example.com.';
const HANGING_LICENSE = 'HANG-0000-WXYZ';

let fakes: Fakes;
let store: Store;
let databaseUrl = '';
const bots: SpawnedBot[] = [];

async function replica(): Promise<SpawnedBot> {
  const bot = await spawnBot({
    discord: fakes.discord,
    api: fakes.api,
    env: {
      DATABASE_URL: databaseUrl,
      AUDIT_CHANNEL_ID: AUDIT_CHANNEL,
      // Far beyond the test: the lease, not the client's timeout, ends what the frozen replica sent.
      HOSTING_API_TIMEOUT_MS: '120000',
      SHUTDOWN_GRACE_MS: '1000',
    },
  });
  bots.push(bot);
  await bot.waitForLog(logged('gateway ready'), 20_000);
  return bot;
}

beforeAll(async () => {
  fakes = await startFakes({ sessions: 'all' });
  fakes.discord.addChannel({ id: AUDIT_CHANNEL });
  databaseUrl = await createDatabase(inject('postgresUrl'), 'outcome_after_lease_loss');
  // Answered `done`, but late: by then the sender is frozen, and the answer waits in its socket.
  fakes.api.respond('submitDnsRecords', async (request) => ({
    ...(await defaultResponders.submitDnsRecords(request)),
    delayMs: 4_000,
  }));
  fakes.api.respond('bindPanelLicense', (request) =>
    request.query.get('license') === HANGING_LICENSE
      ? { hang: true }
      : defaultResponders.bindPanelLicense(request),
  );
  store = await openStore(databaseUrl);
}, 120_000);

afterAll(async () => {
  for (const bot of bots) if (bot.exit === undefined) bot.kill('SIGCONT');
  await killSpawned();
  await store?.close();
  await fakes?.stop();
});

/** Opens a change's prompt (answered at once, or deferred and then edited) and presses its Confirm. */
async function confirm(discord: FakeDiscord, command: InteractionOptions) {
  const roles = [PROCESS_ROLES.operator];
  const dispatched = discord.dispatchInteraction({ ...command, roles });
  const first = await nth(discord, dispatched, 0);
  const prompt = callbackType(first) === 5 ? await nth(discord, dispatched, 1) : first;
  const message = discord.originalMessage(dispatched);
  if (!message) throw new Error('no prompt message');
  const customId = confirmIdOf(prompt);
  const click = discord.dispatchComponent({ customId, message: { id: message.id }, roles });
  return { click, recordId: customId.split(':')[2] ?? '' };
}

/** `/domain records` for the domain, answered by whichever replica is up: its text. */
async function domainRecords(discord: FakeDiscord): Promise<string> {
  const read: DispatchedInteraction = discord.dispatchInteraction({
    commandName: 'domain',
    subcommand: 'records',
    options: { domain: DOMAIN },
    roles: [PROCESS_ROLES.viewer],
  });
  const answer = await until(
    () => discord.requestsFor(read).find((r) => r.method === 'PATCH' || callbackType(r) === 4),
    'the /domain records answer',
  );
  return textOf(messageOf(answer));
}

/** What the tests below share, in order: the two replicas and the changes A sent before it froze. */
let a: SpawnedBot | undefined;
let b: SpawnedBot | undefined;
let dns: { click: DispatchedInteraction; recordId: string } | undefined;
let bind: { click: DispatchedInteraction; recordId: string } | undefined;
let orphaned: DnsSet | undefined;

function scenario() {
  if (!a || !b || !dns || !bind) throw new Error('the frozen sender was not set up');
  return { a, b, dns, bind };
}

it("the orphan sweep settles a frozen sender's DNS change: its set is remembered, unknown, as sent when it was sent", async () => {
  const { discord, api } = fakes;
  a = await replica();
  const confirmedAt = Date.now();
  dns = await confirm(discord, {
    commandName: 'domain',
    subcommand: 'dns',
    options: { domain: DOMAIN, records: RECORDS },
  });
  await until(() => api.requestsFor('submitDnsRecords')[0], 'the DNS set at the API');
  bind = await confirm(discord, {
    commandName: 'panel',
    subcommand: 'bind',
    options: { license: HANGING_LICENSE, ip: '203.0.113.9' },
  });
  await until(() => api.requestsFor('bindPanelLicense')[0], 'the binding at the API');
  a.kill('SIGSTOP');
  // Frozen before the provider answered the DNS set.
  expect(a.lines.some(logged('change applied'))).toBe(false);

  // B finds A's lease gone (15 s by the store's clock, then its next sweep) and settles both, once.
  b = await replica();
  const ids = [dns.recordId, bind.recordId];
  await until(
    async () => {
      const states = await Promise.all(ids.map(async (id) => (await store.changes.get(id))?.state));
      return states.every((state) => state === 'unknown') || undefined;
    },
    'both changes settled unknown by B',
    45_000,
    250,
  );
  orphaned = await store.dnsSets.latest(DOMAIN);
  expect(orphaned).toMatchObject({ changeId: dns.recordId, outcome: 'unknown' });
  const sentAt = orphaned?.sentAt.getTime() ?? 0;
  const settledAt = (await store.changes.get(dns.recordId))?.updatedAt.getTime() ?? 0;
  expect(sentAt).toBeGreaterThanOrEqual(confirmedAt - 1_000);
  // A's last heartbeat came at most 5 s before it froze, and its lease ran 15 s from there.
  expect(sentAt).toBeLessThanOrEqual(settledAt - 10_000);
  const shown = await domainRecords(discord);
  expect(shown).toContain('www 3600 A 192.0.2.44');
  expect(shown).toContain('(outcome unknown)');
}, 120_000);

it("the frozen sender wakes with the provider's done: refused (it lost the lease), and the set stays the domain's", async () => {
  const { a, dns } = scenario();
  a.kill('SIGCONT');
  await a.waitForLog(
    logged('lease lost while sending: another replica recorded the outcome as unknown', {
      change: dns.recordId,
      answered: 'done',
    }),
    20_000,
  );
  expect((await store.changes.get(dns.recordId))?.state).toBe('unknown');
  expect(await store.dnsSets.latest(DOMAIN)).toEqual(orphaned);
  expect(orphaned).toBeDefined();
  const shown = await domainRecords(fakes.discord);
  expect(shown).toContain('www 3600 A 192.0.2.44');
  expect(shown).toContain('(outcome unknown)');
}, 120_000);

it('stopped after losing its lease, the sender gives up a change another replica settled: one outcome, told once', async () => {
  const { discord, api } = fakes;
  const { a, b, dns, bind } = scenario();
  // Stopped while the binding still hangs: past its grace, A gives it up — but B settled it already.
  a.kill('SIGTERM');
  expect((await a.exitWithin(20_000)).code, a.output).toBe(0);
  expect(
    a.lines.some(
      logged('lease lost while sending: another replica recorded the outcome as unknown', {
        change: bind.recordId,
      }),
    ),
    a.output,
  ).toBe(true);
  expect((await store.changes.get(bind.recordId))?.state).toBe('unknown');

  // One audit row per change, `unknown`, written by B.
  const { rows } = await store.audit.query({}, { limit: 100, offset: 0 });
  const endsOf = (id: string) =>
    rows.filter((row) => row.changeId === id).map((row) => `${row.outcome} (${row.detail})`);
  expect(endsOf(dns.recordId)).toEqual(['unknown (replica stopped)']);
  expect(endsOf(bind.recordId)).toEqual(['unknown (replica stopped)']);
  // One line in the audit channel, and one notice in the change's channel.
  const reference = (await store.changes.get(bind.recordId))?.correlationId ?? '';
  const auditLines = discord.channelMessages(AUDIT_CHANNEL).filter((m) => m.content.includes(reference));
  expect(auditLines.map((m) => m.content)).toHaveLength(1);
  expect(auditLines[0]?.content).toContain('**unknown** (replica stopped)');
  const notices = discord
    .channelMessages()
    .filter((m) => m.content.includes('**outcome unknown** for `/panel bind`'));
  expect(notices).toHaveLength(1);
  // The binding's prompt tells what B recorded, not a shutdown of A's own making.
  const edits = discord
    .requestsFor(bind.click)
    .filter((r) => r.method === 'PATCH' && r.path.endsWith('/messages/@original'));
  const lastEdit = edits.at(-1);
  if (!lastEdit) throw new Error("the binding's prompt was never edited");
  const last = textOf(messageOf(lastEdit));
  expect(last).toContain('another replica took the change over');
  expect(last).not.toContain('had to restart');
  // Nothing was sent twice.
  expect(api.requestsFor('bindPanelLicense')).toHaveLength(1);
  expect(api.requestsFor('submitDnsRecords')).toHaveLength(1);
  expect(b.exit).toBeUndefined();
}, 120_000);
