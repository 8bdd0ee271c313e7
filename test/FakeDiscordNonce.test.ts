// FakeDiscord's Create Message plays Discord's enforce_nonce (NonceWindow): the bot's second message with
// the same nonce within the window is the first one returned, not a new one; a nonce without
// enforce_nonce dedupes nothing; past the window, the nonce creates again. And its channel-post faults.
import { setTimeout as sleep } from 'node:timers/promises';
import { DiscordAPIError, HTTPError, REST, Routes } from 'discord.js';
import { afterEach, expect, it } from 'vitest';
import { FakeDiscord } from './support/FakeDiscord.js';

const fakes: FakeDiscord[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.stop()));
});

async function setUp(nonceWindowMs?: number) {
  const fake = await FakeDiscord.start(nonceWindowMs === undefined ? {} : { nonceWindowMs });
  fakes.push(fake);
  const rest = new REST({ api: fake.apiUrl, retries: 0, timeout: 500 }).setToken(fake.token);
  const post = async (body: object, channel = fake.channelId) =>
    ((await rest.post(Routes.channelMessages(channel), { body })) as { id: string; nonce?: string }).id;
  return { fake, post };
}

it('enforce_nonce: the same nonce from the bot returns its message; without enforce_nonce, a new one', async () => {
  const { fake, post } = await setUp();
  const first = await post({ content: 'one', nonce: 'hostops-l1', enforce_nonce: true });
  expect(await post({ content: 'one again', nonce: 'hostops-l1', enforce_nonce: true })).toBe(first);
  // In another channel too: Discord dedupes by author and nonce.
  const other = fake.addChannel({ id: '500000000000000001' });
  expect(await post({ content: 'elsewhere', nonce: 'hostops-l1', enforce_nonce: true }, other)).toBe(first);
  expect(fake.channelMessages().map((m) => m.content)).toEqual(['one']);
  const plain = await post({ content: 'plain', nonce: 'hostops-l1' });
  expect(plain).not.toBe(first);
  const another = await post({ content: 'two', nonce: 'hostops-l2', enforce_nonce: true });
  expect(another).not.toBe(first);
  expect(fake.channelMessages().map((m) => m.content)).toEqual(['one', 'plain', 'two']);
  await expect(post({ content: 'long', nonce: 'x'.repeat(26), enforce_nonce: true })).rejects.toBeInstanceOf(
    DiscordAPIError,
  );
});

it('enforce_nonce: past the window, the same nonce creates a message again', async () => {
  const { fake, post } = await setUp(200);
  const first = await post({ content: 'one', nonce: 'n1', enforce_nonce: true });
  await sleep(300);
  expect(await post({ content: 'again', nonce: 'n1', enforce_nonce: true })).not.toBe(first);
  expect(fake.channelMessages().map((m) => m.content)).toEqual(['one', 'again']);
});

it('faultChannelPosts: an error or a drop creates nothing; hold-created creates it and never answers', async () => {
  const { fake, post } = await setUp();
  fake.faultChannelPosts(fake.channelId, { status: 500 });
  await expect(post({ content: 'refused' })).rejects.toBeInstanceOf(HTTPError);
  fake.faultChannelPosts(fake.channelId, 'drop');
  await expect(post({ content: 'dropped' })).rejects.toThrow();
  fake.faultChannelPosts(fake.channelId, 'hold');
  await expect(post({ content: 'held' })).rejects.toThrow();
  expect(fake.channelMessages()).toEqual([]);
  fake.faultChannelPosts(fake.channelId, 'hold-created');
  await expect(post({ content: 'accepted', nonce: 'n2', enforce_nonce: true })).rejects.toThrow();
  fake.faultChannelPosts(fake.channelId);
  // Posted again (the answer was lost): Discord returns the message it made.
  const again = await post({ content: 'accepted', nonce: 'n2', enforce_nonce: true });
  expect(fake.channelMessages().map((m) => [m.id, m.content])).toEqual([[again, 'accepted']]);
});
