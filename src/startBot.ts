import type { Client } from 'discord.js';
import { Housekeeping } from './audit/Housekeeping.js';
import type { Config } from './config.js';
import { botMessages } from './discord/botMessages.js';
import type { CommandModule } from './discord/CommandModule.js';
import { connectGateway } from './discord/connectGateway.js';
import { createDiscordClient } from './discord/createDiscordClient.js';
import { InitialResponses } from './discord/http/InitialResponses.js';
import type { Monotonic } from './discord/http/StoreClock.js';
import { serveInteractions } from './discord/http/serveInteractions.js';
import type { InteractionRouter } from './discord/InteractionRouter.js';
import type { HostingClient } from './hosting/HostingClient.js';
import { IdleCollector } from './IdleCollector.js';
import { translator } from './i18n/Translator.js';
import type { Logger, SecretRegistry } from './logger.js';
import { HealthState } from './observability/HealthState.js';
import { Metrics } from './observability/Metrics.js';
import { registerOperatorGauges } from './observability/operatorGauges.js';
import { startCalendarServer } from './observability/startCalendarServer.js';
import { type HttpServer, startHttpServer } from './observability/startHttpServer.js';
import { startupStep } from './observability/startupSteps.js';
import { RdapMetrics } from './rdap/RdapMetrics.js';
import { createRuntime, newReplicaId } from './runtime/createRuntime.js';
import type { Store } from './store/index.js';
import type { DomainWatch } from './watch/DomainWatch.js';
import { longestScheduleInterval, WatchScheduler } from './watch/WatchScheduler.js';

export interface BotDeps {
  config: Config;
  logger: Logger;
  secrets: SecretRegistry;
  /** Tests pin these. */
  commands?: readonly CommandModule[];
  generatePassword?: () => string;
  now?: () => Date;
  readBackDelaysMs?: readonly number[];
  /** How long a scrape (/metrics) and a calendar (its URL) may take to be read before the connection is cut. */
  sendDeadlinesMs?: { scrape: number; calendar: number };
  /** Tests only: the store as the runtime uses it, wrapped (faults injected at chosen steps). */
  wrapStore?: (store: Store) => Store;
  /** Tests only: the store clock's elapsed time, moved with a wrapped store's clock (createRuntime). */
  monotonic?: Monotonic;
}

export interface Bot {
  client: Client;
  router: InteractionRouter;
  store: Store;
  /** Absent when WATCH_CHANNEL_ID is unset (the watch is off). */
  watch: DomainWatch | undefined;
  hosting: HostingClient;
  health: HealthState;
  metrics: Metrics;
  http: HttpServer | undefined;
  /** The calendar URL's listener (CALENDAR_TOKEN with the watch on): nothing else is served on it. */
  calendarHttp: HttpServer | undefined;
  /** Resolves once interactions can arrive (the gateway session is ready, or the endpoint listens); rejects if they never can. */
  ready: Promise<void>;
  /** Resolves with the reason if the bot can no longer work and the process should exit non-zero. */
  fatal: Promise<string>;
  /** Stops taking commands, lets those in flight finish (up to graceMs), then closes everything. */
  stop(graceMs: number): Promise<{ drained: boolean }>;
}

/**
 * The Discord adapter: the shared runtime (src/runtime/createRuntime.ts: store, hosting client, router,
 * watch) with a Discord client, the watch's schedule, housekeeping and the health endpoint around it, and
 * interactions delivered over the gateway (connectGateway) or over HTTP (serveInteractions), by
 * INTERACTIONS_MODE. The store comes first: without it HostOps can keep no promise, so it does not log in.
 */
export async function startBot(deps: BotDeps): Promise<Bot> {
  const { config, logger } = deps;
  const overHttp = config.interactions.mode === 'http';
  const replicaId = newReplicaId('bot');
  const health = new HealthState(replicaId, config.interactions.mode);
  const metrics = new Metrics((error) =>
    logger.warn({ err: error }, 'metrics: could not read the watch list'),
  );
  const rdapMetrics = new RdapMetrics(metrics.registry);
  const responses = overHttp ? new InitialResponses() : undefined;
  // Made before the runtime (its bot messages go through it), logged in only once the store is open.
  const client = createDiscordClient({
    apiUrl: config.discord.apiUrl,
    ...(responses ? { wrapRequests: (next) => responses.makeRequest(next) } : {}),
  });
  const runtime = await createRuntime({
    face: 'bot',
    config,
    logger,
    secrets: deps.secrets,
    replicaId,
    messages: botMessages(client),
    watchChannelId: config.watch.channelId,
    // Over HTTP each interaction reaches one replica (and may reach it again): every one is claimed.
    broadcast: !overHttp,
    observer: metrics,
    watchObserver: metrics,
    onApiAttempt: (event) => {
      metrics.apiAttempt(event);
      health.apiAttempt(event);
    },
    onRdapRequest: (event) => rdapMetrics.request(event),
    ...(deps.commands ? { commands: deps.commands } : {}),
    ...(deps.generatePassword ? { generatePassword: deps.generatePassword } : {}),
    ...(deps.now ? { now: deps.now } : {}),
    ...(deps.readBackDelaysMs ? { readBackDelaysMs: deps.readBackDelaysMs } : {}),
    ...(deps.wrapStore ? { wrapStore: deps.wrapStore } : {}),
    ...(deps.monotonic ? { monotonic: deps.monotonic } : {}),
  }).catch(async (error: unknown) => {
    await client.destroy();
    throw error;
  });
  const { store, presence, router, watch, hosting, clock } = runtime;
  const housekeeping = new Housekeeping(store, config.audit.retentionDays, replicaId, logger, () =>
    clock.date(),
  );
  void housekeeping.run();
  const collector = new IdleCollector(logger, () => runtime.inFlight());
  presence.onHeartbeat = (ok) => {
    health.store = ok ? 'ok' : 'unreachable';
  };
  if (watch) metrics.observeWatch(watch);
  metrics.giveWayTo(() => router.firstResponses.pending());
  // The schedule starts once the bot is ready: croner's first computation in the API's time zone is
  // start-up work interactions need not wait for (issue 49 point 13); a tick that fell meanwhile runs then.
  const startedAt = new Date();
  let scheduler: WatchScheduler | undefined;
  let stopping = false;
  registerOperatorGauges(metrics.registry, {
    health,
    store,
    approvalTimeoutMs: config.approval.timeoutMs,
    watch,
    scheduleInterval: () => {
      startupStep('schedule-interval');
      return longestScheduleInterval(config.watch.schedule, config.hosting.timeZone);
    },
    now: deps.now ?? (() => new Date()),
    readStore: (read) => metrics.readStore(read),
  });
  const http =
    config.http.port > 0
      ? await startHttpServer({
          host: config.http.host,
          port: config.http.port,
          health,
          metrics,
          logger,
          metricsToken: config.http.metricsToken,
          ...(deps.sendDeadlinesMs ? { scrapeDeadlineMs: deps.sendDeadlinesMs.scrape } : {}),
        })
      : undefined;
  const calendarHttp =
    watch && config.calendar.token
      ? await startCalendarServer({
          host: config.calendar.host,
          port: config.calendar.port,
          logger,
          counted: (status) => metrics.operatorRequest('calendar', status),
          ...(deps.sendDeadlinesMs ? { deadlineMs: deps.sendDeadlinesMs.calendar } : {}),
          feed: {
            token: config.calendar.token,
            stamp: () => watch.changeStamp(),
            calendar: () => watch.calendar(translator(config.botLocale)),
          },
        }).catch(async (error: unknown) => {
          await http?.close();
          throw error;
        })
      : undefined;

  const delivery = responses
    ? await serveInteractions({ client, responses, router, store, health, metrics, logger, config })
    : connectGateway({ client, router, health, metrics, logger, token: config.discord.token });
  delivery.ready.then(
    () => {
      startupStep('ready');
      if (!watch || stopping) return;
      startupStep('watch-schedule');
      scheduler = new WatchScheduler(
        watch,
        store,
        replicaId,
        config.watch.schedule,
        config.hosting.timeZone,
        logger,
        startedAt,
      );
    },
    () => {},
  );

  return {
    client,
    router,
    store,
    watch,
    hosting,
    health,
    metrics,
    http,
    calendarHttp,
    fatal: delivery.fatal,
    ready: delivery.ready,
    async stop(graceMs) {
      const started = performance.now();
      stopping = true;
      await delivery.stopAccepting(graceMs);
      const drained = await runtime.drain(Math.max(0, graceMs - (performance.now() - started)));
      await delivery.close();
      housekeeping.stop();
      collector.stop();
      // A run waiting on the registries' pace (hours for a long list) must not hold up the shutdown.
      runtime.registry?.stop();
      await scheduler?.stop();
      await runtime.close(drained);
      await Promise.all([http?.close(), calendarHttp?.close()]);
      return { drained };
    },
  };
}
