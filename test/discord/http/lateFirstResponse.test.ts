// Discord's 3 s are counted from a request's arrival (its headers), not from when its body was read, and a
// first response not ready by the deadline is never sent afterwards: the handler's reply, deferral or
// update throws where it is made (so a Confirm that could not be acknowledged sends no change), and
// nothing goes to Discord's callback endpoint instead. Real sockets: the endpoint, discord.js's REST client
// and the fake Discord that signs and POSTs the interactions.
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChatInputCommandInteraction, Client, Interaction } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiscordClient } from '../../../src/discord/createDiscordClient.js';
import { HttpInteractions } from '../../../src/discord/http/HttpInteractions.js';
import { InitialResponses } from '../../../src/discord/http/InitialResponses.js';
import {
  type InteractionsEndpoint,
  startInteractionsEndpoint,
} from '../../../src/discord/http/startInteractionsEndpoint.js';
import { signatureCheck } from '../../../src/discord/http/verifySignature.js';
import { captureLogs } from '../../support/captureLogs.js';
import { FakeDiscord } from '../../support/FakeDiscord.js';

const DEADLINE_MS = 300;

let discord: FakeDiscord;
let client: Client;
let endpoint: InteractionsEndpoint;
let handle: (interaction: Interaction) => Promise<boolean>;
const statuses: number[] = [];

beforeAll(async () => {
  discord = await FakeDiscord.start();
  const responses = new InitialResponses();
  client = createDiscordClient({
    apiUrl: discord.apiUrl,
    wrapRequests: (next) => responses.makeRequest(next),
  });
  client.rest.setToken(discord.token);
  const { logger } = captureLogs();
  const interactions = new HttpInteractions({
    client,
    handle: (interaction) => handle(interaction),
    responses,
    logger,
    deadlineMs: DEADLINE_MS,
  });
  endpoint = await startInteractionsEndpoint({
    host: '127.0.0.1',
    port: 0,
    checkSignature: signatureCheck(discord.signer.publicKey),
    now: () => Date.now(),
    answer: (interaction, reply, arrivedAt) => interactions.answer(interaction, reply, arrivedAt),
    logger,
    onAnswered: (status) => statuses.push(status),
  });
  discord.deliverOverHttp([`http://127.0.0.1:${endpoint.port}/interactions`]);
});
afterAll(async () => {
  await endpoint?.close(0);
  await client?.destroy();
  await discord?.stop();
});

/** The handler of a change: it is sent only once the click is acknowledged. */
function changeHandler(delayMs: number) {
  const outcome = { sent: false, refusal: '' };
  handle = async (interaction) => {
    await sleep(delayMs);
    try {
      await (interaction as ChatInputCommandInteraction).deferReply();
      outcome.sent = true;
    } catch (error) {
      outcome.refusal = (error as Error).message;
    }
    return true;
  };
  return outcome;
}

const callbacksOf = (id: string) => discord.requests.filter((r) => r.path.includes(`/interactions/${id}/`));

describe('the first response and its deadline', () => {
  it('in time: it is the HTTP response, and what depends on it goes ahead', async () => {
    const outcome = changeHandler(0);
    const interaction = discord.dispatchInteraction({
      commandName: 'domain',
      options: { domain: 'a.example' },
    });
    const response = await interaction.response;
    expect(response?.status).toBe(200);
    expect(JSON.parse(response?.text ?? '{}')).toMatchObject({ type: 5 });
    await sleep(50);
    expect(outcome).toEqual({ sent: true, refusal: '' });
    expect(callbacksOf(interaction.id).map((r) => r.via)).toEqual(['http-response']);
  });

  it('too late: the request is answered 503, the late response is refused where it is made, nothing is sent', async () => {
    const outcome = changeHandler(DEADLINE_MS + 200);
    const interaction = discord.dispatchInteraction({
      commandName: 'domain',
      options: { domain: 'b.example' },
    });
    const response = await interaction.response;
    expect(response?.status).toBe(503);
    await sleep(400);
    expect(outcome.sent).toBe(false);
    expect(outcome.refusal).toMatch(/after the deadline .* not sent/);
    // Neither as the HTTP response nor through the callback endpoint.
    expect(callbacksOf(interaction.id)).toEqual([]);
  });

  it('counted from the headers: a body that took most of the deadline leaves the handler only the rest', async () => {
    changeHandler(0);
    const template = discord.dispatchInteraction({ commandName: 'domain', options: { domain: 'c.example' } });
    await template.response;
    await sleep(50);
    const outcome = changeHandler(DEADLINE_MS / 2 + 50);
    const body = JSON.stringify({ ...template.payload, id: '200000000000000001', token: 'late-body' });
    const headers = discord.signer.headers(body);
    const status = await new Promise<number>((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port: endpoint.port });
      let text = '';
      socket.on('connect', async () => {
        socket.write(
          `POST /interactions HTTP/1.1\r\nhost: hostops\r\ncontent-type: application/json\r\n` +
            `content-length: ${Buffer.byteLength(body)}\r\nx-signature-ed25519: ${headers['x-signature-ed25519']}\r\n` +
            `x-signature-timestamp: ${headers['x-signature-timestamp']}\r\nconnection: close\r\n\r\n`,
        );
        await sleep(DEADLINE_MS / 2 + 50);
        socket.write(body);
      });
      socket.on('data', (data: Buffer) => {
        text += data.toString('latin1');
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1])));
    });
    // The handler alone took less than the deadline; with the body's time it did not.
    expect(status).toBe(503);
    await sleep(300);
    expect(outcome.sent).toBe(false);
    expect(outcome.refusal).toMatch(/after the deadline/);
  });

  it('every answer is counted', () => {
    expect(statuses).toEqual(expect.arrayContaining([200, 503]));
    expect(statuses.filter((s) => s === 503)).toHaveLength(2);
  });
});
