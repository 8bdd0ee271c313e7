// INTERACTIONS_MODE=http against the built bot: the fake Discord POSTs every interaction, signed with the
// application's own Ed25519 key, to the bot's Interactions Endpoint URL and takes the HTTP response as the
// interaction's first answer; everything after it goes through the fake's REST API, as from Discord.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNATURE_REFUSALS } from '../../src/observability/signatureRefusals.js';
import {
  callbackType,
  confirmIdOf,
  type Fakes,
  isEphemeral,
  killSpawned,
  leakedTokens,
  logged,
  messageOf,
  nth,
  PROCESS_ROLES,
  responseOf,
  type SpawnedBot,
  spawnBot,
  startFakes,
  textOf,
} from '../support/spawnBot.js';

let f: Fakes;
let bot: SpawnedBot;

beforeAll(async () => {
  f = await startFakes();
  bot = await spawnBot({ discord: f.discord, api: f.api, env: { INTERACTIONS_MODE: 'http' } });
  await bot.waitForLog(logged('interactions endpoint listening'), 15_000);
  f.discord.deliverOverHttp([bot.interactionsUrl]);
}, 120_000);
afterAll(async () => {
  await killSpawned();
  await f?.stop();
});

/** POSTs a body as it is to the endpoint, with the given headers. */
async function post(
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; text: string }> {
  const response = await fetch(bot.interactionsUrl, { method: 'POST', headers, body });
  return { status: response.status, text: await response.text() };
}

/** Every 401's body, whatever was wrong with the signature. */
const SIGNATURE_REFUSED = JSON.stringify({ error: 'invalid request signature' });

const PING = JSON.stringify({
  id: '100000000000000001',
  application_id: '100000000000000002',
  type: 1,
  token: 'p',
  version: 1,
});

describe('the endpoint', () => {
  it('opens no gateway connection and reports its endpoint on /healthz', async () => {
    const health = await bot.get('/healthz');
    expect(health.status).toBe(200);
    expect(health.json()).toMatchObject({ status: 'ok', endpoint: 'ready' });
    expect(health.json()).not.toHaveProperty('gateway');
    expect(f.discord.gatewayConnectionCount).toBe(0);
    expect(f.discord.identifyCount).toBe(0);
    expect(f.discord.requests.filter((r) => r.path.startsWith('/gateway'))).toEqual([]);
  });

  it('answers PING with {"type":1}', async () => {
    const pong = await post(PING, f.discord.signer.headers(PING));
    expect(pong).toEqual({ status: 200, text: '{"type":1}' });
  });

  it('refuses a missing or invalid signature with 401 and does nothing; the next good request is answered', async () => {
    const read = f.discord.dispatchInteraction({
      commandName: 'domain',
      subcommand: 'info',
      options: { domain: 'first.example' },
      roles: [PROCESS_ROLES.viewer],
    });
    expect((await responseOf(read)).status).toBe(200);
    await nth(f.discord, read, 1);
    const apiCalls = f.api.requests.length;
    const discordCalls = f.discord.requests.length;

    const body = JSON.stringify({ ...read.payload, id: '100000000000000099' });
    const good = f.discord.signer.headers(body);
    const { 'x-signature-ed25519': signature, ...unsigned } = good;
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`;
    const otherBody = f.discord.signer.headers(JSON.stringify({ ...read.payload, id: '100000000000000098' }));
    const refusals = [
      unsigned,
      { ...good, 'x-signature-timestamp': '' },
      { ...good, 'x-signature-ed25519': flipped },
      { ...good, 'x-signature-ed25519': 'zz' },
      // A real signature, of another body.
      { ...good, 'x-signature-ed25519': otherBody['x-signature-ed25519'] },
      // A real signature, with the timestamp changed.
      { ...good, 'x-signature-timestamp': String(Number(good['x-signature-timestamp']) - 1) },
    ];
    // One body for every refusal of a signature (missing, malformed, wrong): which one it was is counted,
    // never told (issue 49).
    for (const headers of refusals) {
      expect(await post(body, headers)).toEqual({ status: 401, text: SIGNATURE_REFUSED });
    }
    // A PING with a bad signature is refused too (Discord checks exactly that before saving the URL).
    expect(await post(PING, { ...f.discord.signer.headers(PING), 'x-signature-ed25519': flipped })).toEqual({
      status: 401,
      text: SIGNATURE_REFUSED,
    });
    expect(f.api.requests.length).toBe(apiCalls);
    expect(f.discord.requests.length).toBe(discordCalls);

    const next = f.discord.dispatchInteraction({
      commandName: 'domain',
      subcommand: 'info',
      options: { domain: 'next.example' },
      roles: [PROCESS_ROLES.viewer],
    });
    expect((await responseOf(next)).status).toBe(200);
    expect(textOf(messageOf(await nth(f.discord, next, 1)))).toContain('next.example');
  });

  it('refuses a correctly signed request whose timestamp is more than 5 minutes off', async () => {
    const apiCalls = f.api.requests.length;
    const discordCalls = f.discord.requests.length;
    // A minute past the 5 minutes either way: on a loaded machine a second may pass between requests, and
    // the endpoint's clock follows the store's (StoreClock), whose offset is estimated from a round trip.
    for (const off of [-360, 360]) {
      const timestamp = Math.floor(Date.now() / 1000) + off;
      const body = JSON.stringify({
        id: `1000000000000001${timestamp % 100}`,
        application_id: f.discord.applicationId,
        type: 2,
        token: 'replayed',
      });
      // The same body as a wrong signature: an anonymous client cannot tell a stale timestamp (and so the
      // store's clock) from it.
      expect(await post(body, f.discord.signer.headers(body, timestamp))).toEqual({
        status: 401,
        text: SIGNATURE_REFUSED,
      });
    }
    // Within the 5 minutes it is taken (a PING is enough to show it).
    const now = Math.floor(Date.now() / 1000);
    expect((await post(PING, f.discord.signer.headers(PING, now - 240))).status).toBe(200);
    expect(f.api.requests.length).toBe(apiCalls);
    expect(f.discord.requests.length).toBe(discordCalls);
  });

  it('answers malformed requests with a clear 4xx and keeps serving', async () => {
    const signed = (body: string) => post(body, f.discord.signer.headers(body));
    const notJson = await signed('{"type":');
    expect(notJson.status).toBe(400);
    expect(notJson.text).toContain('not JSON');
    expect((await signed('[1,2]')).status).toBe(400);
    expect((await signed(JSON.stringify({ type: 2 }))).status).toBe(400);
    const unknownType = JSON.stringify({
      id: '100000000000000011',
      application_id: '100000000000000002',
      type: 99,
      token: 't',
    });
    expect((await signed(unknownType)).status).toBe(400);
    // A command without its data: discord.js cannot build it.
    const noData = JSON.stringify({
      id: '100000000000000012',
      application_id: '100000000000000002',
      type: 2,
      token: 't',
    });
    expect((await signed(noData)).status).toBe(400);
    const huge = `{"pad":"${'x'.repeat(2 * 1024 * 1024)}"}`;
    expect((await signed(huge)).status).toBe(413);
    const get = await fetch(bot.interactionsUrl);
    expect(get.status).toBe(405);
    const elsewhere = await fetch(bot.interactionsUrl.replace('/interactions', '/healthz'));
    expect(elsewhere.status).toBe(404);
    expect((await signed(PING)).status).toBe(200);
    expect(bot.exit).toBeUndefined();
  });
});

describe('commands over HTTP', () => {
  it('a read: the deferral is the HTTP response, the answer an edit through REST', async () => {
    const read = f.discord.dispatchInteraction({
      commandName: 'domain',
      subcommand: 'info',
      options: { domain: 'http.example' },
      roles: [PROCESS_ROLES.viewer],
    });
    const response = await responseOf(read);
    expect(response.status).toBe(200);
    expect(JSON.parse(response.text)).toMatchObject({ type: 5 });
    const [deferral, answer] = [await nth(f.discord, read, 0), await nth(f.discord, read, 1)];
    expect(deferral.via).toBe('http-response');
    expect(callbackType(deferral)).toBe(5);
    expect(answer.method).toBe('PATCH');
    expect(answer.path).toMatch(/\/messages\/@original$/);
    expect(answer.status).toBe(200);
    expect(textOf(messageOf(answer))).toContain('http.example');
    expect(f.api.requestsFor('domainInfo').map((r) => r.param)).toContain('http.example');
    // Nothing went to the callback endpoint: the HTTP response was the callback.
    expect(f.discord.requests.filter((r) => r.path.endsWith('/callback') && r.via === undefined)).toEqual([]);
  });

  it('a change with Confirm: prompt and update as HTTP responses, sent once, the record through REST', async () => {
    const before = f.api.requestsFor('setReverseDns').length;
    const command = f.discord.dispatchInteraction({
      commandName: 'server',
      subcommand: 'rdns',
      options: { id: 42, ip: '203.0.113.7', hostname: 'http.example.com' },
      roles: [PROCESS_ROLES.operator],
    });
    const prompt = await nth(f.discord, command, 0);
    expect(prompt.via).toBe('http-response');
    expect(callbackType(prompt)).toBe(4);
    expect(isEphemeral(messageOf(prompt))).toBe(true);
    const message = f.discord.originalMessage(command);
    if (!message) throw new Error('no prompt message');
    const click = f.discord.dispatchComponent({
      customId: confirmIdOf(prompt),
      message: { id: message.id },
      roles: [PROCESS_ROLES.operator],
    });
    const update = await nth(f.discord, click, 0);
    expect(update.via).toBe('http-response');
    expect(callbackType(update)).toBe(7);
    expect(textOf(messageOf(await nth(f.discord, click, 1)))).toContain('Reverse DNS set');
    expect(textOf(messageOf(await nth(f.discord, click, 2)))).toContain('set the reverse DNS');
    expect(f.api.requestsFor('setReverseDns').length - before).toBe(1);
    // The same Confirm again (a replay of the very request): answered once, nothing sent again.
    const replayed = await f.discord.replay(click);
    expect(replayed.status).toBe(409);
    expect(f.api.requestsFor('setReverseDns').length - before).toBe(1);
  });

  it('a modal opens as the HTTP response and its submit is answered over HTTP', async () => {
    const command = f.discord.dispatchInteraction({
      commandName: 'domain',
      subcommand: 'dns',
      options: { domain: 'form.example' },
      roles: [PROCESS_ROLES.operator],
    });
    const modal = await nth(f.discord, command, 0);
    expect(modal.via).toBe('http-response');
    expect(callbackType(modal)).toBe(9);
    const customId = String((modal.body as { data: { custom_id: string } }).data.custom_id);
    const submit = f.discord.dispatchModalSubmit({
      customId,
      fields: { records: 'www 3600 A 203.0.113.9' },
      roles: [PROCESS_ROLES.operator],
    });
    expect((await responseOf(submit)).status).toBe(200);
    const first = await nth(f.discord, submit, 0);
    expect(first.via).toBe('http-response');
    const prompt = callbackType(first) === 5 ? await nth(f.discord, submit, 1) : first;
    expect(textOf(messageOf(prompt))).toContain('203.0.113.9');
  });

  it('a form: an invalid field answered over HTTP, Edit reopens it filled in, the fixed submit prompts', async () => {
    const command = f.discord.dispatchInteraction({
      commandName: 'musicbot',
      subcommand: 'create',
      options: {},
      roles: [PROCESS_ROLES.operator],
    });
    const modal = await nth(f.discord, command, 0);
    expect(modal.via).toBe('http-response');
    const data = (modal.body as { data: { custom_id: string; components: { type: number }[] } }).data;
    expect(data.components.map((c) => c.type)).toEqual([18, 18, 18, 18]);
    const fields = { username: 'carol', email: 'carol@@example', storage: String(5 * 1024 ** 3), bots: '1' };
    const wrong = f.discord.dispatchModalSubmit({
      customId: data.custom_id,
      fields,
      roles: [PROCESS_ROLES.operator],
    });
    const answer = await nth(f.discord, wrong, 0);
    expect(answer.via).toBe('http-response');
    expect(textOf(messageOf(answer))).toMatch(/^\*\*E-mail\*\*/);
    const edit = (messageOf(answer) as { components: { components: { custom_id: string }[] }[] })
      .components[0]?.components[0]?.custom_id;
    const message = f.discord.originalMessage(wrong);
    if (!edit || !message) throw new Error('no Edit button');
    const again = await nth(
      f.discord,
      f.discord.dispatchComponent({ customId: edit, message, roles: [PROCESS_ROLES.operator] }),
      0,
    );
    expect(again.via).toBe('http-response');
    expect(JSON.stringify(again.body)).toContain('carol@@example');
    const fixed = f.discord.dispatchModalSubmit({
      customId: data.custom_id,
      fields: { ...fields, email: 'carol@example.com' },
      roles: [PROCESS_ROLES.operator],
    });
    const first = await nth(f.discord, fixed, 0);
    const prompt = callbackType(first) === 5 ? await nth(f.discord, fixed, 1) : first;
    expect(textOf(messageOf(prompt))).toContain('carol@example.com');
    expect(f.discord.specRefusals).toEqual([]);
  });

  it('the registration form over HTTP: filled, submitted, confirmed, sent once; a stranger’s submit sends nothing', async () => {
    const before = f.api.requestsFor('createDomain').length;
    const command = f.discord.dispatchInteraction({
      commandName: 'domain',
      subcommand: 'register',
      options: {},
      roles: [PROCESS_ROLES.admin],
    });
    const modal = await nth(f.discord, command, 0);
    expect(modal.via).toBe('http-response');
    const customId = String((modal.body as { data: { custom_id: string } }).data.custom_id);
    const fields = {
      domain: 'http-form.example',
      ns1: 'ns1.example.net',
      ns2: 'ns2.example.net',
      contacts: 'owner: C-9\nadmin: ADM-1\ntech: TEC-1\nzone: ZON-1',
    };
    const stranger = f.discord.dispatchModalSubmit({
      customId,
      fields,
      roles: [PROCESS_ROLES.admin],
      userId: '300000000000000079',
    });
    expect(textOf(messageOf(await nth(f.discord, stranger, 0)))).toMatch(/no longer open/);
    const submit = f.discord.dispatchModalSubmit({ customId, fields, roles: [PROCESS_ROLES.admin] });
    const first = await nth(f.discord, submit, 0);
    const prompt = callbackType(first) === 5 ? await nth(f.discord, submit, 1) : first;
    expect(textOf(messageOf(prompt))).toContain('http-form.example');
    const message = f.discord.originalMessage(submit);
    if (!message) throw new Error('no prompt message');
    const click = f.discord.dispatchComponent({
      customId: confirmIdOf(prompt),
      message: { id: message.id },
      roles: [PROCESS_ROLES.admin],
    });
    expect((await nth(f.discord, click, 0)).via).toBe('http-response');
    await nth(f.discord, click, 1);
    const sent = f.api.requestsFor('createDomain').slice(before);
    expect(sent).toHaveLength(1);
    expect(Object.fromEntries(sent[0]?.query ?? [])).toMatchObject({
      domain: 'http-form.example',
      ns1: 'ns1.example.net',
      ns2: 'ns2.example.net',
    });
    expect([...(sent[0]?.query.values() ?? [])]).toContain('C-9');
    expect(f.discord.specRefusals).toEqual([]);
  });

  it('autocomplete: the suggestions are the HTTP response', async () => {
    const complete = f.discord.dispatchAutocomplete({
      commandName: 'domain',
      subcommand: 'info',
      options: { domain: 'http' },
      roles: [PROCESS_ROLES.viewer],
    });
    const response = await responseOf(complete);
    expect(response.status).toBe(200);
    const body = JSON.parse(response.text) as { type: number; data: { choices: { name: string }[] } };
    expect(body.type).toBe(8);
    // Read earlier in this file, and found again through the audit trail.
    expect(body.data.choices.map((c) => c.name)).toContain('http.example');
  });

  it('role tiers and the guild lock apply as over the gateway', async () => {
    const refused = f.discord.dispatchInteraction({
      commandName: 'server',
      subcommand: 'rdns',
      options: { id: 42, ip: '203.0.113.7', hostname: 'viewer.example.com' },
      roles: [PROCESS_ROLES.viewer],
    });
    const refusal = await nth(f.discord, refused, 0);
    expect(refusal.via).toBe('http-response');
    expect(isEphemeral(messageOf(refusal))).toBe(true);
    expect(textOf(messageOf(refusal))).toMatch(/operator/i);

    const elsewhere = f.discord.dispatchInteraction({
      commandName: 'domain',
      subcommand: 'info',
      options: { domain: 'other-guild.example' },
      guildId: '300000000000000001',
    });
    expect(textOf(messageOf(await nth(f.discord, elsewhere, 0)))).toBe(
      'HostOps serves only the server it was set up for.',
    );
    expect(f.api.requests.filter((r) => r.param === 'other-guild.example')).toEqual([]);
    expect(leakedTokens(bot)).toEqual([]);
  });

  it('counts the requests by status on /metrics', async () => {
    const { text } = await bot.get('/metrics');
    const count = (status: number) =>
      Number(
        new RegExp(`hostops_interaction_requests_total\\{status="${status}"\\} (\\d+)`).exec(text)?.[1] ?? 0,
      );
    expect(count(200)).toBeGreaterThan(5);
    // Every refusal of the signature test and the two stale timestamps.
    expect(count(401)).toBeGreaterThanOrEqual(9);
    expect(count(409)).toBe(1);
    expect(count(413)).toBe(1);
    // Why each 401 was given stays in the counters: the signature test's one missing, two malformed and
    // four wrong, and the two stale timestamps.
    const refused = (reason: string) =>
      Number(
        new RegExp(`hostops_interaction_signature_refusals_total\\{reason="${reason}"\\} (\\d+)`).exec(
          text,
        )?.[1] ?? 0,
      );
    expect(SIGNATURE_REFUSALS.map((reason) => [reason, refused(reason)])).toEqual([
      ['missing', 1],
      ['malformed', 2],
      ['stale', 2],
      ['invalid', 4],
    ]);
  });
});

describe('configuration', () => {
  it('http mode without DISCORD_PUBLIC_KEY does not start: exit 78 naming it, nothing opened', async () => {
    const fakes = await startFakes();
    try {
      const unkeyed = await spawnBot({
        discord: fakes.discord,
        api: fakes.api,
        env: { INTERACTIONS_MODE: 'http', DISCORD_PUBLIC_KEY: '' },
      });
      const exit = await unkeyed.exitWithin(15_000);
      expect(exit.code).toBe(78);
      expect(unkeyed.output).toContain(
        'DISCORD_PUBLIC_KEY: is required with INTERACTIONS_MODE=http (the public key in the developer portal)',
      );
      expect(fakes.discord.gatewayConnectionCount).toBe(0);
      expect(fakes.discord.requests).toEqual([]);
      expect(leakedTokens(unkeyed)).toEqual([]);
    } finally {
      await fakes.stop();
    }
  });
});
