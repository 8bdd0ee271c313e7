import { DateTime } from 'luxon';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { FakeHostingApi } from '../support/FakeHostingApi.js';
import { createDatabase } from '../support/startPostgres.js';
import { startTestBot, type TestBot } from '../support/startTestBot.js';

// Two replicas on one PostgreSQL store: what each one's /metrics says about a domain the other checked.
const WATCH_CHANNEL = '300000000000000078';
const ZONE = 'Europe/Berlin';
const expiresIn = new Map<string, number>();

let api: FakeHostingApi;
let a: TestBot;
let b: TestBot;

function dateIn(days: number): string {
  return DateTime.now().setZone(ZONE).startOf('day').plus({ days }).toISODate() ?? '';
}

/** The series Prometheus would scrape from a replica: `{domain: value}` of one gauge. */
async function scraped(t: TestBot, name: string): Promise<Map<string, number>> {
  const text = await t.bot.metrics.registry.metrics();
  const series = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = new RegExp(`^${name}(?:\\{domain="([^"]+)"\\})? (\\S+)$`).exec(line);
    if (match) series.set(match[1] ?? '', Number(match[2]));
  }
  return series;
}

beforeAll(async () => {
  api = await FakeHostingApi.start();
  api.respond('domainInfo', (request) => {
    const days = expiresIn.get(request.param ?? '');
    if (days === undefined) return { status: 404, body: { error: 'domain not found' } };
    return { body: { expirydate: dateIn(days), active: 'true', expired: 'false', transferredAway: 'false' } };
  });
  const env = {
    DATABASE_URL: await createDatabase(inject('postgresUrl'), 'watch_gauge'),
    WATCH_CHANNEL_ID: WATCH_CHANNEL,
    WATCH_SCHEDULE: '0 0 1 1 *',
  };
  // Each replica with a Discord of its own: the gauges are all this test reads.
  a = await startTestBot(env, { api });
  b = await startTestBot(env, { api });
  for (const t of [a, b]) t.discord.addChannel({ id: WATCH_CHANNEL });
});
afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await api?.stop();
});

it('every replica exports one current value per domain, whichever replica checked it last; removed ones vanish', async () => {
  expiresIn.set('renewed.example', 10);
  expiresIn.set('steady.example', 90);
  await a.bot.watch?.add(
    ['renewed.example', 'steady.example', 'unchecked.example'].map((domain) => ({ domain, unicode: domain })),
    'u1',
  );
  await a.bot.watch?.run('manual');
  expect(await scraped(a, 'hostops_watch_domain_expiry_days')).toEqual(
    new Map([
      ['renewed.example', 10],
      ['steady.example', 90],
    ]),
  );

  // Renewed at the provider; replica B's run sees it. A never ran again, and must not keep saying 10.
  expiresIn.set('renewed.example', 375);
  await b.bot.watch?.run('manual');
  for (const replica of [a, b]) {
    expect(await scraped(replica, 'hostops_watch_domain_expiry_days')).toEqual(
      new Map([
        ['renewed.example', 375],
        ['steady.example', 90],
      ]),
    );
    expect(await scraped(replica, 'hostops_watch_domains')).toEqual(new Map([['', 3]]));
  }

  // Removed through B: gone from A's scrape too, so an alert on it stops.
  await b.bot.watch?.remove(['renewed.example']);
  expect(await scraped(a, 'hostops_watch_domain_expiry_days')).toEqual(new Map([['steady.example', 90]]));
  expect(await scraped(a, 'hostops_watch_domains')).toEqual(new Map([['', 2]]));
});
