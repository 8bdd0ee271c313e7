// DNS records with memory across a real restart: the built HostOps process sends a first /domain dns set,
// stops (SIGTERM, exit 0), and a new process on the same SQLite file compares the second set with it —
// the memory is the store, not the process.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DispatchedInteraction, FakeDiscord, RecordedRequest } from '../support/FakeDiscord.js';
import {
  callbackType,
  confirmIdOf,
  type Fakes,
  isEphemeral,
  type Json,
  killSpawned,
  logged,
  messageOf,
  nth,
  PROCESS_ROLES,
  type SpawnedBot,
  spawnBot,
  startFakes,
  textOf,
} from '../support/spawnBot.js';

const DOMAIN = 'restart-memory.example';
const FIRST =
  'www 3600 A 203.0.113.7\n@ MX 10 mail.example.com.\nold 3600 A 198.51.100.1\nkeep 600 TXT "same"';
const SECOND = 'www 3600 A 203.0.113.8\n@ MX 10 mail.example.com.\nnew 300 TXT "hello"\nkeep 600 TXT "same"';
const COMPARED = 'Compared with the last set sent through HostOps';

let fakes: Fakes | undefined;
const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'hostops-dns-restart-')), 'hostops.db')}`;

beforeAll(async () => {
  fakes = await startFakes();
});
afterAll(async () => {
  await killSpawned();
  await fakes?.stop();
});

function started(): Fakes {
  if (!fakes) throw new Error('the fakes did not start');
  return fakes;
}

async function startBot(): Promise<SpawnedBot> {
  const { discord, api } = started();
  const bot = await spawnBot({ discord, api, env: { DATABASE_URL: databaseUrl } });
  await bot.waitForLog(logged('gateway ready'), 15_000);
  return bot;
}

interface ShownPrompt {
  command: DispatchedInteraction;
  /** The request whose message is the prompt (the reply, or the edit after a deferral). */
  request: RecordedRequest;
  message: Json;
  compared: string;
}

/**
 * A /domain dns prompt: the first response when the store answered at once, otherwise an ephemeral
 * deferral and then the prompt as its edit.
 */
async function openDnsPrompt(discord: FakeDiscord, records: string): Promise<ShownPrompt> {
  const command = discord.dispatchInteraction({
    commandName: 'domain',
    subcommand: 'dns',
    options: { domain: DOMAIN, records },
    roles: [PROCESS_ROLES.operator],
  });
  const first = await nth(discord, command, 0);
  expect([4, 5]).toContain(callbackType(first));
  expect(isEphemeral(messageOf(first)), 'the prompt is the invoker’s alone').toBe(true);
  const request = callbackType(first) === 5 ? await nth(discord, command, 1) : first;
  const message = messageOf(request);
  const embed = (message.embeds as Json[] | undefined)?.[0] ?? {};
  const field = (embed.fields as Json[] | undefined)?.find((f) => f.name === COMPARED);
  if (!field) throw new Error(`no "${COMPARED}" field in ${JSON.stringify(message)}`);
  return { command, request, message, compared: String(field.value) };
}

/** Presses the prompt's Confirm as its owner; returns the click and its public record (third request). */
async function confirm(discord: FakeDiscord, prompt: ShownPrompt) {
  const promptMessage = discord.originalMessage(prompt.command);
  if (!promptMessage) throw new Error('no prompt message');
  const press = () =>
    discord.dispatchComponent({
      customId: confirmIdOf(prompt.request),
      message: { id: promptMessage.id },
      roles: [PROCESS_ROLES.operator],
    });
  const click = press();
  expect(callbackType(await nth(discord, click, 0))).toBe(7);
  expect(textOf(messageOf(await nth(discord, click, 1)))).toContain('DNS records submitted');
  const publicRecord = await nth(discord, click, 2);
  expect(isEphemeral(messageOf(publicRecord))).toBe(false);
  return { click, publicRecord: messageOf(publicRecord), press };
}

const sentSets = () =>
  started()
    .api.requestsFor('submitDnsRecords')
    .map((request) => ({
      domain: request.query.get('domain'),
      records: JSON.parse(request.query.get('records') ?? ''),
    }));

const buttonLabels = (message: Json) =>
  ((message.components as Json[] | undefined) ?? []).flatMap((row) =>
    ((row.components as Json[] | undefined) ?? []).map((button) => button.label),
  );

it('second set after a restart: the new process shows the difference to the set the old one sent, and Confirm sends exactly the new set, once', async () => {
  const { discord } = started();
  const before = await startBot();
  const first = await openDnsPrompt(discord, FIRST);
  expect(first.compared).toContain('No earlier set was sent through HostOps for this domain');
  const sentFirst = await confirm(discord, first);
  // Nothing to go back to yet.
  expect(buttonLabels(sentFirst.publicRecord)).not.toContain('Revert');
  expect(sentSets()).toHaveLength(1);

  before.kill('SIGTERM');
  const exit = await before.exitWithin(15_000);
  expect(exit.code, before.output).toBe(0);

  const after = await startBot();
  const second = await openDnsPrompt(discord, SECOND);
  const compared = second.compared;
  expect(compared).toContain(`The set <@${discord.userId}> sent <t:`);
  expect(compared).toContain('(done): 1 added, 1 removed, 1 changed, 2 unchanged.');
  const diff = /```\n([\s\S]*)\n```/.exec(compared)?.[1]?.split('\n');
  expect(diff).toEqual([
    '+ new 300 TXT "hello"',
    '- old 3600 A 198.51.100.1',
    '~ www 3600 A 203.0.113.7',
    '→ www 3600 A 203.0.113.8',
  ]);
  // The prompt lists the new set itself, whole.
  expect(textOf(second.message)).toContain('Records (4)');
  // Showing the difference sent nothing.
  expect(sentSets()).toHaveLength(1);

  const sentSecond = await confirm(discord, second);
  expect(buttonLabels(sentSecond.publicRecord)).toContain('Revert');
  // A second press of the same Confirm is turned away: the set went once.
  const again = sentSecond.press();
  const refused = await nth(discord, again, 0);
  expect(callbackType(refused)).toBe(4);
  expect(textOf(messageOf(refused))).toBe(
    'This confirmation is no longer open: the change was already confirmed.',
  );
  expect(sentSets()).toEqual([
    {
      domain: DOMAIN,
      records: [
        { name: 'www', type: 'A', content: '203.0.113.7', ttl: 3600 },
        { name: '@', type: 'MX', content: 'mail.example.com', ttl: 3600, prio: 10 },
        { name: 'old', type: 'A', content: '198.51.100.1', ttl: 3600 },
        { name: 'keep', type: 'TXT', content: 'same', ttl: 600 },
      ],
    },
    {
      domain: DOMAIN,
      records: [
        { name: 'www', type: 'A', content: '203.0.113.8', ttl: 3600 },
        { name: '@', type: 'MX', content: 'mail.example.com', ttl: 3600, prio: 10 },
        { name: 'new', type: 'TXT', content: 'hello', ttl: 300 },
        { name: 'keep', type: 'TXT', content: 'same', ttl: 600 },
      ],
    },
  ]);
  expect(after.exit).toBeUndefined();
}, 120_000);
