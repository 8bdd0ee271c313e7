import { Client, GatewayIntentBits, Options, Partials } from 'discord.js';

export interface DiscordClientOptions {
  /** REST base, e.g. https://discord.com/api; tests and REST proxies point it elsewhere. */
  apiUrl: string;
}

/**
 * Guilds intent only, and caches cut to what interactions need (guilds, channels, roles); members,
 * users, messages and the rest are not kept, which keeps memory flat in large guilds.
 */
export function createDiscordClient({ apiUrl }: DiscordClientOptions): Client {
  return new Client({
    intents: [GatewayIntentBits.Guilds],
    partials: [Partials.Channel],
    rest: {
      api: apiUrl,
      // Interaction callbacks and webhook edits are exempt from Discord's global rate limit, and they
      // are nearly all HostOps sends; discord.js would otherwise cap answers at 50 per second.
      globalRequestsPerSecond: 500,
      // One handler per answered interaction token; the default hourly sweep lets them pile up.
      handlerSweepInterval: 60_000,
    },
    // User input is echoed back: nothing HostOps sends may ping anyone.
    allowedMentions: { parse: [], repliedUser: false },
    makeCache: Options.cacheWithLimits({
      ...Options.DefaultMakeCacheSettings,
      ApplicationCommandManager: 0,
      AutoModerationRuleManager: 0,
      BaseGuildEmojiManager: 0,
      GuildEmojiManager: 0,
      GuildBanManager: 0,
      GuildInviteManager: 0,
      GuildMemberManager: { maxSize: 0, keepOverLimit: (member) => member.id === member.client.user.id },
      GuildScheduledEventManager: 0,
      GuildStickerManager: 0,
      GuildTextThreadManager: 0,
      MessageManager: 0,
      PresenceManager: 0,
      ReactionManager: 0,
      ReactionUserManager: 0,
      StageInstanceManager: 0,
      ThreadManager: 0,
      ThreadMemberManager: 0,
      UserManager: { maxSize: 0, keepOverLimit: (user) => user.id === user.client.user.id },
      VoiceStateManager: 0,
    }),
    sweepers: { ...Options.DefaultSweeperSettings },
  });
}
