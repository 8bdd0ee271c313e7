// The stage a bot runs against: the fake Discord and the fake hosting API, started together.
import type { FakeDiscord, FakeDiscordOptions } from '../test/support/FakeDiscord.js';
import { FakeDiscord as FakeDiscordServer } from '../test/support/FakeDiscord.js';
import { FakeHostingApi } from '../test/support/FakeHostingApi.js';
import { ROLES } from './botSetup.js';

export interface Stage {
  discord: FakeDiscord;
  api: FakeHostingApi;
  stop(): Promise<void>;
}

/**
 * `sessions: 'all'` lets several bot processes hold a gateway session on one stage, each receiving every
 * event (replicas); the default delivers to the latest session only.
 */
export async function startStage(
  guild: { memberCount?: number; channelCount?: number } = {},
  options: { sessions?: FakeDiscordOptions['sessions'] } = {},
): Promise<Stage> {
  const discord = await FakeDiscordServer.start({
    ...(options.sessions === undefined ? {} : { sessions: options.sessions }),
    guilds: [
      {
        ...guild,
        roles: Object.entries(ROLES).map(([name, id]) => ({ id, name })),
      },
    ],
  });
  const api = await FakeHostingApi.start();
  return {
    discord,
    api,
    async stop() {
      await Promise.all([discord.stop(), api.stop()]);
    },
  };
}
