import { type Client, Routes } from 'discord.js';
import type { BotMessages } from '../replies/ReplyBody.js';

/** Bot messages over REST: no cache or channel fetch needed; nobody is pinged unless a body names them. */
export function botMessages(client: Client): BotMessages {
  return {
    async post(channelId, body) {
      const message = (await client.rest.post(Routes.channelMessages(channelId), {
        body: { allowed_mentions: { parse: [] }, ...body },
      })) as { id: string };
      return message.id;
    },
    async edit(channelId, messageId, body) {
      await client.rest.patch(Routes.channelMessage(channelId, messageId), {
        body: { allowed_mentions: { parse: [] }, ...body },
      });
    },
  };
}
