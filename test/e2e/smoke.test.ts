import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestBot, type TestBot } from '../support/startTestBot.js';

let t: TestBot;
beforeAll(async () => {
  t = await startTestBot();
});
afterAll(async () => {
  await t?.stop();
});

it('answers /domain info with an embed after deferring', async () => {
  const i = t.command({ commandName: 'domain', subcommand: 'info', options: { domain: 'example.com' } });
  const ack = await t.nth(i, 0);
  expect(ack.path).toBe(`/interactions/${i.id}/${i.token}/callback`);
  expect(ack.body).toMatchObject({ type: 5 });
  const edit = await t.nth(i, 1);
  expect(edit.method).toBe('PATCH');
  console.error(JSON.stringify(edit.body, null, 1));
  expect(t.api.requestsFor('domainInfo')).toHaveLength(1);
});

it('musicbot create: prompt, confirm, private password, public record', async () => {
  const i = t.command({
    commandName: 'musicbot',
    subcommand: 'create',
    options: { username: 'dj', email: 'dj@example.com', storage: '10 GiB', bots: 2 },
  });
  const prompt = await t.nth(i, 0);
  console.error(JSON.stringify(prompt.body));
  const customId = (prompt.body as any).data.components[0].components[0].custom_id;
  const click = t.discord.dispatchComponent({ customId, message: { id: (prompt.body as any).id ?? '1' } });
  const update = await t.nth(click, 0);
  const edit = await t.nth(click, 1);
  const follow = await t.nth(click, 2);
  console.error(JSON.stringify([update.body, edit.body, follow.body], null, 1));
  expect(t.api.requestsFor('createMusicBotUser')).toHaveLength(1);
});
