// The fault matrix of the outside, generated from ONE table (outsideTable.ts): each cell a case against
// the built bot and the fakes — a stranger's server (FaultyOrigin) as the provider's API, a registry, or
// the bootstrap file, and the fake DNS server as the resolver — checking that the paths which must never
// wait on the faulty dependency still finish. Cells share bots (one for the provider's and the registry's
// faults and the resolver's, one per bot-wide setting) and run at once, each on a name of its own. The
// store takes no part in these paths' faults: SQLite. docs/reliability.md's table of the outside is this
// file's output (HOSTOPS_WRITE_RELIABILITY=1 rewrites it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dig, rec, textOf } from '../../support/e2eHelpers.js';
import type { DispatchedInteraction, RecordedRequest } from '../../support/FakeDiscord.js';
import { FakeDnsServer } from '../../support/FakeDnsServer.js';
import { ROLES, startTestBot, type TestBot } from '../../support/startTestBot.js';
import { makeTestCa, type TestCa } from '../../support/testCa.js';
import { expectReliabilityTable } from '../faultMatrix/reliabilityDoc.js';
import { FaultyOrigin } from './FaultyOrigin.js';
import {
  CELLS,
  type Cell,
  type CellResult,
  cellName,
  FAULTS,
  type Fault,
  renderOutsideTable,
} from './outsideTable.js';

/** Discord's contract: an interaction is answered within 3 s (a functional bound, asserted as such). */
const ACK_MS = 3_000;
/** The API timeout of the test bots (startTestBot: HOSTING_API_TIMEOUT_MS=3000). */
const API_TIMEOUT_MS = 3_000;
/** RdapClient's per-request timeout. */
const REGISTRY_TIMEOUT_MS = 10_000;
/**
 * Slack for "within" bounds that are functional, not speed: in a full suite on the shared 2-core machine
 * an answer came 3.5 s past the provider's timeout.
 */
const SLACK_MS = 10_000;

const slug = (fault: Fault) => `f${FAULTS.indexOf(fault)}`;
const providerDomain = (fault: Fault) => `p-${slug(fault)}.example`;
const registryTld = (fault: Fault) => `r${FAULTS.indexOf(fault)}`;
const registryDomain = (fault: Fault) => `cell.${registryTld(fault)}`;
const dnsName = (fault: Fault) => `${slug(fault)}.forward.example`;

const PROVIDER_BODY = {
  expirydate: '2027-06-30',
  active: 'true',
  expired: 'false',
  transferredAway: 'false',
};
/** A domain the watch alerts on: 3 days after the test bots' pinned day (2026-11-22). */
const SOON_BODY = { ...PROVIDER_BODY, expirydate: '2026-11-25' };
const providerAnswer = (path: string) => ({ body: path.includes('/soon-') ? SOON_BODY : PROVIDER_BODY });
const registryBody = (name: string) => ({
  objectClassName: 'domain',
  ldhName: name,
  status: ['active'],
  events: [{ eventAction: 'expiration', eventDate: '2027-06-30T12:00:00Z' }],
});

let ca: TestCa;
let provider: FaultyOrigin;
let registry: FaultyOrigin;
let untrusted: FaultyOrigin;
let untrustedProvider: FaultyOrigin;
let dns: FakeDnsServer;
let main: TestBot;
let tlsProvider: TestBot;
let bootstrap: FaultyOrigin;
/** Bots of one fault each: the watch is the whole list and the bootstrap file the whole bot's. */
const perFault: TestBot[] = [];

const WATCH_CHANNEL = '300000000000000077';
/**
 * Generous: /watch check answers once every watched domain's registry was asked or given up on (the add's
 * own look and the check's may each take a registry's whole timeout), well before the 30 s issue 48 saw
 * nothing at all in.
 */
const WATCH_CHECK_MS = 2 * REGISTRY_TIMEOUT_MS + 10_000;

/** A bot of its own, for what is bot-wide: its watch list (registry), its bootstrap file. */
async function withFaultBot(env: Record<string, string>, fn: (t: TestBot) => Promise<void>): Promise<void> {
  const t = await startTestBot({
    RDAP_CHECK: 'on',
    RDAP_MIN_INTERVAL_MS: '0',
    HOSTING_API_URL: provider.origin,
    WATCH_CHANNEL_ID: WATCH_CHANNEL,
    WATCH_SCHEDULE: '0 0 1 1 *',
    ...env,
  });
  t.discord.addChannel({ id: WATCH_CHANNEL });
  perFault.push(t);
  try {
    await fn(t);
  } finally {
    perFault.splice(perFault.indexOf(t), 1);
    await t.stop();
  }
}

const faultOfPath = (prefix: (fault: Fault) => string) => (path: string) =>
  FAULTS.find((fault) => path.includes(prefix(fault)));

beforeAll(async () => {
  // Self-signed and trusted by nobody: what a TLS failure is to HostOps.
  ca = makeTestCa();
  const tls = { key: ca.key, cert: ca.cert };
  provider = await FaultyOrigin.start({
    normal: providerAnswer,
    faultOf: faultOfPath(providerDomain),
    justUnderMs: API_TIMEOUT_MS - 700,
  });
  untrustedProvider = await FaultyOrigin.start({
    normal: () => ({ body: PROVIDER_BODY }),
    faultOf: () => 'TLS failure',
    justUnderMs: 0,
    tls,
  });
  untrusted = await FaultyOrigin.start({
    normal: (path) => ({ body: registryBody(path.split('/').pop() ?? '') }),
    faultOf: () => 'TLS failure',
    justUnderMs: 0,
    tls,
  });
  registry = await FaultyOrigin.start({
    normal: (path) =>
      path.endsWith('/dns.json')
        ? {
            body: {
              version: '1.0',
              services: FAULTS.map((fault) => [
                [registryTld(fault)],
                [
                  fault === 'TLS failure'
                    ? `${untrusted.origin}/`
                    : `${registry.origin}/${registryTld(fault)}/`,
                ],
              ]),
            },
          }
        : {
            body: registryBody(decodeURIComponent(path.split('/').pop() ?? '')),
            contentType: 'application/rdap+json',
          },
    faultOf: (path) =>
      path.endsWith('/dns.json') ? undefined : FAULTS.find((f) => path.startsWith(`/${registryTld(f)}/`)),
    justUnderMs: REGISTRY_TIMEOUT_MS - 1_500,
  });
  bootstrap = await FaultyOrigin.start({
    normal: () => ({ body: { version: '1.0', services: [[['ok'], [`${registry.origin}/ok/`]]] } }),
    faultOf: faultOfPath((fault) => `/${slug(fault)}/`),
    justUnderMs: REGISTRY_TIMEOUT_MS - 1_500,
  });
  dns = await FakeDnsServer.start();
  dns.set(dnsName('no answer'), 'silent');
  const common = {
    RDAP_CHECK: 'on',
    RDAP_MIN_INTERVAL_MS: '0',
    RDNS_FORWARD_CHECK: 'warn',
    DNS_SERVERS: dns.address,
  };
  [main, tlsProvider] = await Promise.all([
    startTestBot({
      ...common,
      HOSTING_API_URL: provider.origin,
      RDAP_BOOTSTRAP_URL: `${registry.origin}/dns.json`,
    }),
    startTestBot({ ...common, HOSTING_API_URL: untrustedProvider.origin, RDAP_CHECK: 'off' }),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([main?.stop(), tlsProvider?.stop()]);
  await Promise.all([
    provider?.stop(),
    registry?.stop(),
    untrusted?.stop(),
    untrustedProvider?.stop(),
    dns?.stop(),
  ]);
  ca?.dispose();
});

/** Every request Discord got for `i` until `ms` after its dispatch (or until `settled` says enough). */
async function requestsWithin(
  t: TestBot,
  i: DispatchedInteraction,
  ms: number,
  settled: (r: RecordedRequest[]) => boolean,
) {
  const until = i.dispatchedAt + ms;
  for (;;) {
    const seen = t.discord.requestsFor(i);
    if (settled(seen) || performance.now() > until) return seen;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Acknowledged within Discord's 3 s: the first request is the interaction's callback. */
function expectAcknowledged(i: DispatchedInteraction, seen: RecordedRequest[]) {
  const ack = seen[0];
  expect(ack?.path, 'acknowledged').toBe(`/interactions/${i.id}/${i.token}/callback`);
  expect(
    (ack?.at ?? Number.POSITIVE_INFINITY) - i.dispatchedAt,
    'acknowledged within 3 s',
  ).toBeLessThanOrEqual(ACK_MS);
}

const edits = (seen: RecordedRequest[]) => seen.filter((r) => r.method === 'PATCH');

async function domainInfoCell(t: TestBot, domain: string, provider: 'answers' | 'faulty') {
  const i = t.command({
    commandName: 'domain',
    subcommand: 'info',
    options: { domain },
    roles: [ROLES.viewer],
  });
  const answeredBy = API_TIMEOUT_MS + SLACK_MS;
  const seen = await requestsWithin(t, i, answeredBy, (r) => edits(r).length >= 1);
  expectAcknowledged(i, seen);
  const [answer] = edits(seen);
  expect(answer, "an answer within the API's timeout").toBeDefined();
  expect((answer?.at ?? 0) - i.dispatchedAt).toBeLessThanOrEqual(answeredBy);
  const body = rec(answer?.body);
  if (provider === 'answers') {
    // The provider's data, whatever the registry does.
    expect(JSON.stringify(dig(body, 'embeds'))).toContain('in 220 days');
  } else {
    expect(textOf(body).length + JSON.stringify(body.embeds ?? []).length).toBeGreaterThan(0);
  }
  // Nothing sent twice: once the registry's time is over too, at most the answer and one edit of it (the
  // registry's line, which follows the provider's answer — also one that came just under the timeout).
  await new Promise((resolve) => setTimeout(resolve, provider === 'answers' ? 1_000 : 300));
  const after = t.discord.requestsFor(i);
  expect(edits(after).length).toBeLessThanOrEqual(2);
  expect(after.filter((r) => r.method === 'POST')).toHaveLength(1);
  return body;
}

/** `/watch add` then `/watch check` of `domains`: each acknowledged in 3 s, the check's answer within its deadline. */
async function watchCheckCell(t: TestBot, domains: string) {
  const add = t.command({ commandName: 'watch', subcommand: 'add', options: { domains } });
  const added = await requestsWithin(t, add, ACK_MS + SLACK_MS, (r) => r.length >= 1);
  expectAcknowledged(add, added);
  const check = t.command({ commandName: 'watch', subcommand: 'check' });
  const seen = await requestsWithin(t, check, WATCH_CHECK_MS, (r) => edits(r).length >= 1);
  expectAcknowledged(check, seen);
  expect(edits(seen).length, '/watch check answered within its deadline').toBeGreaterThanOrEqual(1);
  expect(edits(t.discord.requestsFor(check)).length, 'answered once').toBe(1);
}

const RUNNERS: Partial<Record<Cell['dependency'], (cell: Cell) => Promise<void>>> = {
  'provider API': async ({ fault }) => {
    const t = fault === 'TLS failure' ? tlsProvider : main;
    await domainInfoCell(t, providerDomain(fault), 'faulty');
  },
  'registry (RDAP)': async ({ fault }) => {
    await domainInfoCell(main, registryDomain(fault), 'answers');
    // A healthy registry's domain beside the faulty one's: the watch answers for both.
    await withFaultBot({ RDAP_BOOTSTRAP_URL: `${registry.origin}/dns.json` }, (own) =>
      watchCheckCell(own, `${registryDomain(fault)} fine.ok`),
    );
    if (fault === 'redirect to an internal address') {
      expect(registry.internalConnections, 'nothing reached the internal address').toBe(0);
    }
  },
  'bootstrap file': async ({ fault }) => {
    const origin = fault === 'TLS failure' ? untrusted.origin : bootstrap.origin;
    await withFaultBot({ RDAP_BOOTSTRAP_URL: `${origin}/${slug(fault)}/dns.json` }, async (own) => {
      await domainInfoCell(own, 'cell.ok', 'answers');
      await watchCheckCell(own, 'fine.ok');
    });
    if (fault === 'redirect to an internal address') {
      expect(bootstrap.internalConnections, 'nothing reached the internal address').toBe(0);
    }
  },
  'Discord REST API': async ({ fault }) => {
    await withFaultBot({ RDAP_CHECK: 'off' }, async (own) => {
      // The watch channel's posts (the digest) fail as the cell says; interactions' callbacks do not.
      own.discord.faultChannelPosts(WATCH_CHANNEL, fault === 'no answer' ? 'hold' : 'drop');
      const domain = `soon-${slug(fault)}.example`;
      await watchCheckCell(own, domain);
      // Meanwhile a command is acknowledged and answered as ever.
      await domainInfoCell(own, 'other.example', 'faulty');
      // The digest was tried (the fault was met), and nothing posted twice: at most one line for the domain.
      const tried = own.discord.requests.filter(
        (r) => r.method === 'POST' && r.path === `/channels/${WATCH_CHANNEL}/messages`,
      );
      expect(tried.length, 'the digest was posted to the faulty channel').toBeGreaterThanOrEqual(1);
      const posted = own.discord.channelMessages(WATCH_CHANNEL).filter((m) => m.content.includes(domain));
      expect(posted.length).toBeLessThanOrEqual(1);
    });
  },
  'DNS resolver': async ({ fault }) => {
    const i = main.command({
      commandName: 'server',
      subcommand: 'rdns',
      options: { id: 42, ip: '203.0.113.7', hostname: dnsName(fault) },
    });
    const seen = await requestsWithin(main, i, ACK_MS + 2_000 + SLACK_MS, (r) => edits(r).length >= 1);
    expectAcknowledged(i, seen);
    const prompt = edits(seen)[0] ?? seen[0];
    expect(JSON.stringify(prompt?.body)).toContain('Forward DNS');
    expect(edits(main.discord.requestsFor(i)).length).toBeLessThanOrEqual(1);
  },
};

const results: CellResult[] = [];

describe('the fault matrix of the outside', () => {
  for (const cell of CELLS) {
    if (cell.skip) continue;
    const runner = RUNNERS[cell.dependency];
    if (!runner) continue;
    const test = cell.pendingOn ? it.fails : it;
    test(cellName(cell), { concurrent: true, timeout: 60_000 }, async () => {
      try {
        await runner(cell);
        results.push({ cell, outcome: 'holds' });
      } catch (error) {
        results.push({ cell, outcome: String((error as Error).message).split('\n')[0] ?? 'failed' });
        throw error;
      }
    });
  }
});

// The table in docs/reliability.md is this run's output (only a whole run writes or checks it).
afterAll(() => {
  const run = CELLS.filter((c) => !c.skip && RUNNERS[c.dependency]);
  if (results.length !== run.length) return;
  expectReliabilityTable('outside', renderOutsideTable(results));
});
