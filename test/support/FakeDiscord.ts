// A local stand-in for Discord's REST API and gateway, good enough for the real discord.js Client to log in,
// receive interactions and answer them. Point the client at it with `rest: { api: fake.apiUrl }`.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type APIApplicationCommand,
  type APIDMChannel,
  type APIGuildMember,
  type APIInteraction,
  type APIInteractionGuildMember,
  type APIMessage,
  type APIMessageInteractionMetadata,
  type APIUser,
  ApplicationCommandOptionType,
  ApplicationCommandType,
  ButtonStyle,
  ComponentType,
  GatewayDispatchEvents,
  GatewayOpcodes,
  InteractionResponseType,
  InteractionType,
  MessageFlags,
  MessageType,
} from 'discord.js';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { loadDiscordSpec, specErrors } from './discordSpec.js';
import {
  applyMessageEdit,
  BOT_ROLE_PERMISSIONS,
  computePermissions,
  EVERYONE_PERMISSIONS,
  type FormError,
  type GuildModel,
  type InteractionEnvelope,
  makeApplication,
  makeChatInputInteraction,
  makeCommandOptions,
  makeComponentInteraction,
  makeDmChannel,
  makeGuildCreate,
  makeMember,
  makeMessage,
  makeModalComponents,
  makeModalSubmitInteraction,
  makeReady,
  makeRole,
  makeTextChannel,
  makeUser,
  normaliseCommand,
  randomToken,
  snowflake,
  type TextChannel,
  validateMessageBody,
} from './fakeDiscordPayloads.js';
import { hangLimit } from './hangLimit.js';
import { InteractionSigner, type SignedHeaders } from './interactionSigner.js';
import { NonceWindow } from './NonceWindow.js';

export interface FakeGuildOptions {
  id?: string;
  name?: string;
  channelCount?: number;
  /** Total members including the bot, the owner and (first guild only) the default test user. */
  memberCount?: number;
  roles?: { id: string; name: string; permissions?: string }[];
}

export interface FakeDiscordOptions {
  token?: string;
  applicationId?: string;
  guilds?: FakeGuildOptions[];
  heartbeatIntervalMs?: number;
  interactionCallbackDelayMs?: number;
  /**
   * Who gets the gateway events while several clients hold a session (e.g. two bot processes):
   * `latest` (default) only the most recently identified one; `all` every live session, as Discord does
   * with several sessions of one shard; `alternate` every live session gets every event except
   * INTERACTION_CREATE, which goes to one session at a time, in turn (like a load balancer in front of
   * replicas).
   */
  sessions?: 'latest' | 'all' | 'alternate';
  /**
   * Discord's deadline for the first answer to an interaction: a callback arriving later than this after
   * the interaction was delivered is refused with 404 10062 Unknown interaction, as Discord does.
   * Default 3000; `false` turns it off.
   */
  callbackDeadlineMs?: number | false;
  /**
   * How long an interaction token works for edits and follow-ups (`/webhooks/…/<token>…`): later requests
   * get 401 50027 Invalid Webhook Token, as from Discord. Default 15 minutes; `false` turns it off.
   */
  tokenLifetimeMs?: number | false;
  /** How long a nonce with `enforce_nonce` dedupes a bot's messages (NonceWindow); default 2 minutes. */
  nonceWindowMs?: number;
  /**
   * Every message and modal body checked against Discord's published OpenAPI description
   * (test/support/discordSpec.ts): one that breaks it is refused with 400 50035, as Discord would, and kept
   * in `specRefusals`. Default on.
   */
  checkAgainstSpec?: boolean;
}

/**
 * What happens to the bot's next messages POSTed to a channel (faultChannelPosts): an HTTP error and no
 * message; the connection dropped and no message; held unanswered with no message created (`hold`), or
 * created and its answer held (`hold-created`: Discord accepted it, the bot never hears so) — until the
 * bot's socket closes or FakeDiscord stops.
 */
export type ChannelPostFault = { status: number } | 'drop' | 'hold' | 'hold-created';

export interface RecordedRequest {
  method: string;
  /** Decoded, without the `/api/v10` prefix, e.g. `/interactions/123/tok/callback`. */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON (or `payload_json` of a multipart body); undefined when there was no body. */
  body: unknown;
  /** `performance.now()` when the request arrived. */
  at: number;
  /** Files of a multipart body. */
  files?: { field: string; name: string; size: number; contentType: string; text: string }[];
  /**
   * The message this request created or edited (a reply, an update, a follow-up, an edit of @original,
   * a channel message), and whether it is ephemeral: who can see what the request carried.
   */
  message?: { id: string; ephemeral: boolean };
  /** The status the fake answered with (set once the request has been routed). */
  status?: number;
  /**
   * `http-response`: not a request to the API but the bot's HTTP response to an interaction delivered over
   * HTTP, which Discord takes as the interaction's callback (recorded as one, on the callback's path).
   */
  via?: 'http-response';
}

/** How the bot's interactions endpoint answered one delivery. */
export interface HttpResponse {
  /** 0: no endpoint could be reached (`text` says why). */
  status: number;
  contentType: string;
  text: string;
  /** The endpoint that answered (or was tried last). */
  endpoint: string;
}

export interface InteractionOptions {
  commandName: string;
  subcommand?: string;
  subcommandGroup?: string;
  /** string → STRING (3), integer → INTEGER (4), other number → NUMBER (10), boolean → BOOLEAN (5). */
  options?: Record<string, string | number | boolean>;
  userId?: string;
  username?: string;
  /** Role ids; unknown ids are created in the guild (GUILD_ROLE_CREATE) so discord.js can resolve them. */
  roles?: string[];
  /** Member permission bitfield; by default computed from the member's roles like Discord does. */
  permissions?: string;
  /** null = bot DM: no guild_id/member, a `user` instead, context 1. */
  guildId?: string | null;
  channelId?: string;
  commandId?: string;
  /** Invoked through a user install of the app rather than the guild's install. */
  userInstall?: boolean;
  /** ATTACHMENT (11) options: files the member attached, resolved as Discord resolves them. */
  attachments?: Record<string, FakeAttachment>;
  /** The invoker's client language (Discord's `locale`); en-US unless given. */
  locale?: string;
}

/** An uploaded file as Discord describes it; the bot downloads it from `url` (serve it yourself). */
export interface FakeAttachment {
  url: string;
  filename: string;
  size: number;
  contentType?: string;
}

export interface DispatchedInteraction {
  id: string;
  token: string;
  dispatchedAt: number;
  payload: APIInteraction;
  /** Delivered over HTTP (see `deliverOverHttp`): how the endpoint answered, once it has. */
  response?: Promise<HttpResponse>;
}

export interface ComponentOptions {
  customId: string;
  /** A message the fake already knows (e.g. one the bot posted) or any id to synthesise one. */
  message?: { id: string };
  /** Given → string select (component_type 3) with these values instead of a button. */
  values?: string[];
  userId?: string;
  roles?: string[];
  guildId?: string | null;
  channelId?: string;
  /** The clicker's client language; en-US unless given. */
  locale?: string;
}

export interface ModalSubmitOptions {
  customId: string;
  fields: Record<string, string>;
  userId?: string;
  roles?: string[];
  guildId?: string | null;
  channelId?: string;
  locale?: string;
}

interface RestResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

interface InteractionState {
  id: string;
  token: string;
  type: InteractionType;
  channelId: string;
  user: APIUser;
  guildId: string | null;
  commandName?: string;
  componentMessageId?: string;
  acknowledged: boolean;
  /** performance.now() when INTERACTION_CREATE first went out to a session (deadlines count from here). */
  deliveredAt?: number;
  responseType?: InteractionResponseType;
  originalMessageId?: string;
  followups: Set<string>;
}

interface GatewayConnection {
  ws: WebSocket;
  identified: boolean;
  sessionId?: string;
}

interface GatewaySession {
  id: string;
  seq: number;
  /** Recently sent dispatches, so a resume can replay what the client missed (as Discord does). */
  history: { s: number; t: string; d: unknown }[];
}

interface ClientPayload {
  op: number;
  d: unknown;
}

type Handler = (r: RecordedRequest, p: Record<string, string>) => RestResult;

interface Route {
  method: string;
  segments: string[];
  auth: boolean;
  handler: Handler;
}

// Close codes after which Discord refuses to resume the session.
const SESSION_ENDING_CLOSE_CODES = new Set([1000, 1001, 4004, 4007, 4009, 4010, 4011, 4012, 4013, 4014]);
const HISTORY_LIMIT = 1000;
const MEMBER_CHUNK_SIZE = 1000;

const json = (status: number, body: unknown, headers?: Record<string, string>): RestResult => ({
  status,
  body,
  ...(headers === undefined ? {} : { headers }),
});
const noContent: RestResult = { status: 204 };
const apiError = (status: number, code: number, message: string): RestResult =>
  json(status, { code, message });
const unknownMessage = (): RestResult => apiError(404, 10008, 'Unknown Message');
const unknownWebhook = (): RestResult => apiError(404, 10015, 'Unknown Webhook');
const unknownChannel = (): RestResult => apiError(404, 10003, 'Unknown Channel');

/**
 * JSON.stringify writes a lone surrogate as `\\udXXX`; Discord cannot store such a string and refuses
 * the whole body as invalid JSON (50109), so a text cut in the middle of an emoji fails right here.
 */
function hasLoneSurrogate(value: unknown): boolean {
  if (typeof value === 'string') return /\p{Cs}/u.test(value);
  if (Array.isArray(value)) return value.some(hasLoneSurrogate);
  if (typeof value === 'object' && value !== null) return Object.values(value).some(hasLoneSurrogate);
  return false;
}

function invalidForm(errors: FormError[], prefix: (string | number)[] = []): RestResult {
  const tree: Record<string, unknown> = {};
  for (const error of errors) {
    let node = tree;
    for (const key of [...prefix, ...error.path]) {
      node[key] ??= {};
      node = node[key] as Record<string, unknown>;
    }
    const list = Array.isArray(node._errors) ? node._errors : [];
    list.push({ code: error.code, message: error.message });
    node._errors = list;
  }
  return json(400, { code: 50035, errors: tree, message: 'Invalid Form Body' });
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function decodePath(pathname: string): string {
  return pathname
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    })
    .join('/');
}

export class FakeDiscord {
  readonly token: string;
  readonly applicationId: string;
  readonly botUserId: string;
  readonly guildId: string;
  readonly channelId: string;
  /** The default user interactions come from: a plain member (not owner, no roles) of the first guild. */
  readonly userId: string;
  readonly requests: RecordedRequest[] = [];
  /** Bodies refused for breaking Discord's OpenAPI description: the request and where it broke it. */
  readonly specRefusals: { method: string; path: string; body: unknown; errors: string[] }[] = [];
  readonly #checkAgainstSpec: boolean;
  /** The application's key pair: `signer.publicKey` is what DISCORD_PUBLIC_KEY takes. */
  readonly signer = new InteractionSigner();

  readonly #server: Server;
  readonly #wss: WebSocketServer;
  readonly #routes: Route[] = [];
  readonly #heartbeatIntervalMs: number;
  readonly #callbackDelayMs: number;
  readonly #callbackDeadlineMs: number | false;
  readonly #tokenLifetimeMs: number | false;
  readonly #stopController = new AbortController();
  #port = 0;
  #stopped = false;

  readonly #botUser: APIUser;
  readonly #owner: APIUser;
  readonly #users = new Map<string, APIUser>();
  readonly #guilds = new Map<string, GuildModel>();
  readonly #dmChannels = new Map<string, APIDMChannel>();
  readonly #messages = new Map<string, APIMessage>();
  readonly #commands = new Map<string, Map<string, APIApplicationCommand>>();
  readonly #unregisteredCommandIds = new Map<string, string>();
  readonly #interactions = new Map<string, InteractionState>();
  readonly #interactionsByToken = new Map<string, InteractionState>();
  readonly #modals = new Map<string, { components: unknown[]; messageId?: string }>();

  readonly #connections = new Set<GatewayConnection>();
  #active: GatewayConnection | undefined;
  #session: GatewaySession | undefined;
  #delivery: NonNullable<FakeDiscordOptions['sessions']>;
  /** Live sessions besides the latest (#active/#session); only with `sessions: 'all' | 'alternate'`. */
  readonly #otherSessions = new Map<GatewayConnection, GatewaySession>();
  #interactionTurn = 0;
  /** Interactions Endpoint URLs: when set, interactions are POSTed there (in turn) instead of the gateway. */
  #endpoints: string[] = [];
  #endpointTurn = 0;
  /** What was POSTed for an interaction (body and signature), for replays. */
  readonly #posted = new Map<string, { body: string; headers: SignedHeaders }>();
  /** Interaction token → its delivery over HTTP while it is unanswered. */
  readonly #unanswered = new Map<string, Promise<HttpResponse>>();
  #gatewayConnections = 0;
  /** Interaction id → ids of the gateway sessions its INTERACTION_CREATE was sent to. */
  readonly #deliveries = new Map<string, string[]>();
  #backlog: { t: string; d: unknown }[] = [];
  #heartbeatAcks = true;
  #identifyCount = 0;
  #resumeCount = 0;
  #nextIdentifyFailure: { code: number; reason: string } | undefined;
  #nextCallbackFailure: RestResult | undefined;
  #restDelayMs = 0;
  readonly #nonces: NonceWindow;
  readonly #channelPostFaults = new Map<string, ChannelPostFault>();
  /** While set, RESUME and IDENTIFY wait here instead of being answered (see holdSessions). */
  #heldSessionStarts: (() => void)[] | undefined;
  /** The request being routed: message handlers note on it which message they created or edited. */
  #routing: RecordedRequest | undefined;
  readonly #readyWaiters = new Set<() => void>();
  readonly #requestWaiters = new Set<(r: RecordedRequest) => void>();
  readonly #pendingRejections = new Set<(error: Error) => void>();

  private constructor(options: FakeDiscordOptions) {
    this.token = options.token ?? `fake-bot-token.${randomBytes(8).toString('hex')}`;
    this.applicationId = options.applicationId ?? snowflake();
    // Modern applications share their id with their bot user.
    this.botUserId = this.applicationId;
    this.#heartbeatIntervalMs = options.heartbeatIntervalMs ?? 41_250;
    this.#callbackDelayMs = options.interactionCallbackDelayMs ?? 0;
    this.#callbackDeadlineMs = options.callbackDeadlineMs ?? 3_000;
    this.#tokenLifetimeMs = options.tokenLifetimeMs ?? 15 * 60_000;
    this.#delivery = options.sessions ?? 'latest';
    this.#nonces = new NonceWindow(options.nonceWindowMs);
    this.#checkAgainstSpec = options.checkAgainstSpec ?? true;

    this.#botUser = this.#addUser(makeUser(this.botUserId, 'HostOps', true));
    this.#owner = this.#addUser(makeUser(snowflake(), 'guild-owner'));
    this.userId = this.#addUser(makeUser(snowflake(), 'tester')).id;

    const guildOptions = options.guilds?.length ? options.guilds : [{}];
    guildOptions.forEach((g, index) => {
      this.#createGuild(g, index === 0);
    });
    const first = this.#guilds.values().next().value;
    if (first === undefined) throw new Error('FakeDiscord needs at least one guild');
    this.guildId = first.id;
    this.channelId = this.#defaultChannel(first).id;

    this.#server = createServer((req, res) => {
      void this.#onHttpRequest(req, res);
    });
    this.#server.keepAliveTimeout = 60_000;
    this.#wss = new WebSocketServer({ server: this.#server, perMessageDeflate: false });
    this.#wss.on('connection', (ws) => this.#onGatewayConnection(ws));
    this.#registerRoutes();
  }

  static async start(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
    const fake = new FakeDiscord(options);
    // Compiled before any request: compiling in a request's turn would stall the bot sharing this process.
    if (fake.#checkAgainstSpec) loadDiscordSpec();
    await new Promise<void>((resolve, reject) => {
      fake.#server.once('error', reject);
      fake.#server.listen(0, '127.0.0.1', () => {
        fake.#server.off('error', reject);
        resolve();
      });
    });
    fake.#port = (fake.#server.address() as AddressInfo).port;
    return fake;
  }

  get apiUrl(): string {
    return `http://127.0.0.1:${this.#port}/api`;
  }

  get gatewayUrl(): string {
    return `ws://127.0.0.1:${this.#port}`;
  }

  get identifyCount(): number {
    return this.#identifyCount;
  }

  get resumeCount(): number {
    return this.#resumeCount;
  }

  /**
   * Switches between `all` and `alternate` delivery while the sessions stay connected (a fake started
   * with `latest` keeps no earlier sessions to deliver to).
   */
  setSessions(mode: 'all' | 'alternate'): void {
    if (this.#delivery === 'latest') throw new Error('FakeDiscord: start with sessions: all or alternate');
    this.#delivery = mode;
  }

  /** The gateway sessions an interaction was delivered to (empty while it waits for one). */
  deliveredTo(i: Pick<DispatchedInteraction, 'id'>): string[] {
    return [...(this.#deliveries.get(i.id) ?? [])];
  }

  /** Identified gateway sessions that receive events now (more than one only with `sessions: 'all' | 'alternate'`). */
  get liveSessionCount(): number {
    const open = (c: GatewayConnection) => c.ws.readyState === WebSocket.OPEN;
    const others = [...this.#otherSessions.keys()].filter(open).length;
    return (this.#active !== undefined && open(this.#active) ? 1 : 0) + others;
  }

  /** Gateway connections ever opened (WebSocket upgrades), including ones that never identified. */
  get gatewayConnectionCount(): number {
    return this.#gatewayConnections;
  }

  /**
   * From now on interactions are delivered as Discord delivers them to an Interactions Endpoint URL: a
   * signed POST, to each endpoint in turn (like a round-robin load balancer, which tries the next one when
   * a connection is refused); the HTTP response is taken as the interaction's callback. Empty: the gateway again.
   */
  deliverOverHttp(endpoints: string[]): void {
    this.#endpoints = [...endpoints];
  }

  /**
   * Sends an interaction already delivered over HTTP again, byte for byte with its signature (a replayed
   * request), to `endpoint` (by default the one it went to first).
   */
  replay(i: Pick<DispatchedInteraction, 'id'>, endpoint?: string): Promise<HttpResponse> {
    const posted = this.#posted.get(i.id);
    const state = this.#interactions.get(i.id);
    if (posted === undefined || state === undefined)
      throw new Error(`FakeDiscord: ${i.id} was not delivered over HTTP`);
    return this.#post(state, posted, endpoint === undefined ? this.#endpoints : [endpoint]);
  }

  get gatewayConnected(): boolean {
    for (const c of this.#connections) if (c.ws.readyState === WebSocket.OPEN) return true;
    return false;
  }

  /** Resolves once a client holds a live session: READY + GUILD_CREATEs (or RESUMED) have been sent. */
  waitForReady(askedMs = 10_000): Promise<void> {
    const timeoutMs = hangLimit(askedMs);
    if (this.#active !== undefined) return Promise.resolve();
    return this.#wait(
      timeoutMs,
      (resolve) => {
        this.#readyWaiters.add(resolve);
        return () => this.#readyWaiters.delete(resolve);
      },
      () => `FakeDiscord.waitForReady timed out after ${timeoutMs}ms (identifies: ${this.#identifyCount})`,
    );
  }

  waitForRequest(predicate: (r: RecordedRequest) => boolean, askedMs = 10_000): Promise<RecordedRequest> {
    const timeoutMs = hangLimit(askedMs);
    const existing = this.requests.find(predicate);
    if (existing !== undefined) return Promise.resolve(existing);
    return this.#wait<RecordedRequest>(
      timeoutMs,
      (resolve, reject) => {
        // A throwing predicate must fail the waiting test, not the HTTP handler that feeds it.
        const listener = (r: RecordedRequest) => {
          try {
            if (predicate(r)) resolve(r);
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        };
        this.#requestWaiters.add(listener);
        return () => this.#requestWaiters.delete(listener);
      },
      () => {
        const recent = this.requests
          .slice(-10)
          .map((r) => `${r.method} ${r.path}`)
          .join(', ');
        return `FakeDiscord.waitForRequest timed out after ${timeoutMs}ms; ${this.requests.length} requests recorded (last: ${recent || 'none'})`;
      },
    );
  }

  requestsFor(i: Pick<DispatchedInteraction, 'id' | 'token'>): RecordedRequest[] {
    const callback = `/interactions/${i.id}/${i.token}/`;
    const webhook = `/webhooks/${this.applicationId}/${i.token}`;
    return this.requests.filter(
      (r) => r.path.startsWith(callback) || r.path === webhook || r.path.startsWith(`${webhook}/`),
    );
  }

  /** The message currently behind `@original` of an interaction (reply, deferred reply or updated message). */
  originalMessage(i: Pick<DispatchedInteraction, 'id'>): APIMessage | undefined {
    const id = this.#interactions.get(i.id)?.originalMessageId;
    return id === undefined ? undefined : this.#messages.get(id);
  }

  getMessage(id: string): APIMessage | undefined {
    return this.#messages.get(id);
  }

  /** Messages in a channel (default: the first guild's default channel), oldest first. */
  channelMessages(channelId = this.channelId): APIMessage[] {
    return [...this.#messages.values()].filter((m) => m.channel_id === channelId);
  }

  /** Application commands registered in one scope: a guild's, or the global ones when `guildId` is omitted. */
  registeredCommands(guildId?: string): APIApplicationCommand[] {
    return [...(this.#commands.get(guildId ?? 'global')?.values() ?? [])];
  }

  dispatchInteraction(opts: InteractionOptions): DispatchedInteraction {
    const ctx = this.#interactionContext(opts);
    const guildId = opts.guildId === null ? undefined : (opts.guildId ?? this.guildId);
    const command = this.#findCommand(opts.commandName, guildId);
    const id = snowflake();
    const token = randomToken('fake-itoken.');
    const payload = makeChatInputInteraction(
      { ...ctx.envelope, id, token, ...(opts.userInstall ? { userInstall: true } : {}) },
      {
        id: opts.commandId ?? command?.id ?? this.#unregisteredCommandId(opts.commandName),
        name: opts.commandName,
        ...(command?.guild_id === undefined ? {} : { guildId: command.guild_id }),
        options: makeCommandOptions(opts.options, opts.subcommand, opts.subcommandGroup),
      },
    );
    if (opts.attachments !== undefined) addAttachmentOptions(payload, opts.attachments);
    return this.#dispatchInteractionPayload(payload, {
      type: InteractionType.ApplicationCommand,
      commandName: opts.commandName,
      ...ctx.state,
    });
  }

  /** An autocomplete request (type 4) for a command; the first given option is the focused one. */
  dispatchAutocomplete(opts: InteractionOptions): DispatchedInteraction {
    const ctx = this.#interactionContext(opts);
    const guildId = opts.guildId === null ? undefined : (opts.guildId ?? this.guildId);
    const command = this.#findCommand(opts.commandName, guildId);
    const id = snowflake();
    const token = randomToken('fake-itoken.');
    const chatInput = makeChatInputInteraction(
      { ...ctx.envelope, id, token },
      {
        id: opts.commandId ?? command?.id ?? this.#unregisteredCommandId(opts.commandName),
        name: opts.commandName,
        ...(command?.guild_id === undefined ? {} : { guildId: command.guild_id }),
        options: makeCommandOptions(opts.options, opts.subcommand, opts.subcommandGroup),
      },
    );
    const focus = (options: unknown): boolean => {
      for (const option of Array.isArray(options) ? options : []) {
        const record = asRecord(option);
        if (record === undefined) continue;
        if ('value' in record) {
          record.focused = true;
          return true;
        }
        if (focus(record.options)) return true;
      }
      return false;
    };
    focus(chatInput.data.options);
    const payload = {
      ...chatInput,
      type: InteractionType.ApplicationCommandAutocomplete,
    } as unknown as APIInteraction;
    return this.#dispatchInteractionPayload(payload, {
      type: InteractionType.ApplicationCommandAutocomplete,
      commandName: opts.commandName,
      ...ctx.state,
    });
  }

  /** Adds a text channel to a guild (default: the first) and returns its id; clients are told over the gateway. */
  addChannel(options: { id?: string; guildId?: string } = {}): string {
    const guild = this.#guilds.get(options.guildId ?? this.guildId);
    if (guild === undefined) throw new Error(`FakeDiscord: unknown guild ${options.guildId}`);
    return this.#ensureChannel(guild, options.id ?? snowflake()).id;
  }

  dispatchComponent(opts: ComponentOptions): DispatchedInteraction {
    const ctx = this.#interactionContext(opts);
    const message = this.#componentMessage(opts, ctx.envelope.channel.id);
    const id = snowflake();
    const token = randomToken('fake-itoken.');
    const payload = makeComponentInteraction(
      { ...ctx.envelope, id, token },
      opts.customId,
      message,
      opts.values,
    );
    return this.#dispatchInteractionPayload(payload, {
      type: InteractionType.MessageComponent,
      componentMessageId: message.id,
      ...ctx.state,
    });
  }

  dispatchModalSubmit(opts: ModalSubmitOptions): DispatchedInteraction {
    const ctx = this.#interactionContext(opts);
    const modal = this.#modals.get(opts.customId);
    const message = modal?.messageId === undefined ? undefined : this.#messages.get(modal.messageId);
    const id = snowflake();
    const token = randomToken('fake-itoken.');
    const payload = makeModalSubmitInteraction(
      { ...ctx.envelope, id, token },
      opts.customId,
      makeModalComponents(opts.fields, modal?.components ?? []),
      message,
    );
    return this.#dispatchInteractionPayload(payload, {
      type: InteractionType.ModalSubmit,
      ...(message === undefined ? {} : { componentMessageId: message.id }),
      ...ctx.state,
    });
  }

  closeGateway(code: number, reason = ''): void {
    if (SESSION_ENDING_CLOSE_CODES.has(code)) this.#session = undefined;
    this.#active = undefined;
    for (const c of this.#connections) {
      if (c.ws.readyState === WebSocket.OPEN) c.ws.close(code, reason);
    }
  }

  dropGateway(): void {
    this.#active = undefined;
    for (const c of this.#connections) c.ws.terminate();
  }

  requestReconnect(): void {
    this.#active = undefined;
    for (const c of this.#connections) this.#send(c, { op: GatewayOpcodes.Reconnect, d: null });
  }

  setHeartbeatAcks(enabled: boolean): void {
    this.#heartbeatAcks = enabled;
  }

  /**
   * Holds every RESUME and IDENTIFY that arrives from now on, unanswered, until the returned function
   * is called: a client that lost its connection stays without a session for exactly as long as a test
   * needs (e.g. to see /healthz report it), instead of racing the resume over loopback.
   */
  holdSessions(): () => void {
    const held: (() => void)[] = [];
    this.#heldSessionStarts = held;
    return () => {
      if (this.#heldSessionStarts === held) this.#heldSessionStarts = undefined;
      for (const start of held.splice(0)) start();
    };
  }

  /** RESUME/IDENTIFY payloads that arrived while sessions were held and wait for the release. */
  get heldSessionCount(): number {
    return this.#heldSessionStarts?.length ?? 0;
  }

  /** The next IDENTIFY is answered by closing the socket with this code (e.g. 4004, 4014). */
  failNextIdentify(code: number, reason = 'Rejected by FakeDiscord.failNextIdentify'): void {
    this.#nextIdentifyFailure = { code, reason };
  }

  setRestDelay(ms: number): void {
    this.#restDelayMs = ms;
  }

  /** Every later POST of a message to this channel meets `fault`, until called again without one. */
  faultChannelPosts(channelId: string, fault?: ChannelPostFault): void {
    if (fault === undefined) this.#channelPostFaults.delete(channelId);
    else this.#channelPostFaults.set(channelId, fault);
  }

  /**
   * The next interaction callback answers with this error instead of acknowledging. For 429 the
   * rate-limit headers discord.js reads are derived from `body.retry_after` unless given.
   */
  failNextCallback(status: number, body: object, headers: Record<string, string> = {}): void {
    const derived: Record<string, string> = {};
    if (status === 429) {
      const retryAfter = (body as { retry_after?: unknown }).retry_after;
      derived['retry-after'] = String(typeof retryAfter === 'number' ? retryAfter : 1);
      derived['x-ratelimit-scope'] = 'user';
      if ((body as { global?: unknown }).global === true) derived['x-ratelimit-global'] = 'true';
    }
    this.#nextCallbackFailure = json(status, body, { ...derived, ...headers });
  }

  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#stopController.abort();
    for (const reject of [...this.#pendingRejections]) reject(new Error('FakeDiscord was stopped'));
    for (const c of this.#connections) c.ws.terminate();
    this.#connections.clear();
    this.#otherSessions.clear();
    this.#active = undefined;
    this.#wss.close();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  // ---------------------------------------------------------------- model

  #addUser(user: APIUser): APIUser {
    this.#users.set(user.id, user);
    return user;
  }

  #createGuild(options: FakeGuildOptions, includeTester: boolean): GuildModel {
    const id = options.id ?? snowflake();
    const joinedAt = new Date().toISOString();
    const botRoleId = snowflake();
    const guild: GuildModel = {
      id,
      name: options.name ?? `Fake Guild ${this.#guilds.size + 1}`,
      ownerId: this.#owner.id,
      joinedAt,
      botRoleId,
      channels: new Map(),
      roles: new Map(),
      members: new Map(),
    };
    guild.roles.set(id, makeRole(id, '@everyone', 0, EVERYONE_PERMISSIONS));
    guild.roles.set(
      botRoleId,
      makeRole(botRoleId, this.#botUser.username, 1, BOT_ROLE_PERMISSIONS, this.botUserId),
    );
    (options.roles ?? []).forEach((r, i) => {
      guild.roles.set(r.id, makeRole(r.id, r.name, i + 2, r.permissions ?? '0'));
    });
    const channelCount = Math.max(1, options.channelCount ?? 2);
    for (let i = 0; i < channelCount; i += 1) {
      const channelId = snowflake();
      guild.channels.set(channelId, makeTextChannel(id, channelId, i === 0 ? 'general' : `channel-${i}`, i));
    }
    const addMember = (user: APIUser, roles: string[] = []) =>
      guild.members.set(user.id, makeMember(user, roles, joinedAt));
    addMember(this.#botUser, [botRoleId]);
    addMember(this.#owner);
    if (includeTester) addMember(this.#requireUser(this.userId));
    const memberCount = options.memberCount ?? guild.members.size;
    for (let i = guild.members.size; i < memberCount; i += 1) {
      addMember(this.#addUser(makeUser(snowflake(), `member${i}`)));
    }
    this.#guilds.set(id, guild);
    return guild;
  }

  #requireUser(id: string): APIUser {
    const user = this.#users.get(id);
    if (user === undefined) throw new Error(`FakeDiscord: unknown user ${id}`);
    return user;
  }

  #defaultChannel(guild: GuildModel): TextChannel {
    const channel = guild.channels.values().next().value;
    if (channel === undefined) throw new Error(`FakeDiscord: guild ${guild.id} has no channels`);
    return channel;
  }

  #ensureUser(id: string | undefined, username: string | undefined): APIUser {
    if (id === undefined) return this.#requireUser(this.userId);
    const existing = this.#users.get(id);
    if (existing !== undefined) {
      if (username !== undefined && existing.username !== username) {
        existing.username = username;
        existing.global_name = username;
      }
      return existing;
    }
    return this.#addUser(makeUser(id, username ?? `user${id.slice(-4)}`));
  }

  // Interactions may name guilds, channels and roles the bot has not been told about; announcing them over
  // the gateway first keeps discord.js's caches (member.roles.cache, interaction.channel) truthful.
  #ensureGuild(id: string): GuildModel {
    const existing = this.#guilds.get(id);
    if (existing !== undefined) return existing;
    const guild = this.#createGuild({ id }, false);
    this.#dispatch(GatewayDispatchEvents.GuildCreate, makeGuildCreate(guild));
    return guild;
  }

  #ensureRoles(guild: GuildModel, roleIds: readonly string[]): void {
    for (const roleId of roleIds) {
      if (guild.roles.has(roleId)) continue;
      const role = makeRole(roleId, `role-${roleId.slice(-4)}`, guild.roles.size);
      guild.roles.set(roleId, role);
      this.#dispatch(GatewayDispatchEvents.GuildRoleCreate, { guild_id: guild.id, role });
    }
  }

  #ensureChannel(guild: GuildModel, channelId: string | undefined): TextChannel {
    if (channelId === undefined) return this.#defaultChannel(guild);
    const existing = guild.channels.get(channelId);
    if (existing !== undefined) return existing;
    const channel = makeTextChannel(
      guild.id,
      channelId,
      `channel-${channelId.slice(-4)}`,
      guild.channels.size,
    );
    guild.channels.set(channelId, channel);
    this.#dispatch(GatewayDispatchEvents.ChannelCreate, channel);
    return channel;
  }

  #dmChannelFor(user: APIUser, channelId?: string): APIDMChannel {
    for (const channel of this.#dmChannels.values()) {
      if (channel.recipients?.[0]?.id === user.id && (channelId === undefined || channel.id === channelId)) {
        return channel;
      }
    }
    const channel = makeDmChannel(channelId ?? snowflake(), user);
    this.#dmChannels.set(channel.id, channel);
    return channel;
  }

  #findChannel(id: string): TextChannel | APIDMChannel | undefined {
    for (const guild of this.#guilds.values()) {
      const channel = guild.channels.get(id);
      if (channel !== undefined) return channel;
    }
    return this.#dmChannels.get(id);
  }

  #interactionContext(opts: {
    userId?: string;
    username?: string;
    roles?: string[];
    permissions?: string;
    guildId?: string | null;
    channelId?: string;
    locale?: string;
  }): {
    envelope: Omit<InteractionEnvelope, 'id' | 'token'>;
    state: Pick<InteractionState, 'channelId' | 'user' | 'guildId'>;
  } {
    const user = this.#ensureUser(opts.userId, opts.username);
    if (opts.guildId === null) {
      const channel = this.#dmChannelFor(user, opts.channelId);
      return {
        envelope: {
          applicationId: this.applicationId,
          appPermissions: (BigInt(EVERYONE_PERMISSIONS) | BigInt(BOT_ROLE_PERMISSIONS)).toString(),
          user,
          channel,
          ...(opts.locale === undefined ? {} : { locale: opts.locale }),
        },
        state: { channelId: channel.id, user, guildId: null },
      };
    }
    const guild = this.#ensureGuild(opts.guildId ?? this.guildId);
    const channel = this.#ensureChannel(guild, opts.channelId);
    this.#ensureRoles(guild, opts.roles ?? []);
    let member: APIGuildMember | undefined = guild.members.get(user.id);
    if (member === undefined) {
      member = makeMember(user, opts.roles ?? [], new Date().toISOString());
      guild.members.set(user.id, member);
    } else if (opts.roles !== undefined) {
      member.roles = [...opts.roles];
    }
    const interactionMember: APIInteractionGuildMember = {
      ...member,
      user,
      permissions: opts.permissions ?? computePermissions(guild, member.roles, user.id),
    };
    return {
      envelope: {
        applicationId: this.applicationId,
        appPermissions: computePermissions(guild, [guild.botRoleId], this.botUserId),
        guild: { id: guild.id, member: interactionMember },
        channel,
        ...(opts.locale === undefined ? {} : { locale: opts.locale }),
      },
      state: { channelId: channel.id, user, guildId: guild.id },
    };
  }

  #componentMessage(opts: ComponentOptions, channelId: string): APIMessage {
    const known = opts.message === undefined ? undefined : this.#messages.get(opts.message.id);
    if (known !== undefined) return known;
    const message = makeMessage({
      id: opts.message?.id ?? snowflake(),
      channelId,
      author: this.#botUser,
      type: MessageType.Default,
      body: {
        content: 'Message with components',
        components: [
          {
            type: ComponentType.ActionRow,
            components:
              opts.values === undefined
                ? [
                    {
                      type: ComponentType.Button,
                      style: ButtonStyle.Primary,
                      custom_id: opts.customId,
                      label: 'Go',
                    },
                  ]
                : [
                    {
                      type: ComponentType.StringSelect,
                      custom_id: opts.customId,
                      options: opts.values.map((v) => ({ label: v, value: v })),
                    },
                  ],
          },
        ],
      },
    });
    this.#messages.set(message.id, message);
    return message;
  }

  #findCommand(name: string, guildId: string | undefined): APIApplicationCommand | undefined {
    const scopes = guildId === undefined ? ['global'] : [guildId, 'global'];
    for (const scope of scopes) {
      for (const command of this.#commands.get(scope)?.values() ?? []) {
        if (command.name === name && command.type === ApplicationCommandType.ChatInput) return command;
      }
    }
    return undefined;
  }

  #unregisteredCommandId(name: string): string {
    let id = this.#unregisteredCommandIds.get(name);
    if (id === undefined) {
      id = snowflake();
      this.#unregisteredCommandIds.set(name, id);
    }
    return id;
  }

  #dispatchInteractionPayload(
    payload: APIInteraction,
    state: Omit<InteractionState, 'id' | 'token' | 'acknowledged' | 'followups'>,
  ): DispatchedInteraction {
    const record: InteractionState = {
      ...state,
      id: payload.id,
      token: payload.token,
      acknowledged: false,
      followups: new Set(),
    };
    this.#interactions.set(record.id, record);
    this.#interactionsByToken.set(record.token, record);
    const dispatchedAt = performance.now();
    if (this.#endpoints.length > 0) {
      const body = JSON.stringify(payload);
      const posted = { body, headers: this.signer.headers(body) };
      this.#posted.set(record.id, posted);
      const n = this.#endpoints.length;
      const turn = this.#endpointTurn++ % n;
      const order = [...this.#endpoints.slice(turn), ...this.#endpoints.slice(0, turn)];
      return {
        id: record.id,
        token: record.token,
        dispatchedAt,
        payload,
        response: this.#post(record, posted, order),
      };
    }
    this.#dispatch(GatewayDispatchEvents.InteractionCreate, payload);
    return { id: record.id, token: record.token, dispatchedAt, payload };
  }

  // ---------------------------------------------------------------- interactions over HTTP

  #post(
    state: InteractionState,
    posted: { body: string; headers: SignedHeaders },
    endpoints: string[],
  ): Promise<HttpResponse> {
    state.deliveredAt ??= performance.now();
    const delivery = (async (): Promise<HttpResponse> => {
      let last: HttpResponse = { status: 0, contentType: '', text: 'no endpoint', endpoint: '' };
      for (const endpoint of endpoints) {
        let response: Response;
        try {
          response = await fetch(endpoint, {
            method: 'POST',
            headers: posted.headers,
            body: posted.body,
            signal: this.#stopController.signal,
          });
        } catch (error) {
          last = { status: 0, contentType: '', text: String((error as Error).cause ?? error), endpoint };
          // Nothing was sent: a load balancer tries the next upstream.
          if (/ECONNREFUSED/.test(last.text)) continue;
          return last;
        }
        const raw = Buffer.from(await response.arrayBuffer());
        const contentType = response.headers.get('content-type') ?? '';
        if (response.status === 200) await this.#takeInitialResponse(state, raw, contentType);
        return { status: response.status, contentType, text: raw.toString('utf8'), endpoint };
      }
      return last;
    })();
    this.#unanswered.set(state.token, delivery);
    void delivery.finally(() => {
      if (this.#unanswered.get(state.token) === delivery) this.#unanswered.delete(state.token);
    });
    return delivery;
  }

  /** Discord takes an HTTP response's body as the interaction's callback, with the same rules. */
  async #takeInitialResponse(state: InteractionState, raw: Buffer, contentType: string): Promise<void> {
    const parsed = await this.#parseBody(raw, contentType);
    this.#receive(
      {
        method: 'POST',
        path: `/interactions/${state.id}/${state.token}/callback`,
        query: new URLSearchParams(),
        headers: { 'content-type': contentType },
        body: parsed.body,
        at: performance.now(),
        via: 'http-response',
        ...(parsed.files === undefined ? {} : { files: parsed.files }),
      },
      parsed.invalid,
      undefined,
    );
  }

  // ---------------------------------------------------------------- gateway

  #send(
    c: GatewayConnection,
    payload: { op: number; d: unknown; s?: number | null; t?: string | null },
  ): void {
    if (c.ws.readyState !== WebSocket.OPEN) return;
    c.ws.send(JSON.stringify({ s: null, t: null, ...payload }));
  }

  #sendDispatch(c: GatewayConnection, session: GatewaySession, t: string, d: unknown): void {
    if (t === GatewayDispatchEvents.InteractionCreate) {
      const id = String(asRecord(d)?.id);
      this.#deliveries.set(id, [...(this.#deliveries.get(id) ?? []), session.id]);
      const interaction = this.#interactions.get(id);
      if (interaction !== undefined) interaction.deliveredAt ??= performance.now();
    }
    session.seq += 1;
    session.history.push({ s: session.seq, t, d });
    if (session.history.length > HISTORY_LIMIT) session.history.shift();
    this.#send(c, { op: GatewayOpcodes.Dispatch, t, s: session.seq, d });
  }

  /** Dispatches to the live session; while there is none (reconnecting) events wait for the next one. */
  #dispatch(t: string, d: unknown): void {
    const active = this.#active;
    const session = this.#session;
    const others = [...this.#otherSessions].filter(([c]) => c.ws.readyState === WebSocket.OPEN);
    if (
      this.#delivery === 'alternate' &&
      t === GatewayDispatchEvents.InteractionCreate &&
      others.length > 0
    ) {
      const live: [GatewayConnection, GatewaySession][] = [...others];
      if (active !== undefined && session !== undefined && active.ws.readyState === WebSocket.OPEN) {
        live.unshift([active, session]);
      }
      const [c, s] = live[this.#interactionTurn++ % live.length] as [GatewayConnection, GatewaySession];
      this.#sendDispatch(c, s, t, d);
      return;
    }
    for (const [c, s] of others) this.#sendDispatch(c, s, t, d);
    if (active !== undefined && session !== undefined && active.ws.readyState === WebSocket.OPEN) {
      this.#sendDispatch(active, session, t, d);
    } else {
      this.#backlog.push({ t, d });
    }
  }

  #activate(c: GatewayConnection, session: GatewaySession): void {
    const backlog = this.#backlog;
    this.#backlog = [];
    for (const event of backlog) this.#sendDispatch(c, session, event.t, event.d);
    this.#active = c;
  }

  #markReady(): void {
    const waiters = [...this.#readyWaiters];
    this.#readyWaiters.clear();
    for (const resolve of waiters) resolve();
  }

  #onGatewayConnection(ws: WebSocket): void {
    this.#gatewayConnections += 1;
    const c: GatewayConnection = { ws, identified: false };
    this.#connections.add(c);
    ws.on('message', (data, isBinary) => this.#onGatewayMessage(c, data, isBinary));
    ws.on('close', (code) => this.#onGatewayClose(c, code));
    // Socket errors are followed by 'close'; without a listener ws would rethrow them.
    ws.on('error', () => undefined);
    this.#send(c, { op: GatewayOpcodes.Hello, d: { heartbeat_interval: this.#heartbeatIntervalMs } });
  }

  #onGatewayClose(c: GatewayConnection, code: number): void {
    this.#connections.delete(c);
    this.#otherSessions.delete(c);
    if (this.#active === c) this.#active = undefined;
    // A client that closes with 1000/1001 gives up its session; anything else may resume.
    if ((code === 1000 || code === 1001) && c.sessionId !== undefined && this.#session?.id === c.sessionId) {
      this.#session = undefined;
    }
  }

  #onGatewayMessage(c: GatewayConnection, data: RawData, isBinary: boolean): void {
    let payload: ClientPayload;
    try {
      const text = isBinary ? Buffer.from(data as Buffer).toString('utf8') : data.toString();
      payload = JSON.parse(text) as ClientPayload;
    } catch {
      c.ws.close(4002, 'Error while decoding payload.');
      return;
    }
    if (
      !c.identified &&
      ![GatewayOpcodes.Heartbeat, GatewayOpcodes.Identify, GatewayOpcodes.Resume].includes(payload.op)
    ) {
      c.ws.close(4003, 'Not authenticated.');
      return;
    }
    switch (payload.op) {
      case GatewayOpcodes.Heartbeat:
        if (this.#heartbeatAcks) this.#send(c, { op: GatewayOpcodes.HeartbeatAck, d: null });
        return;
      case GatewayOpcodes.Identify:
        this.#startSession(() => this.#onIdentify(c, asRecord(payload.d) ?? {}));
        return;
      case GatewayOpcodes.Resume:
        this.#startSession(() => this.#onResume(c, asRecord(payload.d) ?? {}));
        return;
      case GatewayOpcodes.RequestGuildMembers:
        this.#onRequestGuildMembers(c, asRecord(payload.d) ?? {});
        return;
      case GatewayOpcodes.PresenceUpdate:
      case GatewayOpcodes.VoiceStateUpdate:
        return;
      default:
        c.ws.close(4001, 'Unknown opcode.');
    }
  }

  #startSession(start: () => void): void {
    if (this.#heldSessionStarts) this.#heldSessionStarts.push(start);
    else start();
  }

  #onIdentify(c: GatewayConnection, d: Record<string, unknown>): void {
    if (c.ws.readyState !== WebSocket.OPEN) return;
    if (c.identified) {
      c.ws.close(4005, 'Already authenticated.');
      return;
    }
    if (d.token !== this.token) {
      c.ws.close(4004, 'Authentication failed.');
      return;
    }
    const failure = this.#nextIdentifyFailure;
    if (failure !== undefined) {
      this.#nextIdentifyFailure = undefined;
      c.ws.close(failure.code, failure.reason);
      return;
    }
    this.#identifyCount += 1;
    const session: GatewaySession = { id: randomBytes(16).toString('hex'), seq: 0, history: [] };
    const previous = this.#active;
    if (this.#delivery !== 'latest' && previous !== undefined && this.#session !== undefined) {
      // The earlier session stays live beside this one.
      if (previous.ws.readyState === WebSocket.OPEN) this.#otherSessions.set(previous, this.#session);
    }
    this.#session = session;
    c.identified = true;
    c.sessionId = session.id;
    const guilds = [...this.#guilds.values()];
    const ready = makeReady(
      this.#botUser,
      this.applicationId,
      guilds.map((g) => g.id),
      session.id,
      this.gatewayUrl,
    );
    this.#sendDispatch(c, session, GatewayDispatchEvents.Ready, ready);
    for (const guild of guilds)
      this.#sendDispatch(c, session, GatewayDispatchEvents.GuildCreate, makeGuildCreate(guild));
    this.#activate(c, session);
    this.#markReady();
  }

  #onResume(c: GatewayConnection, d: Record<string, unknown>): void {
    if (c.ws.readyState !== WebSocket.OPEN) return;
    if (d.token !== this.token) {
      c.ws.close(4004, 'Authentication failed.');
      return;
    }
    const session = this.#session;
    if (session === undefined || d.session_id !== session.id) {
      this.#send(c, { op: GatewayOpcodes.InvalidSession, d: false });
      return;
    }
    const clientSeq = typeof d.seq === 'number' ? d.seq : 0;
    if (clientSeq > session.seq) {
      c.ws.close(4007, 'Invalid seq.');
      return;
    }
    this.#resumeCount += 1;
    c.identified = true;
    c.sessionId = session.id;
    for (const event of session.history) {
      if (event.s > clientSeq)
        this.#send(c, { op: GatewayOpcodes.Dispatch, t: event.t, s: event.s, d: event.d });
    }
    this.#activate(c, session);
    this.#sendDispatch(c, session, GatewayDispatchEvents.Resumed, {});
    this.#markReady();
  }

  #onRequestGuildMembers(c: GatewayConnection, d: Record<string, unknown>): void {
    const session = this.#otherSessions.get(c) ?? this.#session;
    const guild = typeof d.guild_id === 'string' ? this.#guilds.get(d.guild_id) : undefined;
    if (session === undefined || guild === undefined) return;
    const userIds =
      typeof d.user_ids === 'string' ? [d.user_ids] : Array.isArray(d.user_ids) ? d.user_ids : undefined;
    const query = typeof d.query === 'string' ? d.query.toLowerCase() : '';
    const limit = typeof d.limit === 'number' && d.limit > 0 ? d.limit : Number.POSITIVE_INFINITY;
    const members = [...guild.members.values()]
      .filter((m) =>
        userIds === undefined ? m.user.username.toLowerCase().startsWith(query) : userIds.includes(m.user.id),
      )
      .slice(0, limit);
    const notFound = userIds?.filter((id) => !guild.members.has(String(id))) ?? [];
    const chunkCount = Math.max(1, Math.ceil(members.length / MEMBER_CHUNK_SIZE));
    for (let i = 0; i < chunkCount; i += 1) {
      this.#sendDispatch(c, session, GatewayDispatchEvents.GuildMembersChunk, {
        guild_id: guild.id,
        members: members.slice(i * MEMBER_CHUNK_SIZE, (i + 1) * MEMBER_CHUNK_SIZE),
        chunk_index: i,
        chunk_count: chunkCount,
        not_found: i === 0 ? notFound : [],
        ...(typeof d.nonce === 'string' ? { nonce: d.nonce } : {}),
      });
    }
  }

  // ---------------------------------------------------------------- REST plumbing

  #wait<T = void>(
    timeoutMs: number,
    subscribe: (resolve: (value: T) => void, reject: (error: Error) => void) => () => void,
    timeoutMessage: () => string,
  ): Promise<T> {
    if (this.#stopped) return Promise.reject(new Error('FakeDiscord was stopped'));
    return new Promise<T>((resolve, reject) => {
      const cleanup = () => {
        clearTimeout(timer);
        unsubscribe();
        this.#pendingRejections.delete(fail);
      };
      const fail = (error: Error) => {
        cleanup();
        reject(error);
      };
      const timer = setTimeout(() => fail(new Error(timeoutMessage())), timeoutMs);
      const unsubscribe = subscribe((value) => {
        cleanup();
        resolve(value);
      }, fail);
      this.#pendingRejections.add(fail);
    });
  }

  async #onHttpRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const at = performance.now();
    let raw: Buffer;
    try {
      raw = await readBody(req);
    } catch {
      res.destroy();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = decodePath(url.pathname.replace(/^\/api(\/v\d+)?(?=\/|$)/, '')) || '/';
    // Discord has taken an HTTP response before anything the bot sends after writing it.
    const token = /^\/webhooks\/[^/]+\/([^/]+)/.exec(path)?.[1];
    const unanswered = token === undefined ? undefined : this.#unanswered.get(token);
    if (unanswered !== undefined) await unanswered.catch(() => undefined);
    const parsed = await this.#parseBody(raw, String(req.headers['content-type'] ?? ''));
    const posted = req.method === 'POST' ? /^\/channels\/(\d+)\/messages$/.exec(path)?.[1] : undefined;
    const fault = posted === undefined ? undefined : this.#channelPostFaults.get(posted);
    if (fault !== undefined && fault !== 'hold-created') {
      this.requests.push({
        method: 'POST',
        path,
        query: url.searchParams,
        headers: req.headers,
        body: parsed.body,
        at,
      });
      if (fault === 'drop') res.destroy();
      else if (fault === 'hold') await this.#heldUntilClosed(res);
      else {
        const failed = apiError(fault.status, 0, `${fault.status}: FakeDiscord.faultChannelPosts`);
        res.writeHead(failed.status, { 'content-type': 'application/json', ...failed.headers });
        res.end(JSON.stringify(failed.body));
      }
      return;
    }
    const result = this.#receive(
      {
        method: req.method ?? 'GET',
        path,
        query: url.searchParams,
        headers: req.headers,
        body: parsed.body,
        at,
        ...(parsed.files === undefined ? {} : { files: parsed.files }),
      },
      parsed.invalid,
      req.headers.authorization,
    );

    if (fault === 'hold-created') {
      await this.#heldUntilClosed(res);
      return;
    }
    const delayMs = this.#restDelayMs + (path.startsWith('/interactions/') ? this.#callbackDelayMs : 0);
    if (delayMs > 0) {
      try {
        await sleep(delayMs, undefined, { signal: this.#stopController.signal });
      } catch {
        res.destroy();
        return;
      }
    }
    if (result.body === undefined) {
      res.writeHead(result.status, result.headers);
      res.end();
      return;
    }
    res.writeHead(result.status, { 'content-type': 'application/json', ...result.headers });
    res.end(JSON.stringify(result.body));
  }

  /** A request held unanswered until the bot gives up on it (its socket closes) or FakeDiscord stops. */
  async #heldUntilClosed(res: ServerResponse): Promise<void> {
    await new Promise<void>((resolve) => {
      res.once('close', resolve);
      this.#stopController.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    res.destroy();
  }

  /** Records a request, routes it, and tells those waiting for it. */
  #receive(record: RecordedRequest, invalid: boolean, authorization: string | undefined): RestResult {
    this.requests.push(record);
    let result: RestResult;
    this.#routing = record;
    const broken =
      invalid || !this.#checkAgainstSpec ? undefined : specErrors(record.method, record.path, record.body);
    try {
      if (broken?.length) {
        this.specRefusals.push({
          method: record.method,
          path: record.path,
          body: record.body,
          errors: broken,
        });
        result = invalidForm(broken.slice(0, 10).map((message) => ({ path: [], code: 'SPEC', message })));
      } else
        result = invalid
          ? apiError(400, 50109, 'The request body contains invalid JSON.')
          : this.#route(record, authorization);
    } catch (error) {
      console.error('FakeDiscord: handler crashed for', record.method, record.path, error);
      result = apiError(500, 0, '500: Internal Server Error');
    } finally {
      this.#routing = undefined;
    }
    record.status = result.status;
    for (const listener of [...this.#requestWaiters]) listener(record);
    return result;
  }

  async #parseBody(
    raw: Buffer,
    contentType: string,
  ): Promise<{ body: unknown; invalid: boolean; files?: RecordedRequest['files'] }> {
    if (raw.length === 0) return { body: undefined, invalid: false };
    try {
      if (contentType.startsWith('multipart/form-data')) {
        const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
        const files: NonNullable<RecordedRequest['files']> = [];
        const fields: Record<string, unknown> = {};
        for (const [field, value] of form.entries()) {
          if (typeof value === 'string') fields[field] = value;
          else {
            const text = await value.text();
            files.push({ field, name: value.name, size: value.size, contentType: value.type, text });
          }
        }
        const payloadJson =
          typeof fields.payload_json === 'string' ? JSON.parse(fields.payload_json) : fields;
        return { body: payloadJson, invalid: hasLoneSurrogate(payloadJson), files };
      }
      const text = raw.toString('utf8');
      const body = contentType.includes('json') ? JSON.parse(text) : text;
      return { body, invalid: hasLoneSurrogate(body) };
    } catch {
      return { body: raw.toString('utf8'), invalid: true };
    }
  }

  #on(method: string, pattern: string, handler: Handler, auth = true): void {
    this.#routes.push({ method, segments: pattern.split('/').slice(1), auth, handler });
  }

  #route(r: RecordedRequest, authorization: string | undefined): RestResult {
    const segments = r.path.split('/').slice(1);
    let pathMatched = false;
    for (const route of this.#routes) {
      const params = matchSegments(route.segments, segments);
      if (params === undefined) continue;
      pathMatched = true;
      if (route.method !== r.method) continue;
      if (route.auth && authorization !== `Bot ${this.token}`) return apiError(401, 0, '401: Unauthorized');
      return route.handler(r, params);
    }
    return pathMatched ? apiError(405, 0, '405: Method Not Allowed') : apiError(404, 0, '404: Not Found');
  }

  // ---------------------------------------------------------------- REST routes

  #registerRoutes(): void {
    const gateway = () => ({ url: this.gatewayUrl });
    this.#on('GET', '/gateway', () => json(200, gateway()), false);
    this.#on('GET', '/gateway/bot', () =>
      json(200, {
        ...gateway(),
        shards: 1,
        session_start_limit: { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: 1 },
      }),
    );

    const application = () => json(200, makeApplication(this.applicationId, this.#botUser, this.#owner));
    this.#on('GET', '/applications/@me', application);
    this.#on('GET', '/oauth2/applications/@me', application);
    this.#on('GET', '/users/@me', () => json(200, this.#botUser));
    this.#on('GET', '/users/:user', (_r, p) => {
      const user = this.#users.get(p.user ?? '');
      return user === undefined ? apiError(404, 10013, 'Unknown User') : json(200, user);
    });
    this.#on('POST', '/users/@me/channels', (r) => {
      const recipient = this.#users.get(String(asRecord(r.body)?.recipient_id));
      return recipient === undefined
        ? apiError(404, 10013, 'Unknown User')
        : json(200, this.#dmChannelFor(recipient));
    });

    for (const base of ['/applications/:app/commands', '/applications/:app/guilds/:guild/commands']) {
      this.#on('GET', base, (_r, p) => this.#withCommands(p, (scope) => json(200, [...scope.values()])));
      this.#on('PUT', base, (r, p) => this.#putCommands(r, p));
      this.#on('POST', base, (r, p) => this.#postCommand(r, p));
      this.#on('GET', `${base}/:command`, (_r, p) => this.#withCommand(p, (command) => json(200, command)));
      this.#on('PATCH', `${base}/:command`, (r, p) =>
        this.#withCommand(p, (command, scope) => {
          const updated = normaliseCommand(
            { ...command, ...asRecord(r.body) },
            this.applicationId,
            p.guild,
            command.id,
          );
          scope.set(command.id, updated);
          return json(200, updated);
        }),
      );
      this.#on('DELETE', `${base}/:command`, (_r, p) =>
        this.#withCommand(p, (command, scope) => {
          scope.delete(command.id);
          return noContent;
        }),
      );
    }

    this.#on('GET', '/channels/:channel', (_r, p) => {
      const channel = this.#findChannel(p.channel ?? '');
      return channel === undefined ? unknownChannel() : json(200, channel);
    });
    this.#on('POST', '/channels/:channel/typing', (_r, p) =>
      this.#findChannel(p.channel ?? '') === undefined ? unknownChannel() : noContent,
    );
    this.#on('GET', '/channels/:channel/messages', (r, p) => {
      if (this.#findChannel(p.channel ?? '') === undefined) return unknownChannel();
      const limit = Number(r.query.get('limit') ?? 50);
      return json(200, this.channelMessages(p.channel).reverse().slice(0, limit));
    });
    this.#on('POST', '/channels/:channel/messages', (r, p) => {
      const channel = this.#findChannel(p.channel ?? '');
      if (channel === undefined) return unknownChannel();
      const body = asRecord(r.body) ?? {};
      const invalid = this.#validate(body, true, r);
      if (invalid !== undefined) return invalid;
      const nonce =
        typeof body.nonce === 'string' || typeof body.nonce === 'number' ? String(body.nonce) : undefined;
      if (nonce !== undefined && nonce.length > 25) {
        return invalidForm([
          { path: ['nonce'], code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 25 or fewer in length.' },
        ]);
      }
      // enforce_nonce: the bot's message with this nonce within the window is returned, not made again.
      const existing =
        nonce !== undefined && body.enforce_nonce === true
          ? this.#messages.get(this.#nonces.find(this.botUserId, nonce) ?? '')
          : undefined;
      if (existing !== undefined) return json(200, existing);
      const message = this.#createMessage(channel.id, body, {
        type: body.message_reference === undefined ? MessageType.Default : MessageType.Reply,
      });
      if (nonce !== undefined) {
        (message as { nonce?: string }).nonce = nonce;
        this.#nonces.remember(this.botUserId, nonce, message.id);
      }
      return json(200, message);
    });
    this.#on('GET', '/channels/:channel/messages/:message', (_r, p) => {
      const message = this.#messages.get(p.message ?? '');
      return message?.channel_id === p.channel ? json(200, message) : unknownMessage();
    });
    this.#on('PATCH', '/channels/:channel/messages/:message', (r, p) => {
      const message = this.#messages.get(p.message ?? '');
      if (message === undefined || message.channel_id !== p.channel) return unknownMessage();
      return this.#editMessage(message, r);
    });
    this.#on('DELETE', '/channels/:channel/messages/:message', (_r, p) => {
      const message = this.#messages.get(p.message ?? '');
      if (message === undefined || message.channel_id !== p.channel) return unknownMessage();
      this.#messages.delete(message.id);
      return noContent;
    });

    this.#on('GET', '/guilds/:guild', (_r, p) =>
      this.#withGuild(p, (guild) => {
        const { members, channels, threads, presences, voice_states, ...rest } = makeGuildCreate(guild);
        return json(200, {
          ...rest,
          approximate_member_count: members.length,
          approximate_presence_count: 0,
        });
      }),
    );
    this.#on('GET', '/guilds/:guild/channels', (_r, p) =>
      this.#withGuild(p, (guild) => json(200, [...guild.channels.values()])),
    );
    this.#on('GET', '/guilds/:guild/roles', (_r, p) =>
      this.#withGuild(p, (guild) => json(200, [...guild.roles.values()])),
    );
    this.#on('GET', '/guilds/:guild/members', (r, p) =>
      this.#withGuild(p, (guild) => {
        const limit = Number(r.query.get('limit') ?? 1);
        const after = BigInt(r.query.get('after') ?? '0');
        const members = [...guild.members.values()]
          .filter((m) => BigInt(m.user.id) > after)
          .sort((a, b) => (BigInt(a.user.id) < BigInt(b.user.id) ? -1 : 1))
          .slice(0, limit);
        return json(200, members);
      }),
    );
    this.#on('GET', '/guilds/:guild/members/:user', (_r, p) =>
      this.#withGuild(p, (guild) => {
        const member = guild.members.get(p.user ?? '');
        return member === undefined ? apiError(404, 10007, 'Unknown Member') : json(200, member);
      }),
    );

    this.#on('POST', '/interactions/:id/:token/callback', (r, p) => this.#onCallback(r, p), false);
    this.#on('POST', '/webhooks/:app/:token', (r, p) => this.#onFollowup(r, p), false);
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      this.#on(
        method,
        '/webhooks/:app/:token/messages/:message',
        (r, p) => this.#onWebhookMessage(r, p),
        false,
      );
    }
  }

  #withGuild(p: Record<string, string>, fn: (guild: GuildModel) => RestResult): RestResult {
    const guild = this.#guilds.get(p.guild ?? '');
    return guild === undefined ? apiError(404, 10004, 'Unknown Guild') : fn(guild);
  }

  #withCommands(
    p: Record<string, string>,
    fn: (scope: Map<string, APIApplicationCommand>) => RestResult,
  ): RestResult {
    if (p.app !== this.applicationId) return apiError(403, 50001, 'Missing Access');
    if (p.guild !== undefined && !this.#guilds.has(p.guild)) return apiError(403, 50001, 'Missing Access');
    const key = p.guild ?? 'global';
    let scope = this.#commands.get(key);
    if (scope === undefined) {
      scope = new Map();
      this.#commands.set(key, scope);
    }
    return fn(scope);
  }

  #withCommand(
    p: Record<string, string>,
    fn: (command: APIApplicationCommand, scope: Map<string, APIApplicationCommand>) => RestResult,
  ): RestResult {
    return this.#withCommands(p, (scope) => {
      const command = scope.get(p.command ?? '');
      return command === undefined ? apiError(404, 10063, 'Unknown application command') : fn(command, scope);
    });
  }

  #putCommands(r: RecordedRequest, p: Record<string, string>): RestResult {
    if (!Array.isArray(r.body)) {
      return invalidForm([{ path: [], code: 'BASE_TYPE_ARRAY', message: 'Must be an array.' }]);
    }
    const bodies = r.body.map((raw) => asRecord(raw) ?? {});
    return this.#withCommands(p, (scope) => {
      // A bulk overwrite keeps the ids of commands whose name and type survive, like Discord does.
      const previous = [...scope.values()];
      scope.clear();
      const result = bodies.map((raw) => {
        const type = typeof raw.type === 'number' ? raw.type : ApplicationCommandType.ChatInput;
        const existing = previous.find((c) => c.name === raw.name && c.type === type);
        const command = normaliseCommand(raw, this.applicationId, p.guild, existing?.id);
        scope.set(command.id, command);
        return command;
      });
      return json(200, result);
    });
  }

  #postCommand(r: RecordedRequest, p: Record<string, string>): RestResult {
    const raw = asRecord(r.body) ?? {};
    return this.#withCommands(p, (scope) => {
      const type = typeof raw.type === 'number' ? raw.type : ApplicationCommandType.ChatInput;
      const existing = [...scope.values()].find((c) => c.name === raw.name && c.type === type);
      const command = normaliseCommand(raw, this.applicationId, p.guild, existing?.id);
      scope.set(command.id, command);
      return json(existing === undefined ? 201 : 200, command);
    });
  }

  #validate(body: Record<string, unknown>, creating: boolean, r: RecordedRequest, prefix: string[] = []) {
    const result = validateMessageBody(body, creating, (r.files?.length ?? 0) > 0);
    if (result === 'empty') return apiError(400, 50006, 'Cannot send an empty message');
    return result.length > 0 ? invalidForm(result, prefix) : undefined;
  }

  #createMessage(
    channelId: string,
    body: Record<string, unknown>,
    extra: { type: MessageType; extraFlags?: number; interaction?: InteractionState },
  ): APIMessage {
    const i = extra.interaction;
    const message = makeMessage({
      id: snowflake(),
      channelId,
      author: this.#botUser,
      type: extra.type,
      body,
      ...(extra.extraFlags === undefined ? {} : { extraFlags: extra.extraFlags }),
      ...(i === undefined
        ? {}
        : {
            webhookId: this.applicationId,
            interactionMetadata: {
              id: i.id,
              type: i.type,
              user: i.user,
              authorizing_integration_owners: { '0': i.guildId ?? '0' },
              ...(i.componentMessageId === undefined ? {} : { interacted_message_id: i.componentMessageId }),
              ...(i.commandName === undefined
                ? {}
                : { name: i.commandName, command_type: ApplicationCommandType.ChatInput }),
            } as APIMessageInteractionMetadata,
          }),
    });
    this.#messages.set(message.id, message);
    const channel = this.#findChannel(channelId);
    if (channel !== undefined) channel.last_message_id = message.id;
    this.#noteMessage(message);
    return message;
  }

  #noteMessage(message: APIMessage): void {
    if (this.#routing === undefined) return;
    this.#routing.message = {
      id: message.id,
      ephemeral: ((message.flags ?? 0) & MessageFlags.Ephemeral) !== 0,
    };
  }

  #editMessage(message: APIMessage, r: RecordedRequest, prefix: string[] = []): RestResult {
    const body = asRecord(r.body) ?? {};
    const invalid = this.#validate(body, false, r, prefix);
    if (invalid !== undefined) return invalid;
    applyMessageEdit(message, body, MessageFlags.Loading);
    this.#noteMessage(message);
    return json(200, message);
  }

  #onCallback(r: RecordedRequest, p: Record<string, string>): RestResult {
    const i = this.#interactions.get(p.id ?? '');
    if (i === undefined) return apiError(404, 10062, 'Unknown interaction');
    if (i.token !== p.token) return apiError(401, 50027, 'Invalid Webhook Token');
    // Discord forgets an interaction nobody answered within 3 seconds.
    if (
      this.#callbackDeadlineMs !== false &&
      !i.acknowledged &&
      r.at - (i.deliveredAt ?? r.at) > this.#callbackDeadlineMs
    ) {
      return apiError(404, 10062, 'Unknown interaction');
    }
    const failure = this.#nextCallbackFailure;
    if (failure !== undefined) {
      this.#nextCallbackFailure = undefined;
      return failure;
    }
    if (i.acknowledged) return apiError(400, 40060, 'Interaction has already been acknowledged.');

    const body = asRecord(r.body) ?? {};
    const data = asRecord(body.data) ?? {};
    const type = body.type;
    const dataFlags = typeof data.flags === 'number' ? data.flags : 0;
    const invalidType = () =>
      invalidForm([
        {
          path: ['type'],
          code: 'INTERACTION_RESPONSE_TYPE_INVALID',
          message: 'Invalid interaction response type',
        },
      ]);
    const componentMessage =
      i.componentMessageId === undefined ? undefined : this.#messages.get(i.componentMessageId);
    let resourceMessage: APIMessage | undefined;

    switch (type) {
      case InteractionResponseType.ChannelMessageWithSource: {
        const invalid = this.#validate(data, true, r, ['data']);
        if (invalid !== undefined) return invalid;
        resourceMessage = this.#createMessage(i.channelId, data, {
          type:
            i.type === InteractionType.ApplicationCommand
              ? MessageType.ChatInputCommand
              : MessageType.Default,
          interaction: i,
        });
        i.originalMessageId = resourceMessage.id;
        break;
      }
      case InteractionResponseType.DeferredChannelMessageWithSource: {
        const message = this.#createMessage(
          i.channelId,
          { flags: dataFlags & MessageFlags.Ephemeral },
          {
            type:
              i.type === InteractionType.ApplicationCommand
                ? MessageType.ChatInputCommand
                : MessageType.Default,
            extraFlags: MessageFlags.Loading,
            interaction: i,
          },
        );
        i.originalMessageId = message.id;
        break;
      }
      case InteractionResponseType.DeferredMessageUpdate:
        if (componentMessage === undefined) return invalidType();
        i.originalMessageId = componentMessage.id;
        break;
      case InteractionResponseType.UpdateMessage: {
        if (componentMessage === undefined) return invalidType();
        const invalid = this.#validate(data, false, r, ['data']);
        if (invalid !== undefined) return invalid;
        applyMessageEdit(componentMessage, data, MessageFlags.Loading);
        this.#noteMessage(componentMessage);
        i.originalMessageId = componentMessage.id;
        resourceMessage = componentMessage;
        break;
      }
      case InteractionResponseType.Modal: {
        if (i.type === InteractionType.ModalSubmit) return invalidType();
        const components = Array.isArray(data.components) ? data.components : [];
        // Discord's documented limit (the OpenAPI description allows 40): more are refused.
        if (components.length > 5)
          return invalidForm(
            [
              {
                path: ['components'],
                code: 'BASE_TYPE_MAX_LENGTH',
                message: 'Must be 5 or fewer in length.',
              },
            ],
            ['data'],
          );
        this.#modals.set(String(data.custom_id), {
          components,
          ...(i.componentMessageId === undefined ? {} : { messageId: i.componentMessageId }),
        });
        break;
      }
      case InteractionResponseType.ApplicationCommandAutocompleteResult:
        break;
      default:
        return invalidType();
    }
    i.acknowledged = true;
    i.responseType = type;

    if (r.query.get('with_response') !== 'true') return noContent;
    const original = i.originalMessageId === undefined ? undefined : this.#messages.get(i.originalMessageId);
    return json(200, {
      interaction: {
        id: i.id,
        type: i.type,
        ...(original === undefined
          ? {}
          : {
              response_message_id: original.id,
              response_message_loading: ((original.flags ?? 0) & MessageFlags.Loading) !== 0,
              response_message_ephemeral: ((original.flags ?? 0) & MessageFlags.Ephemeral) !== 0,
            }),
      },
      resource: { type, ...(resourceMessage === undefined ? {} : { message: resourceMessage }) },
    });
  }

  #webhookInteraction(p: Record<string, string>): InteractionState | undefined {
    if (p.app !== this.applicationId) return undefined;
    const i = this.#interactionsByToken.get(p.token ?? '');
    // The interaction webhook only exists once the interaction has been acknowledged.
    return i?.acknowledged === true ? i : undefined;
  }

  /** The interaction token has outlived its 15 minutes: Discord answers 401 50027. */
  #tokenExpired(i: InteractionState, r: RecordedRequest): boolean {
    return this.#tokenLifetimeMs !== false && r.at - (i.deliveredAt ?? r.at) > this.#tokenLifetimeMs;
  }

  #onFollowup(r: RecordedRequest, p: Record<string, string>): RestResult {
    const i = this.#webhookInteraction(p);
    if (i === undefined) return unknownWebhook();
    if (this.#tokenExpired(i, r)) return apiError(401, 50027, 'Invalid Webhook Token');
    const body = asRecord(r.body) ?? {};
    const original = i.originalMessageId === undefined ? undefined : this.#messages.get(i.originalMessageId);
    // After a deferred reply, Discord turns the first follow-up into the "thinking…" message itself.
    if (
      original !== undefined &&
      i.responseType === InteractionResponseType.DeferredChannelMessageWithSource &&
      ((original.flags ?? 0) & MessageFlags.Loading) !== 0
    ) {
      return this.#editMessage(original, r);
    }
    const invalid = this.#validate(body, true, r);
    if (invalid !== undefined) return invalid;
    const message = this.#createMessage(i.channelId, body, { type: MessageType.Default, interaction: i });
    i.followups.add(message.id);
    return json(200, message);
  }

  #onWebhookMessage(r: RecordedRequest, p: Record<string, string>): RestResult {
    const i = this.#webhookInteraction(p);
    if (i === undefined) return unknownWebhook();
    if (this.#tokenExpired(i, r)) return apiError(401, 50027, 'Invalid Webhook Token');
    const id = p.message === '@original' ? i.originalMessageId : p.message;
    const message = id === undefined ? undefined : this.#messages.get(id);
    if (message === undefined || (id !== i.originalMessageId && !i.followups.has(message.id))) {
      return unknownMessage();
    }
    if (r.method === 'GET') return json(200, message);
    if (r.method === 'DELETE') {
      this.#messages.delete(message.id);
      return noContent;
    }
    return this.#editMessage(message, r);
  }
}

/**
 * Adds ATTACHMENT options to a slash command: the option's value is the attachment's id, and the file
 * itself is in `data.resolved.attachments`, keyed by that id (where discord.js looks it up).
 */
function addAttachmentOptions(
  payload: ReturnType<typeof makeChatInputInteraction>,
  attachments: Record<string, FakeAttachment>,
): void {
  const data = payload.data as { options?: unknown[]; resolved?: Record<string, unknown> };
  // The options of the leaf: inside the subcommand (and its group) when there is one.
  data.options ??= [];
  let leaf: unknown[] = data.options;
  for (;;) {
    const first = asRecord(leaf[0]);
    if (first === undefined || (first.type !== 1 && first.type !== 2)) break;
    first.options ??= [];
    leaf = first.options as unknown[];
  }
  const resolved: Record<string, unknown> = {};
  for (const [name, file] of Object.entries(attachments)) {
    const id = snowflake();
    leaf.push({ name, type: ApplicationCommandOptionType.Attachment, value: id });
    resolved[id] = {
      id,
      filename: file.filename,
      size: file.size,
      url: file.url,
      proxy_url: file.url,
      ...(file.contentType === undefined ? {} : { content_type: file.contentType }),
    };
  }
  data.resolved = { ...data.resolved, attachments: resolved };
}

function matchSegments(pattern: string[], segments: string[]): Record<string, string> | undefined {
  if (pattern.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i += 1) {
    const expected = pattern[i] ?? '';
    const actual = segments[i] ?? '';
    if (expected.startsWith(':')) params[expected.slice(1)] = actual;
    else if (expected !== actual) return undefined;
  }
  return params;
}
