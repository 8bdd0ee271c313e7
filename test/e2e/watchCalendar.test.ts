// The expiry calendar through the built bot: /watch calendar attaches it (viewer tier), and with
// CALENDAR_TOKEN a listener of its own (CALENDAR_PORT) serves the same file at /calendar/<token>.ics —
// and nothing else: no metrics, no health; the operator port (HTTP_PORT) no longer serves the calendar.
import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dig, publicAnswer, str, textOf } from '../support/e2eHelpers.js';
import { freePort } from '../support/spawnBot.js';
import { ROLES, startTestBot, type TestBot } from '../support/startTestBot.js';

const WATCH_CHANNEL = '300000000000000079';
const ZONE = 'Europe/Berlin';
const TOKEN = 'cal_0123456789abcdef0123456789abcdef';

let t: TestBot;
let port: number;
let operatorPort: number;

function dateIn(days: number): string {
  return DateTime.now().setZone(ZONE).startOf('day').plus({ days }).toISODate() ?? '';
}

function events(ics: string): { uid: string; date: string; summary: string; alarms: string[] }[] {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  return calendar.getAllSubcomponents('vevent').map((vevent) => {
    const event = new ICAL.Event(vevent);
    return {
      uid: event.uid,
      date: event.startDate.toString(),
      summary: event.summary,
      alarms: vevent.getAllSubcomponents('valarm').map((a) => String(a.getFirstPropertyValue('trigger'))),
    };
  });
}

beforeAll(async () => {
  port = await freePort();
  operatorPort = await freePort();
  t = await startTestBot({
    WATCH_CHANNEL_ID: WATCH_CHANNEL,
    WATCH_SCHEDULE: '0 0 1 1 *',
    WATCH_LEAD_DAYS: '14,3',
    HTTP_PORT: String(operatorPort),
    HTTP_HOST: '127.0.0.1',
    CALENDAR_PORT: String(port),
    CALENDAR_HOST: '127.0.0.1',
    CALENDAR_TOKEN: TOKEN,
  });
  t.discord.addChannel({ id: WATCH_CHANNEL });
  const expiries = new Map([
    ['soon.example', 5],
    ['xn--bcher-kva.example', 40],
  ]);
  t.api.respond('domainInfo', (request) => {
    const days = expiries.get(request.param ?? '');
    if (days === undefined) return { status: 404, body: { error: 'domain not found' } };
    return { body: { expirydate: dateIn(days), active: 'true', expired: 'false', transferredAway: 'false' } };
  });
  await t.bot.watch?.add(
    [
      { domain: 'soon.example', unicode: 'soon.example' },
      { domain: 'xn--bcher-kva.example', unicode: 'bücher.example' },
      { domain: 'missing.example', unicode: 'missing.example' },
    ],
    'someone',
  );
  await t.bot.watch?.run('manual');
});
afterAll(async () => {
  await t?.stop();
});

describe('/watch calendar', () => {
  it('attaches the .ics for a viewer: one event per known date, alarms at the lead days, Unicode names', async () => {
    const interaction = t.command({ commandName: 'watch', subcommand: 'calendar', roles: [ROLES.viewer] });
    const { edit, body } = await publicAnswer(t, interaction);
    expect(textOf(body)).toContain('2 events');
    expect(textOf(body)).toContain('1 domain without a known expiry date is not in it.');
    const files = edit.files ?? [];
    expect(files.map((f) => f.name)).toEqual(['hostops-expiry.ics']);
    const parsed = events(files[0]?.text ?? '');
    expect(parsed).toEqual([
      {
        uid: 'expiry-soon.example@hostops',
        date: dateIn(5),
        summary: 'soon.example expires',
        alarms: ['-P14D', '-P3D'],
      },
      {
        uid: 'expiry-xn--bcher-kva.example@hostops',
        date: dateIn(40),
        summary: 'bücher.example expires',
        alarms: ['-P14D', '-P3D'],
      },
    ]);
    expect(str(dig(body, 'embeds', 0, 'title'))).toBe('Expiry calendar');
  });
});

describe('GET /calendar/<token>.ics', () => {
  const get = (path: string) => fetch(`http://127.0.0.1:${port}${path}`);

  it('serves the same calendar for the token', async () => {
    const response = await get(`/calendar/${TOKEN}.ics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(events(await response.text()).map((e) => [e.uid, e.date])).toEqual([
      ['expiry-soon.example@hostops', dateIn(5)],
      ['expiry-xn--bcher-kva.example@hostops', dateIn(40)],
    ]);
  });

  it('answers any other token or path as not found, and never logs the token', async () => {
    for (const path of [
      `/calendar/${TOKEN.slice(0, -1)}x.ics`,
      `/calendar/${TOKEN}`,
      '/calendar/.ics',
      `/calendar/${TOKEN}.ics/x`,
      '/calendar',
    ]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(await response.text()).toBe('not found\n');
    }
    expect(t.logs.text).not.toContain(TOKEN);
  });

  it('serves nothing else on its listener: no metrics, no health, whatever the method', async () => {
    for (const path of ['/metrics', '/healthz', '/', `/metrics?token=${TOKEN}`]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).toBe('not found\n');
    }
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const response = await fetch(`http://127.0.0.1:${port}/calendar/${TOKEN}.ics`, { method });
      expect(response.status, method).toBe(404);
    }
    // And the operator listener no longer serves the calendar.
    const operator = await fetch(`http://127.0.0.1:${operatorPort}/calendar/${TOKEN}.ics`);
    expect(operator.status).toBe(404);
    await operator.text();
  });

  it('is kept gzipped: sent so to a client that takes gzip, decompressed for one that does not', async () => {
    const zipped = await get(`/calendar/${TOKEN}.ics`);
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    const plain = await fetch(`http://127.0.0.1:${port}/calendar/${TOKEN}.ics`, {
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers.get('content-encoding')).toBeNull();
    const text = await plain.text();
    expect(Number(plain.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    expect(plain.headers.get('etag')).not.toBe(zipped.headers.get('etag'));
    expect(events(text)).toEqual(events(await zipped.text()));
  });

  it('answers a poll with nothing new with 304 (If-None-Match), and a changed calendar in full', async () => {
    const first = await get(`/calendar/${TOKEN}.ics`);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[\w-]+"$/);
    await first.text();
    const poll = () =>
      fetch(`http://127.0.0.1:${port}/calendar/${TOKEN}.ics`, { headers: { 'if-none-match': etag } });
    const unchanged = await poll();
    expect(unchanged.status).toBe(304);
    expect(await unchanged.text()).toBe('');
    // HEAD renders nothing and says the same tag.
    const head = await fetch(`http://127.0.0.1:${port}/calendar/${TOKEN}.ics`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(etag);

    await t.bot.watch?.add([{ domain: 'later.example', unicode: 'later.example' }], 'someone');
    const changed = await poll();
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    // Not checked yet: no date, so the same events, under a new tag.
    expect(events(await changed.text())).toHaveLength(2);
    await t.bot.watch?.remove(['later.example']);
  });
});
