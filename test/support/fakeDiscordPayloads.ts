// Payload builders for FakeDiscord. Every builder is typed against discord-api-types (re-exported by
// discord.js) so that a shape discord.js relies on cannot silently go missing.
import { randomBytes } from 'node:crypto';
import {
  type APIApplication,
  type APIApplicationCommand,
  type APIApplicationCommandInteractionDataOption,
  type APIChatInputApplicationCommandInteraction,
  type APIDMChannel,
  type APIEmbed,
  type APIGuildMember,
  type APIGuildTextChannel,
  type APIInteractionGuildMember,
  type APIMessage,
  type APIMessageComponentInteraction,
  type APIMessageTopLevelComponent,
  type APIModalSubmissionComponent,
  type APIModalSubmitInteraction,
  type APIRole,
  type APIUser,
  ApplicationCommandOptionType,
  ApplicationCommandType,
  ApplicationFlags,
  type ChannelFlags,
  ChannelType,
  ComponentType,
  type GatewayGuildCreateDispatchData,
  type GatewayReadyDispatchData,
  GuildDefaultMessageNotifications,
  GuildExplicitContentFilter,
  type GuildMemberFlags,
  GuildMFALevel,
  GuildNSFWLevel,
  GuildPremiumTier,
  GuildSystemChannelFlags,
  GuildVerificationLevel,
  InteractionContextType,
  InteractionType,
  Locale,
  type MessageType,
  PermissionFlagsBits,
  type RoleFlags,
  type UserFlags,
} from 'discord.js';

const DISCORD_EPOCH = 1_420_070_400_000;
let lastSnowflakeMs = 0;
let snowflakeIncrement = 0;

/**
 * Real-looking snowflakes: discord.js derives `createdTimestamp` from them, so product code that measures
 * interaction age (the 3 s acknowledgement window) sees the true dispatch time.
 */
export function snowflake(): string {
  let ms = Math.max(Date.now(), lastSnowflakeMs);
  if (ms === lastSnowflakeMs) {
    snowflakeIncrement += 1;
    if (snowflakeIncrement > 0xfff) {
      ms += 1;
      snowflakeIncrement = 0;
    }
  } else {
    snowflakeIncrement = 0;
  }
  lastSnowflakeMs = ms;
  return ((BigInt(ms - DISCORD_EPOCH) << 22n) | (1n << 17n) | BigInt(snowflakeIncrement)).toString();
}

export function randomToken(prefix: string, bytes = 24): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
}

function flags(...bits: bigint[]): string {
  return bits.reduce((acc, bit) => acc | bit, 0n).toString();
}

/** Discord's defaults for @everyone in a new guild (no moderation rights). */
export const EVERYONE_PERMISSIONS = flags(
  PermissionFlagsBits.CreateInstantInvite,
  PermissionFlagsBits.AddReactions,
  PermissionFlagsBits.Stream,
  PermissionFlagsBits.ViewChannel,
  PermissionFlagsBits.SendMessages,
  PermissionFlagsBits.EmbedLinks,
  PermissionFlagsBits.AttachFiles,
  PermissionFlagsBits.ReadMessageHistory,
  PermissionFlagsBits.MentionEveryone,
  PermissionFlagsBits.UseExternalEmojis,
  PermissionFlagsBits.Connect,
  PermissionFlagsBits.Speak,
  PermissionFlagsBits.UseVAD,
  PermissionFlagsBits.ChangeNickname,
  PermissionFlagsBits.UseApplicationCommands,
  PermissionFlagsBits.RequestToSpeak,
  PermissionFlagsBits.CreatePublicThreads,
  PermissionFlagsBits.CreatePrivateThreads,
  PermissionFlagsBits.UseExternalStickers,
  PermissionFlagsBits.SendMessagesInThreads,
);

/** What the bot's managed role grants: enough to post, embed and manage its own messages. */
export const BOT_ROLE_PERMISSIONS = flags(
  PermissionFlagsBits.ViewChannel,
  PermissionFlagsBits.SendMessages,
  PermissionFlagsBits.SendMessagesInThreads,
  PermissionFlagsBits.EmbedLinks,
  PermissionFlagsBits.AttachFiles,
  PermissionFlagsBits.ReadMessageHistory,
  PermissionFlagsBits.UseExternalEmojis,
  PermissionFlagsBits.AddReactions,
  PermissionFlagsBits.UseApplicationCommands,
);

const ALL_PERMISSIONS = Object.values(PermissionFlagsBits)
  .reduce((acc, bit) => acc | bit, 0n)
  .toString();

/** Effective guild-level permissions, as Discord computes them for `member.permissions`. */
export function computePermissions(guild: GuildModel, roleIds: readonly string[], userId: string): string {
  if (guild.ownerId === userId) return ALL_PERMISSIONS;
  let bits = 0n;
  for (const role of guild.roles.values()) {
    if (role.id === guild.id || roleIds.includes(role.id)) bits |= BigInt(role.permissions);
  }
  return (bits & PermissionFlagsBits.Administrator) !== 0n ? ALL_PERMISSIONS : bits.toString();
}

export function makeUser(id: string, username: string, bot = false): APIUser {
  return {
    id,
    username,
    discriminator: '0',
    global_name: bot ? null : username,
    avatar: null,
    bot,
    public_flags: 0 as UserFlags,
    flags: 0 as UserFlags,
    banner: null,
    accent_color: null,
    avatar_decoration_data: null,
    collectibles: null,
    primary_guild: null,
  };
}

export function makeRole(
  id: string,
  name: string,
  position: number,
  permissions = '0',
  botId?: string,
): APIRole {
  return {
    id,
    name,
    color: 0,
    colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
    hoist: false,
    icon: null,
    unicode_emoji: null,
    position,
    permissions,
    managed: botId !== undefined,
    mentionable: false,
    flags: 0 as RoleFlags,
    ...(botId === undefined ? {} : { tags: { bot_id: botId } }),
  };
}

export type TextChannel = APIGuildTextChannel<ChannelType.GuildText>;

export function makeTextChannel(guildId: string, id: string, name: string, position: number): TextChannel {
  return {
    id,
    type: ChannelType.GuildText,
    guild_id: guildId,
    name,
    position,
    flags: 0 as ChannelFlags,
    parent_id: null,
    permission_overwrites: [],
    nsfw: false,
    topic: null,
    last_message_id: null,
    last_pin_timestamp: null,
    rate_limit_per_user: 0,
  };
}

export function makeDmChannel(id: string, recipient: APIUser): APIDMChannel {
  return {
    id,
    type: ChannelType.DM,
    name: null,
    flags: 0 as ChannelFlags,
    last_message_id: null,
    recipients: [recipient],
  };
}

export function makeMember(user: APIUser, roles: string[], joinedAt: string): APIGuildMember {
  return {
    user,
    nick: null,
    avatar: null,
    banner: null,
    roles,
    joined_at: joinedAt,
    premium_since: null,
    deaf: false,
    mute: false,
    flags: 0 as GuildMemberFlags,
    pending: false,
    communication_disabled_until: null,
  };
}

export interface GuildModel {
  id: string;
  name: string;
  ownerId: string;
  joinedAt: string;
  botRoleId: string;
  channels: Map<string, TextChannel>;
  roles: Map<string, APIRole>;
  members: Map<string, APIGuildMember>;
}

export function makeGuildCreate(guild: GuildModel): GatewayGuildCreateDispatchData {
  const memberCount = guild.members.size;
  const firstChannel = guild.channels.keys().next().value ?? null;
  return {
    id: guild.id,
    name: guild.name,
    icon: null,
    icon_hash: null,
    splash: null,
    discovery_splash: null,
    banner: null,
    description: null,
    owner_id: guild.ownerId,
    region: 'us-east',
    afk_channel_id: null,
    afk_timeout: 300,
    widget_enabled: false,
    widget_channel_id: null,
    verification_level: GuildVerificationLevel.Low,
    default_message_notifications: GuildDefaultMessageNotifications.OnlyMentions,
    explicit_content_filter: GuildExplicitContentFilter.AllMembers,
    mfa_level: GuildMFALevel.None,
    nsfw_level: GuildNSFWLevel.Default,
    premium_tier: GuildPremiumTier.None,
    premium_subscription_count: 0,
    premium_progress_bar_enabled: false,
    preferred_locale: Locale.EnglishUS,
    features: [],
    emojis: [],
    stickers: [],
    roles: [...guild.roles.values()],
    application_id: null,
    system_channel_id: firstChannel,
    system_channel_flags: GuildSystemChannelFlags.SuppressJoinNotificationReplies,
    rules_channel_id: null,
    public_updates_channel_id: null,
    safety_alerts_channel_id: null,
    max_members: 500_000,
    max_video_channel_users: 25,
    max_stage_video_channel_users: 50,
    vanity_url_code: null,
    hub_type: null,
    incidents_data: null,
    joined_at: guild.joinedAt,
    large: memberCount > 250,
    unavailable: false,
    member_count: memberCount,
    voice_states: [],
    members: [...guild.members.values()],
    channels: [...guild.channels.values()],
    threads: [],
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
}

export function makeReady(
  botUser: APIUser,
  applicationId: string,
  guildIds: string[],
  sessionId: string,
  resumeUrl: string,
): GatewayReadyDispatchData {
  return {
    v: 10,
    user: { ...botUser, verified: true, mfa_enabled: false },
    guilds: guildIds.map((id) => ({ id, unavailable: true })),
    session_id: sessionId,
    resume_gateway_url: resumeUrl,
    shard: [0, 1],
    application: {
      id: applicationId,
      flags: ApplicationFlags.GatewayMessageContentLimited,
      flags_new: String(ApplicationFlags.GatewayMessageContentLimited),
    },
  };
}

export function makeApplication(applicationId: string, botUser: APIUser, owner: APIUser): APIApplication {
  return {
    id: applicationId,
    name: botUser.username,
    icon: null,
    description: 'Fake application served by FakeDiscord',
    summary: '',
    bot_public: false,
    bot_require_code_grant: false,
    bot: botUser,
    owner,
    verify_key: randomBytes(32).toString('hex'),
    team: null,
    flags: ApplicationFlags.GatewayMessageContentLimited,
    flags_new: String(ApplicationFlags.GatewayMessageContentLimited),
    approximate_guild_count: 1,
    redirect_uris: [],
    interactions_endpoint_url: null,
    role_connections_verification_url: null,
    integration_types_config: { '0': {} },
  };
}

/** Discord fills in defaults and ids for commands registered through PUT/POST. */
export function normaliseCommand(
  raw: Record<string, unknown>,
  applicationId: string,
  guildId: string | undefined,
  existingId: string | undefined,
): APIApplicationCommand {
  const type = typeof raw.type === 'number' ? raw.type : ApplicationCommandType.ChatInput;
  const command: APIApplicationCommand = {
    ...(raw as Partial<APIApplicationCommand>),
    id: existingId ?? snowflake(),
    application_id: applicationId,
    version: snowflake(),
    type,
    name: String(raw.name ?? ''),
    description: typeof raw.description === 'string' ? raw.description : '',
    default_member_permissions:
      typeof raw.default_member_permissions === 'string' ? raw.default_member_permissions : null,
    nsfw: raw.nsfw === true,
    integration_types: Array.isArray(raw.integration_types) ? raw.integration_types : [0],
    contexts: Array.isArray(raw.contexts) ? raw.contexts : null,
  };
  if (guildId === undefined) delete command.guild_id;
  else command.guild_id = guildId;
  return command;
}

export interface MessageInit {
  id: string;
  channelId: string;
  author: APIUser;
  type: MessageType;
  body: Record<string, unknown>;
  extraFlags?: number;
  webhookId?: string;
  interactionMetadata?: APIMessage['interaction_metadata'];
}

function normaliseEmbeds(raw: unknown): APIEmbed[] {
  if (!Array.isArray(raw)) return [];
  return raw.map((embed: APIEmbed) => ({ type: 'rich', ...embed }) as APIEmbed);
}

export function makeMessage(init: MessageInit): APIMessage {
  const { body } = init;
  const message: APIMessage = {
    id: init.id,
    channel_id: init.channelId,
    type: init.type,
    content: typeof body.content === 'string' ? body.content : '',
    author: init.author,
    timestamp: new Date().toISOString(),
    edited_timestamp: null,
    tts: body.tts === true,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    mention_channels: [],
    attachments: [],
    embeds: normaliseEmbeds(body.embeds),
    reactions: [],
    pinned: false,
    flags: (typeof body.flags === 'number' ? body.flags : 0) | (init.extraFlags ?? 0),
    components: Array.isArray(body.components) ? (body.components as APIMessageTopLevelComponent[]) : [],
    position: 0,
  };
  if (init.webhookId !== undefined) {
    message.webhook_id = init.webhookId;
    message.application_id = init.webhookId;
  }
  if (init.interactionMetadata !== undefined) message.interaction_metadata = init.interactionMetadata;
  return message;
}

/** Applies an edit the way Discord does: only keys present in the body change; "loading" ends. */
export function applyMessageEdit(
  message: APIMessage,
  body: Record<string, unknown>,
  loadingFlag: number,
): void {
  const wasLoading = ((message.flags ?? 0) & loadingFlag) !== 0;
  if (typeof body.content === 'string' || body.content === null) message.content = body.content ?? '';
  if (Array.isArray(body.embeds) || body.embeds === null) message.embeds = normaliseEmbeds(body.embeds);
  if (Array.isArray(body.components) || body.components === null) {
    message.components = (body.components ?? []) as APIMessageTopLevelComponent[];
  }
  if (Array.isArray(body.attachments)) message.attachments = [];
  // Ephemeral (64) cannot be toggled by an edit, other flags can.
  const keep = (message.flags ?? 0) & 64;
  if (typeof body.flags === 'number') message.flags = (body.flags & ~64) | keep;
  message.flags = (message.flags ?? 0) & ~loadingFlag;
  if (!wasLoading) message.edited_timestamp = new Date().toISOString();
}

export type OptionValue = string | number | boolean;

export function makeCommandOptions(
  options: Record<string, OptionValue> | undefined,
  subcommand: string | undefined,
  subcommandGroup: string | undefined,
): APIApplicationCommandInteractionDataOption[] | undefined {
  const leaf: APIApplicationCommandInteractionDataOption[] = Object.entries(options ?? {}).map(
    ([name, value]): APIApplicationCommandInteractionDataOption => {
      if (typeof value === 'boolean') return { name, type: ApplicationCommandOptionType.Boolean, value };
      if (typeof value === 'number') {
        return Number.isInteger(value)
          ? { name, type: ApplicationCommandOptionType.Integer, value }
          : { name, type: ApplicationCommandOptionType.Number, value };
      }
      return { name, type: ApplicationCommandOptionType.String, value };
    },
  );
  if (subcommand === undefined) return leaf.length > 0 ? leaf : undefined;
  const sub: APIApplicationCommandInteractionDataOption = {
    name: subcommand,
    type: ApplicationCommandOptionType.Subcommand,
    options: leaf as never,
  };
  if (subcommandGroup === undefined) return [sub];
  return [
    { name: subcommandGroup, type: ApplicationCommandOptionType.SubcommandGroup, options: [sub as never] },
  ];
}

export interface InteractionEnvelope {
  id: string;
  token: string;
  applicationId: string;
  appPermissions: string;
  /** Present for guild interactions. */
  guild?: { id: string; member: APIInteractionGuildMember };
  /** Present for bot-DM interactions. */
  user?: APIUser;
  channel: TextChannel | APIDMChannel;
  /** Invoked through a user install of the app (in a guild that has not installed it) instead of a guild install. */
  userInstall?: boolean;
  /** The invoker's client language; en-US unless given. */
  locale?: string;
}

/** The fields every interaction type shares, with the guild/DM split Discord applies. */
function envelope(e: InteractionEnvelope) {
  const common = {
    id: e.id,
    token: e.token,
    application_id: e.applicationId,
    version: 1 as const,
    app_permissions: e.appPermissions,
    locale: (e.locale ?? Locale.EnglishUS) as Locale,
    entitlements: [],
    attachment_size_limit: 10_485_760,
    channel: e.channel,
    channel_id: e.channel.id,
  };
  if (e.guild !== undefined) {
    return {
      ...common,
      guild_id: e.guild.id,
      guild: { id: e.guild.id, locale: Locale.EnglishUS, features: [] },
      guild_locale: Locale.EnglishUS,
      member: e.guild.member,
      context: InteractionContextType.Guild,
      authorizing_integration_owners: e.userInstall ? { '1': e.guild.member.user.id } : { '0': e.guild.id },
    };
  }
  return {
    ...common,
    user: e.user,
    context: InteractionContextType.BotDM,
    // Discord reports "0" as the guild-install owner when the interaction happens in a DM with the bot.
    authorizing_integration_owners: { '0': '0' },
  };
}

export function makeChatInputInteraction(
  e: InteractionEnvelope,
  command: {
    id: string;
    name: string;
    guildId?: string;
    options?: APIApplicationCommandInteractionDataOption[];
  },
): APIChatInputApplicationCommandInteraction {
  return {
    ...envelope(e),
    type: InteractionType.ApplicationCommand,
    data: {
      id: command.id,
      name: command.name,
      type: ApplicationCommandType.ChatInput,
      ...(command.guildId === undefined ? {} : { guild_id: command.guildId }),
      ...(command.options === undefined ? {} : { options: command.options }),
    },
  };
}

export function makeComponentInteraction(
  e: InteractionEnvelope,
  customId: string,
  message: APIMessage,
  values: string[] | undefined,
): APIMessageComponentInteraction {
  return {
    ...envelope(e),
    type: InteractionType.MessageComponent,
    message,
    data:
      values === undefined
        ? { custom_id: customId, component_type: ComponentType.Button }
        : { custom_id: customId, component_type: ComponentType.StringSelect, values },
  };
}

export function makeModalSubmitInteraction(
  e: InteractionEnvelope,
  customId: string,
  components: APIModalSubmissionComponent[],
  message: APIMessage | undefined,
): APIModalSubmitInteraction {
  return {
    ...envelope(e),
    type: InteractionType.ModalSubmit,
    data: { custom_id: customId, components },
    ...(message === undefined ? {} : { message }),
  };
}

/**
 * Discord echoes a modal's layout back: Label-wrapped inputs come back as Label components (with the
 * input as `component`), legacy action rows as action rows; a text input gives its `value`, a radio group
 * its `value`, a select menu its `values`. `shown`: the components of the modal the bot opened (a field
 * it did not draw comes back as a labelled text input).
 */
export function makeModalComponents(
  fields: Record<string, string>,
  shown: readonly unknown[],
): APIModalSubmissionComponent[] {
  const drawn = new Map<string, { wrapper: number; type: number }>();
  for (const component of shown) {
    const c = component as {
      type?: number;
      component?: { custom_id?: string; type?: number };
      components?: { custom_id?: string; type?: number }[];
    };
    const inputs = c.component ? [c.component] : (c.components ?? []);
    for (const input of inputs) {
      if (input.custom_id !== undefined)
        drawn.set(input.custom_id, {
          wrapper: c.type ?? ComponentType.Label,
          type: input.type ?? ComponentType.TextInput,
        });
    }
  }
  let nextId = 1;
  return Object.entries(fields).map(([customId, value]): APIModalSubmissionComponent => {
    const { wrapper, type } = drawn.get(customId) ?? {
      wrapper: ComponentType.Label,
      type: ComponentType.TextInput,
    };
    const id = nextId + 1;
    const input =
      type === ComponentType.StringSelect
        ? { type: ComponentType.StringSelect as const, id, custom_id: customId, values: [value] }
        : type === ComponentType.RadioGroup
          ? { type: ComponentType.RadioGroup as const, id, custom_id: customId, value }
          : { type: ComponentType.TextInput as const, id, custom_id: customId, value };
    const wrapperId = nextId;
    nextId += 2;
    return wrapper === ComponentType.ActionRow && input.type === ComponentType.TextInput
      ? { type: ComponentType.ActionRow, id: wrapperId, components: [input] }
      : ({ type: ComponentType.Label, id: wrapperId, component: input } as APIModalSubmissionComponent);
  });
}

export interface FormError {
  path: (string | number)[];
  code: string;
  message: string;
}

function lengthError(path: (string | number)[], value: unknown, max: number): FormError[] {
  return typeof value === 'string' && value.length > max
    ? [{ path, code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${max} or fewer in length.` }]
    : [];
}

function embedLength(embed: Record<string, unknown>): number {
  const text = (v: unknown): number => (typeof v === 'string' ? v.length : 0);
  const author = embed.author as Record<string, unknown> | undefined;
  const footer = embed.footer as Record<string, unknown> | undefined;
  const fields = Array.isArray(embed.fields) ? (embed.fields as Record<string, unknown>[]) : [];
  return (
    text(embed.title) +
    text(embed.description) +
    text(author?.name) +
    text(footer?.text) +
    fields.reduce((sum, f) => sum + text(f.name) + text(f.value), 0)
  );
}

/**
 * The message limits Discord enforces server-side. Worth reproducing: these are exactly the failures a
 * chat-ops bot hits when it pastes long command output, and they only surface against the real API.
 */
export function validateMessageBody(
  body: Record<string, unknown>,
  creating: boolean,
  hasFiles: boolean,
): FormError[] | 'empty' {
  const errors: FormError[] = [...lengthError(['content'], body.content, 2000)];
  const embeds = Array.isArray(body.embeds) ? (body.embeds as Record<string, unknown>[]) : [];
  if (embeds.length > 10) {
    errors.push({
      path: ['embeds'],
      code: 'BASE_TYPE_MAX_LENGTH',
      message: 'Must be 10 or fewer in length.',
    });
  }
  let total = 0;
  embeds.forEach((embed, i) => {
    const author = embed.author as Record<string, unknown> | undefined;
    const footer = embed.footer as Record<string, unknown> | undefined;
    const fields = Array.isArray(embed.fields) ? (embed.fields as Record<string, unknown>[]) : [];
    errors.push(
      ...lengthError(['embeds', i, 'title'], embed.title, 256),
      ...lengthError(['embeds', i, 'description'], embed.description, 4096),
      ...lengthError(['embeds', i, 'author', 'name'], author?.name, 256),
      ...lengthError(['embeds', i, 'footer', 'text'], footer?.text, 2048),
    );
    if (fields.length > 25) {
      errors.push({
        path: ['embeds', i, 'fields'],
        code: 'BASE_TYPE_MAX_LENGTH',
        message: 'Must be 25 or fewer in length.',
      });
    }
    fields.forEach((field, j) => {
      errors.push(
        ...lengthError(['embeds', i, 'fields', j, 'name'], field.name, 256),
        ...lengthError(['embeds', i, 'fields', j, 'value'], field.value, 1024),
      );
      if (typeof field.value !== 'string' || field.value.length === 0) {
        errors.push({
          path: ['embeds', i, 'fields', j, 'value'],
          code: 'BASE_TYPE_REQUIRED',
          message: 'This field is required',
        });
      }
    });
    total += embedLength(embed);
  });
  if (total > 6000) {
    errors.push({
      path: ['embeds'],
      code: 'MAX_EMBED_SIZE_EXCEEDED',
      message: 'Embed size exceeds maximum size of 6000',
    });
  }
  const components = Array.isArray(body.components) ? body.components : [];
  const isComponentsV2 = typeof body.flags === 'number' && (body.flags & (1 << 15)) !== 0;
  if (!isComponentsV2 && components.length > 5) {
    errors.push({
      path: ['components'],
      code: 'BASE_TYPE_MAX_LENGTH',
      message: 'Must be 5 or fewer in length.',
    });
  }
  if (errors.length > 0) return errors;
  const hasContent = typeof body.content === 'string' && body.content.length > 0;
  const hasAttachments = hasFiles || (Array.isArray(body.attachments) && body.attachments.length > 0);
  const hasOther = Array.isArray(body.sticker_ids) || body.poll !== undefined;
  if (
    creating &&
    !hasContent &&
    embeds.length === 0 &&
    components.length === 0 &&
    !hasAttachments &&
    !hasOther
  ) {
    return 'empty';
  }
  return [];
}
