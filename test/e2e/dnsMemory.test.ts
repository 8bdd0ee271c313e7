// /domain dns with memory: the store keeps every set HostOps sent; the prompt compares with the last one,
// /domain records shows it, and the public record's Revert button sends the previous set again.
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  callbackOf,
  confirmAndWait,
  ephemeralReply,
  fieldValue,
  idle,
  openPrompt,
  publicAnswer,
  queryOf,
  rec,
  str,
  textOf,
} from '../support/e2eHelpers.js';
import { ROLES, startTestBot, type TestBot } from '../support/startTestBot.js';

let t: TestBot;
beforeAll(async () => {
  t = await startTestBot();
});
afterAll(() => t.stop());

const FIRST = 'www 3600 A 203.0.113.7\n@ MX 10 mail.example.com.\nold 3600 A 198.51.100.1';
const SECOND = 'www 3600 A 203.0.113.8\n@ MX 10 mail.example.com.\nnew 300 TXT "hello"';

const dns = (records: string) => ({
  commandName: 'domain',
  subcommand: 'dns',
  options: { domain: 'memory.example', records },
});

const COMPARED = 'Compared with the last set sent through HostOps';

it('first set: says plainly that no earlier set is known; second set: the difference to it', async () => {
  const first = await openPrompt(t, dns(FIRST));
  expect(fieldValue(first.embed, COMPARED)).toContain('No earlier set was sent through HostOps');
  const { followUp } = await confirmAndWait(t, first);
  await idle(t);
  // No earlier set: nothing to revert to on the public record.
  expect(JSON.stringify(rec(followUp.body).components ?? [])).not.toContain('Revert');

  const second = await openPrompt(t, dns(SECOND));
  const compared = fieldValue(second.embed, COMPARED);
  expect(compared).toContain('1 added, 1 removed, 1 changed, 1 unchanged');
  expect(compared).toContain('+ new 300 TXT "hello"');
  expect(compared).toContain('- old 3600 A 198.51.100.1');
  expect(compared).toContain('~ www 3600 A 203.0.113.7\n→ www 3600 A 203.0.113.8');
});

it('/domain records shows the last set sent, who sent it, and how it ended', async () => {
  const none = t.command({
    commandName: 'domain',
    subcommand: 'records',
    options: { domain: 'never.example' },
    roles: [ROLES.viewer],
  });
  expect(textOf((await publicAnswer(t, none)).body)).toContain('No DNS records for `never.example`');
  const i = t.command({
    commandName: 'domain',
    subcommand: 'records',
    options: { domain: 'memory.example' },
    roles: [ROLES.viewer],
  });
  const text = textOf((await publicAnswer(t, i)).body);
  expect(text).toContain('3 records, sent');
  expect(text).toContain('(done)');
  expect(text).toContain('old 3600 A 198.51.100.1');
});

it('Revert: refused for a viewer with no call; for an operator, a prompt that sends exactly the previous set, once', async () => {
  const second = await openPrompt(t, dns(SECOND));
  const { followUp } = await confirmAndWait(t, second);
  await idle(t);
  const row = (rec(followUp.body).components as unknown[] | undefined)?.[0];
  const revertId = str(
    (rec(row).components as unknown[]).map((b) => rec(b)).find((b) => b.label === 'Revert')?.custom_id,
  );
  const message = { id: followUp.message?.id ?? '' };
  const calls = queryOf(t, 'submitDnsRecords').length;

  const viewer = t.discord.dispatchComponent({
    customId: revertId,
    message: { id: message.id },
    roles: [ROLES.viewer],
  });
  expect(await ephemeralReply(t, viewer)).toContain('operator');
  await idle(t);
  expect(queryOf(t, 'submitDnsRecords')).toHaveLength(calls);

  const operator = t.discord.dispatchComponent({
    customId: revertId,
    message: { id: message.id },
    roles: [ROLES.operator],
  });
  const cb = await callbackOf(t, operator);
  const prompt = textOf(cb.data);
  expect(prompt).toContain('old 3600 A 198.51.100.1');
  expect(prompt).toContain(COMPARED);
  const confirm = str(
    (rec((cb.data.components as unknown[])[0]).components as unknown[])
      .map((b) => rec(b))
      .find((b) => b.label === 'Confirm')?.custom_id,
  );
  const promptMessage = t.discord.originalMessage(operator);
  const click = t.discord.dispatchComponent({
    customId: confirm,
    message: { id: promptMessage?.id ?? '' },
    roles: [ROLES.operator],
  });
  await callbackOf(t, click);
  await idle(t);
  const sent = queryOf(t, 'submitDnsRecords');
  expect(sent).toHaveLength(calls + 1);
  expect(JSON.parse(sent.at(-1)?.records ?? '[]')).toEqual([
    { name: 'www', type: 'A', content: '203.0.113.7', ttl: 3600 },
    { name: '@', type: 'MX', content: 'mail.example.com', ttl: 3600, prio: 10 },
    { name: 'old', type: 'A', content: '198.51.100.1', ttl: 3600 },
  ]);
});
