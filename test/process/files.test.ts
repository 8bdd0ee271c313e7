// Every message that carries a file, and the one file HostOps fetches, through the real process that
// `npm start` runs (the bundle): issue 21 was a build that broke uploads while the sources worked.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  confirmChange,
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

const WATCH_CHANNEL = '300000000000000077';
const DOMAINS_FILE = 'fetched-one.example\nfetched-two.example\n';

let fakes: Fakes;
let bot: SpawnedBot;
let cdn: ReturnType<typeof createServer>;
let cdnUrl = '';
const cdnRequests: string[] = [];

beforeAll(async () => {
  fakes = await startFakes();
  cdn = createServer((req, res) => {
    cdnRequests.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(DOMAINS_FILE);
  });
  await new Promise<void>((resolve) => cdn.listen(0, '127.0.0.1', resolve));
  cdnUrl = `http://127.0.0.1:${(cdn.address() as AddressInfo).port}`;
  bot = await spawnBot({
    discord: fakes.discord,
    api: fakes.api,
    env: { WATCH_CHANNEL_ID: WATCH_CHANNEL },
  });
  await bot.waitForLog(logged('gateway ready'), 15_000);
});

afterAll(async () => {
  await killSpawned();
  cdn.closeAllConnections();
  await new Promise((resolve) => cdn.close(resolve));
  await fakes.stop();
});

describe('the shipped bundle sends and fetches files', () => {
  it('/audit export:true attaches the CSV', async () => {
    // Something to export: a read recorded in the audit trail.
    const read = fakes.discord.dispatchInteraction({
      commandName: 'domain',
      subcommand: 'info',
      options: { domain: 'example.com' },
      roles: [PROCESS_ROLES.viewer],
    });
    await nth(fakes.discord, read, 1);
    const exported = fakes.discord.dispatchInteraction({
      commandName: 'audit',
      options: { export: true },
      roles: [PROCESS_ROLES.admin],
    });
    const answer = await nth(fakes.discord, exported, 1);
    expect(textOf(messageOf(answer))).not.toContain('went wrong');
    const csv = answer.files?.find((file) => file.name === 'hostops-audit.csv');
    expect(csv, `the answer: ${JSON.stringify(answer.body)}`).toBeDefined();
    const lines = (csv?.text ?? '').trim().split(/\r?\n/);
    expect(lines[0]).toMatch(/^at,user_id,/);
    expect(lines.some((line) => line.includes('example.com'))).toBe(true);
  });

  it('/domain dns with records too long for the prompt attaches records.txt, and Confirm sends them all', async () => {
    const records = Array.from(
      { length: 22 },
      (_, n) => `txt${n} 3600 TXT "${`${n}-`.padEnd(200, 'abcdefghij')}"`,
    );
    const { command, click } = await confirmChange(fakes.discord, {
      commandName: 'domain',
      subcommand: 'dns',
      options: { domain: 'example.com', records: records.join('\n') },
    });
    const prompt = await nth(fakes.discord, command, 0);
    const file = prompt.files?.find((f) => f.name === 'records.txt');
    expect(file, `the prompt: ${JSON.stringify(prompt.body).slice(0, 500)}`).toBeDefined();
    expect((file?.text ?? '').trimEnd().split('\n')).toHaveLength(22);
    await nth(fakes.discord, click, 0);
    const sent = await until(
      () => fakes.api.requests.find((r) => r.operation === 'submitDnsRecords'),
      'the DNS records at the API',
    );
    expect(JSON.parse(sent.query.get('records') ?? '')).toHaveLength(22);
  });

  it('/watch add downloads an attached list of domains', async () => {
    const added = fakes.discord.dispatchInteraction({
      commandName: 'watch',
      subcommand: 'add',
      roles: [PROCESS_ROLES.operator],
      attachments: {
        file: {
          url: `${cdnUrl}/attachments/domains.txt`,
          filename: 'domains.txt',
          size: Buffer.byteLength(DOMAINS_FILE),
          contentType: 'text/plain; charset=utf-8',
        },
      },
    });
    const answer = await nth(fakes.discord, added, 1);
    expect(cdnRequests).toEqual(['/attachments/domains.txt']);
    expect(textOf(messageOf(answer))).toContain('**2 domains** added');
    expect(isEphemeral(messageOf(answer))).toBe(false);
  });

  it('no token in anything the process wrote', () => {
    expect(leakedTokens(bot)).toEqual([]);
  });
});
