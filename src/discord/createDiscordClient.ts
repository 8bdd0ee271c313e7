import {
  Client,
  DefaultRestOptions,
  GatewayIntentBits,
  Options,
  Partials,
  type RESTOptions,
} from 'discord.js';

export interface DiscordClientOptions {
  /** REST base, e.g. https://discord.com/api; tests and REST proxies point it elsewhere. */
  apiUrl: string;
  /**
   * Wraps REST's network call (INTERACTIONS_MODE=http: the initial responses go back as HTTP responses,
   * see InitialResponses); the default sends everything to `apiUrl`.
   */
  wrapRequests?: (next: RESTOptions['makeRequest']) => RESTOptions['makeRequest'];
}

/**
 * Guilds intent only, and caches cut to what interactions need (guilds, channels, roles); members,
 * users, messages and the rest are not kept, which keeps memory flat in large guilds.
 */
export function createDiscordClient({ apiUrl, wrapRequests }: DiscordClientOptions): Client {
  // A client that never logs in (http mode) has no user of its own: nothing is kept for it.
  const isSelf = (entry: { id: string; client: Client }) => entry.id === entry.client.user?.id;
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
      ...(wrapRequests ? { makeRequest: wrapRequests(DefaultRestOptions.makeRequest) } : {}),
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
      GuildMemberManager: { maxSize: 0, keepOverLimit: isSelf },
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
      UserManager: { maxSize: 0, keepOverLimit: isSelf },
      VoiceStateManager: 0,
    }),
    sweepers: { ...Options.DefaultSweeperSettings },
  });
}
