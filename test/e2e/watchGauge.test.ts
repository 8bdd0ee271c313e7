// What GET /metrics of the built bot says about the watched domains after watch runs through the fakes:
// the expiry instant (hostops_watch_domain_expiry_timestamp_seconds), computed once per change of the watch
// data (the store's change stamp) and the same on every replica; the deprecated days gauge is gone. Two replicas on one PostgreSQL store; exact instants in the API's zone
// and a long list (read from the store in pages, rendered a piece at a time) on both engines.
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { FakeHostingApi } from '../support/FakeHostingApi.js';
import { freePort } from '../support/freePort.js';
import { createDatabase } from '../support/startPostgres.js';
import { ROLES, startTestBot, type TestBot, tempDatabaseUrl } from '../support/startTestBot.js';
import { watchedDomains } from '../support/watchedDomains.js';

const WATCH_CHANNEL = '300000000000000078';
const TIMESTAMP = 'hostops_watch_domain_expiry_timestamp_seconds';
const DAY_S = 86_400;

/** A bot with the watch on and /metrics served on a port of its own. */
async function startWatchBot(env: Record<string, string>, api: FakeHostingApi): Promise<TestBot> {
  const t = await startTestBot(
    {
      WATCH_CHANNEL_ID: WATCH_CHANNEL,
      WATCH_SCHEDULE: '0 0 1 1 *',
      HTTP_PORT: String(await freePort()),
      ...env,
    },
    { api },
  );
  t.discord.addChannel({ id: WATCH_CHANNEL });
  return t;
}

/** GET /metrics as Prometheus would, over HTTP. */
async function scrape(t: TestBot): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${t.bot.http?.port}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

/** The samples of one metric family: `{domain: value}` ('' for a sample without labels). */
function series(text: string, name: string): Map<string, number> {
  const samples = new Map<string, number>();
  const pattern = new RegExp(`^${name}(?:\\{domain="([^"]+)"\\})? (\\S+)$`);
  for (const line of text.split('\n')) {
    const match = pattern.exec(line);
    if (!match) continue;
    const domain = match[1] ?? '';
    // Exposition with one label set twice is invalid: Prometheus would reject the whole scrape.
    expect(samples.has(domain), `${name}{domain="${domain}"} twice`).toBe(false);
    samples.set(domain, Number(match[2]));
  }
  return samples;
}

describe('two replicas on one PostgreSQL store', () => {
  const ZONE = 'Europe/Berlin';
  const expiresIn = new Map<string, number>();
  let api: FakeHostingApi;
  let a: TestBot;
  let b: TestBot;

  const dateIn = (days: number) =>
    DateTime.now().setZone(ZONE).startOf('day').plus({ days }).toISODate() ?? '';

  beforeAll(async () => {
    api = await FakeHostingApi.start();
    api.respond('domainInfo', (request) => {
      const days = expiresIn.get(request.param ?? '');
      if (days === undefined) return { status: 404, body: { error: 'domain not found' } };
      return {
        body: { expirydate: dateIn(days), active: 'true', expired: 'false', transferredAway: 'false' },
      };
    });
    const env = { DATABASE_URL: await createDatabase(inject('postgresUrl'), 'watch_gauge') };
    // Each replica with a Discord of its own: the gauges are all this test reads.
    a = await startWatchBot(env, api);
    b = await startWatchBot(env, api);
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await api?.stop();
  });

  /** A replica's expiry instants as whole days from the start of today (a DST day is 23 or 25 hours). */
  async function expiries(t: TestBot) {
    const text = await scrape(t);
    expect(text).not.toContain('hostops_watch_domain_expiry_days');
    const today = DateTime.now().setZone(ZONE).startOf('day').toSeconds();
    const instants = series(text, TIMESTAMP);
    return {
      days: new Map([...instants].map(([domain, at]) => [domain, Math.round((at - today) / DAY_S)])),
      count: series(text, 'hostops_watch_domains'),
    };
  }

  it('every replica exports one current value per domain, whichever replica checked it last; removed ones vanish', async () => {
    expiresIn.set('renewed.example', 10);
    expiresIn.set('steady.example', 90);
    await a.bot.watch?.add(
      ['renewed.example', 'steady.example', 'unchecked.example'].map((domain) => ({
        domain,
        unicode: domain,
      })),
      'u1',
    );
    await a.bot.watch?.run('manual');
    let scraped = await expiries(a);
    expect(scraped.days).toEqual(
      new Map([
        ['renewed.example', 10],
        ['steady.example', 90],
      ]),
    );

    // Renewed at the provider; replica B's run sees it. A never ran again, and must not keep saying 10.
    expiresIn.set('renewed.example', 375);
    await b.bot.watch?.run('manual');
    for (const replica of [a, b]) {
      scraped = await expiries(replica);
      expect(scraped.days).toEqual(
        new Map([
          ['renewed.example', 375],
          ['steady.example', 90],
        ]),
      );
      expect(scraped.count).toEqual(new Map([['', 3]]));
    }

    // Removed through B: gone from A's scrape too, so an alert on it stops.
    await b.bot.watch?.remove(['renewed.example']);
    scraped = await expiries(a);
    expect(scraped.days).toEqual(new Map([['steady.example', 90]]));
    expect(scraped.count).toEqual(new Map([['', 2]]));
  });
});

/** Domains already on the list when the bot starts (seeded in the store as past runs left them). */
const SEEDED = 30_000;
const seededName = (n: number) => `seeded-${String(n).padStart(5, '0')}.example`;

const engines = [
  { engine: 'sqlite', freshUrl: async () => tempDatabaseUrl() },
  { engine: 'postgres', freshUrl: () => createDatabase(inject('postgresUrl'), 'watch_gauge_long') },
] as const;

describe.each(engines)('on $engine', ({ freshUrl }) => {
  // Not the default zone, so the instant is seen to follow HOSTING_API_TIMEZONE.
  const ZONE = 'America/New_York';
  /** What the provider says, and the instant (Unix seconds) that is in New York, worked out by hand. */
  const CHECKED = {
    // DST starts at 02:00 that day: midnight is still EST (UTC−5).
    'dst-start.example': { expirydate: '2027-03-14', at: Date.UTC(2027, 2, 14, 5) / 1000 },
    'summer.example': { expirydate: '2027-07-01', at: Date.UTC(2027, 6, 1, 4) / 1000 },
    // DST ends at 02:00 that day: midnight is still EDT (UTC−4).
    'dst-end.example': { expirydate: '2027-11-07', at: Date.UTC(2027, 10, 7, 4) / 1000 },
    'expired.example': { expirydate: '2024-02-29', at: Date.UTC(2024, 1, 29, 5) / 1000 },
  } as const;
  const seeded = watchedDomains(SEEDED, seededName);
  let api: FakeHostingApi;
  let t: TestBot;

  beforeAll(async () => {
    const databaseUrl = await freshUrl();
    const store = await openStore(databaseUrl);
    try {
      const result = await store.importRows({
        changes: [],
        audit: [],
        watch: { domains: seeded, alerts: [] },
      });
      expect(result.imported && result.watched).toBe(SEEDED);
    } finally {
      await store.close();
    }
    api = await FakeHostingApi.start();
    api.respond('domainInfo', (request) => {
      const known = CHECKED[request.param as keyof typeof CHECKED];
      if (known === undefined) return { status: 404, body: { error: 'domain not found' } };
      return {
        body: { expirydate: known.expirydate, active: 'true', expired: 'false', transferredAway: 'false' },
      };
    });
    t = await startWatchBot(
      { DATABASE_URL: databaseUrl, HOSTING_API_TIMEZONE: ZONE, WATCH_MAX_DOMAINS: '100000' },
      api,
    );
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
    await api?.stop();
  });

  it('exports the expiry instant (the start of the expiry date in HOSTING_API_TIMEZONE) ', async () => {
    const added = [...Object.keys(CHECKED), 'unknown.example'];
    await t.bot.watch?.add(
      added.map((domain) => ({ domain, unicode: domain })),
      'u1',
    );
    await t.bot.watch?.run('added', added);
    const text = await scrape(t);
    const instants = series(text, TIMESTAMP);
    for (const [domain, { at }] of Object.entries(CHECKED)) {
      expect(instants.get(domain), domain).toBe(at);
    }
    // No expiry known: no series.
    expect(instants.has('unknown.example')).toBe(false);
    expect(text).toContain(`# TYPE ${TIMESTAMP} gauge\n`);
    expect(text).not.toContain('hostops_watch_domain_expiry_days');
  });

  it(`a scrape of ${SEEDED.toLocaleString('en')} watched domains exports every one and never holds the event loop for long`, async () => {
    // The bot runs in this process: a timer here runs late by as long as the bot holds the event loop.
    let last = performance.now();
    let longest = 0;
    const probe = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 1);
    let text: string;
    try {
      text = await scrape(t);
    } finally {
      clearInterval(probe);
    }
    // Computing days with Luxon for every domain in one turn held it for seconds; a page of the store and a
    // millisecond or so of rendering at a time hold it far less (the margin is for a loaded machine).
    expect(longest).toBeLessThan(500);

    const instants = series(text, TIMESTAMP);
    const known = seeded.filter((row) => row.expiryDate !== null);
    expect(instants.size).toBe(known.length + Object.keys(CHECKED).length);
    const startOf = new Map<string, number>();
    for (const { domain, expiryDate } of known) {
      const date = expiryDate ?? '';
      let at = startOf.get(date);
      if (at === undefined) {
        at = DateTime.fromISO(date, { zone: ZONE }).toSeconds();
        startOf.set(date, at);
      }
      expect(instants.get(domain), domain).toBe(at);
    }
  });

  it('a scrape gives way to an interaction Discord has not had a first response to', async () => {
    // Discord takes 2.5 s to accept the reply: all that while, the interaction waits for its acknowledgement.
    const ACCEPT_MS = 2_500;
    t.discord.setRestDelay(ACCEPT_MS);
    try {
      // A change of the watch data: the next scrape renders the per-domain series again (else it is kept).
      await t.bot.watch?.add([{ domain: 'changed.example', unicode: 'changed.example' }], 'u1');
      const help = t.command({ commandName: 'help', roles: [ROLES.viewer] });
      const reply = await t.nth(help, 0);
      const text = await scrape(t);
      const scrapedAt = performance.now();
      // Alone, this scrape takes a fraction of a second; it pauses (a turn at most every 100 ms) while the
      // interaction waits, so it ends only once the reply was accepted.
      expect(scrapedAt).toBeGreaterThan(reply.at + ACCEPT_MS - 100);
      expect(series(text, TIMESTAMP).size).toBe(
        seeded.filter((row) => row.expiryDate !== null).length + Object.keys(CHECKED).length,
      );
    } finally {
      t.discord.setRestDelay(0);
    }
  });
});
