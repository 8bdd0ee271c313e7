import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { commands as allCommands } from '../../commands/index.js';
import { channelPosts, leftToBots } from '../audit/channelPosts.js';
import { ApprovalPolicy } from '../changes/ApprovalPolicy.js';
import type { Config } from '../config.js';
import type { CommandModule } from '../discord/CommandModule.js';
import { type Monotonic, StoreClock } from '../discord/http/StoreClock.js';
import { InteractionRouter } from '../discord/InteractionRouter.js';
import { systemResolver } from '../dns/AddressResolver.js';
import { generatePassword } from '../generatePassword.js';
import { HostingClient } from '../hosting/HostingClient.js';
import type { AttemptEvent } from '../hosting/HostingClientOptions.js';
import { type Translator, translator } from '../i18n/Translator.js';
import type { Logger, SecretRegistry } from '../logger.js';
import type { RouterObserver } from '../observability/RouterObserver.js';
import type { RdapRequestEvent } from '../rdap/RdapClient.js';
import type { RegistryCheck } from '../rdap/RegistryCheck.js';
import type { BotMessages } from '../replies/ReplyBody.js';
import { type HostingEndpoint, openHostingEndpoint } from '../sandbox/hostingEndpoint.js';
import { openStore, Presence, redactDatabaseUrl, type Store } from '../store/index.js';
import { DomainWatch, type WatchObserver } from '../watch/DomainWatch.js';
import { createRegistryCheck } from './createRegistryCheck.js';

/**
 * The two faces of HostOps. A bot answers Discord, publishes its APPROVAL_REQUIRED and can hold a change
 * for a second person; a console answers one terminal, reads the published policy and refuses what would
 * need approval (the second person approves in Discord).
 */
export type Face = 'bot' | 'console';

export interface RuntimeOptions {
  face: Face;
  config: Config;
  logger: Logger;
  secrets: SecretRegistry;
  /** How bot messages go out (approval requests, audit lines, watch digests): Discord, or the terminal. */
  messages: BotMessages;
  /** Where the watch's digests go; undefined turns the watch off (a bot without WATCH_CHANNEL_ID). */
  watchChannelId: string | undefined;
  /** Whether every replica receives every interaction (the gateway, the default) or one does (HTTP). */
  broadcast?: boolean;
  /** Told about every command's acknowledgement, end and answer data (the bot's metrics, the console). */
  observer?: RouterObserver;
  /** Told about every watch run (the bot's metrics). */
  watchObserver?: WatchObserver;
  /** Told about every API attempt (the bot's metrics and health). */
  onApiAttempt?: (event: AttemptEvent) => void;
  /** Told about every request to a registry (RDAP; the bot's metrics). */
  onRdapRequest?: (event: RdapRequestEvent) => void;
  /** This process among replicas (see `newReplicaId`); a new one by default. */
  replicaId?: string;
  /** Tests pin these. */
  commands?: readonly CommandModule[];
  generatePassword?: () => string;
  now?: () => Date;
  readBackDelaysMs?: readonly number[];
  /** Tests only: the store as everything above it sees it, wrapped (faults injected at chosen steps). */
  wrapStore?: (store: Store) => Store;
  /**
   * Tests only: what the store's clock counts elapsed time with (StoreClock), so a test moves the store's
   * time (an elevation's end) together with a wrapped store's clock.
   */
  monotonic?: Monotonic;
}

/** What both faces share: one store, one hosting client, one router (journal, change flow, audit trail), one watch. */
export interface Runtime {
  readonly config: Config;
  /** This process among the replicas sharing the store (`host:pid:random`, `console:` first for a console). */
  readonly replicaId: string;
  readonly store: Store;
  readonly presence: Presence;
  /** The store's time, read without a round trip: what every deadline is stamped and checked by. */
  readonly clock: StoreClock;
  readonly endpoint: HostingEndpoint;
  readonly hosting: HostingClient;
  readonly router: InteractionRouter;
  readonly watch: DomainWatch | undefined;
  /** The registry's word (RDAP); undefined with RDAP_CHECK=off. */
  readonly registry: RegistryCheck | undefined;
  /** BOT_LOCALE: the language of what a whole channel reads. */
  readonly channelT: Translator;
  /**
   * Work in flight now: interactions being handled (their API calls and store writes with them) and the
   * router's sweeps, and every call to the provider (the watch's too). Zero: nobody waits on this process.
   */
  inFlight(): number;
  /**
   * Stops taking commands and lets those in flight finish, up to graceMs (confirmed changes included).
   * Resolves true when everything finished in time.
   */
  drain(graceMs: number): Promise<boolean>;
  /** Closes what the runtime opened, the store last. `drained`: false cuts requests still in flight. */
  close(drained: boolean): Promise<void>;
}

/** `host:pid:random`; a console's starts with `console:`. */
export function newReplicaId(face: Face): string {
  const id = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  return face === 'console' ? `console:${id}` : id;
}

/**
 * Builds what the bot and the console share, store first: without it HostOps can keep no promise. The
 * adapters around it (src/startBot.ts for Discord, src/console/ for a terminal) only translate between
 * their medium and this.
 */
export async function createRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { config, logger, secrets, face } = options;
  const opened = await openStore(config.databaseUrl, { logger });
  const store = options.wrapStore ? options.wrapStore(opened) : opened;
  const replicaId = options.replicaId ?? newReplicaId(face);
  let presence: Presence;
  let endpoint: HostingEndpoint;
  try {
    presence = await Presence.start(store, replicaId, logger, redactDatabaseUrl(config.databaseUrl), face);
  } catch (error) {
    await store.close();
    throw error;
  }
  // One clock for every deadline, whichever replica stamps or checks it: the store's (as the sweep's).
  const clock = await StoreClock.start(() => store.replicas.clock(), logger, options.monotonic);
  try {
    // HOSTING_API_URL=sandbox: a made-up API in this process, with a token of its own.
    endpoint = await openHostingEndpoint(config.hosting, options.now ? { now: options.now } : {});
  } catch (error) {
    clock.stop();
    await presence.stop();
    await store.close();
    throw error;
  }
  if (endpoint.sandbox) {
    secrets.add(endpoint.token);
    logger.warn(
      'hosting API: SANDBOX (no real changes); store: a throwaway one in memory (DATABASE_URL is not used)',
    );
  }
  const hosting = new HostingClient({
    ...config.hosting,
    baseUrl: endpoint.baseUrl,
    token: endpoint.token,
    logger,
    ...(options.onApiAttempt ? { onAttempt: options.onApiAttempt } : {}),
  });
  const registry = createRegistryCheck({
    config,
    store,
    logger,
    sandboxBootstrapUrl: endpoint.sandbox?.registryBootstrapUrl,
    ...(options.onRdapRequest ? { onRequest: options.onRdapRequest } : {}),
  });
  const { messages } = options;
  const watch = options.watchChannelId
    ? new DomainWatch(
        store,
        hosting,
        messages,
        {
          ...config.watch,
          channelId: options.watchChannelId,
          timeZone: config.hosting.timeZone,
          locale: config.botLocale,
        },
        logger,
        options.watchObserver,
        undefined,
        registry,
      )
    : undefined;
  // Audit lines, approval requests and digests are read by the whole channel: BOT_LOCALE.
  const channelT = translator(config.botLocale);
  const auditChannelId = config.audit.channelId;
  const bot = face === 'bot';
  const router = new InteractionRouter({
    commands: options.commands ?? allCommands,
    hosting,
    store,
    ...(watch ? { watch } : {}),
    ...(registry ? { registry } : {}),
    // On the sandbox its made-up zone answers the forward check, as its registry answers RDAP.
    resolver: endpoint.sandbox?.zone ?? systemResolver(config.dns.servers),
    replicaId,
    liveReplicas: () => presence.live(),
    ...(bot ? { peerBots: () => presence.peerBots() } : {}),
    ...(options.broadcast === undefined ? {} : { broadcast: options.broadcast }),
    // Only bots settle what other processes left behind: their notices and edits reach Discord.
    settlesOthers: bot,
    // A bot's list becomes the one every face reads; a console adds its own (if any) to the published one.
    approvals: bot
      ? await ApprovalPolicy.publish(store, config.approval.required, clock.date())
      : new ApprovalPolicy(store, config.approval.required),
    // Two-person approval is given in Discord: a console refuses such changes, through the gate and into
    // the audit trail.
    approvalsHere: bot,
    messages,
    config,
    logger,
    // A console's audit-channel lines are a bot's to post (its own messages reach only its terminal).
    posts: bot ? channelPosts(messages, auditChannelId, channelT) : leftToBots(),
    ...(options.readBackDelaysMs ? { readBackDelaysMs: options.readBackDelaysMs } : {}),
    secrets,
    generatePassword: options.generatePassword ?? generatePassword,
    ...(options.observer ? { observer: options.observer } : {}),
    ...(options.now ? { now: options.now } : {}),
    storeNow: () => clock.date(),
  });
  return {
    config,
    replicaId,
    store,
    presence,
    clock,
    endpoint,
    hosting,
    router,
    watch,
    registry,
    channelT,
    inFlight: () => router.inFlight + hosting.inFlight,
    drain: (graceMs) => router.drain(graceMs),
    async close(drained) {
      clock.stop();
      await presence.stop();
      await hosting.close(!drained);
      await registry?.close();
      await endpoint.close();
      await store.close();
    },
  };
}
