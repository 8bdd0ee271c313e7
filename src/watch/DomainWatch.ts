import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import pLimit from 'p-limit';
import { HostingApiError } from '../hosting/HostingApiError.js';
import type { HostingClient } from '../hosting/HostingClient.js';
import type { Locale } from '../i18n/locales.js';
import { message, type Translator, translator } from '../i18n/Translator.js';
import type { Logger } from '../logger.js';
import { type RegistryCheck, WATCH_MAX_AGE_MS } from '../rdap/RegistryCheck.js';
import type { BotMessages } from '../replies/ReplyBody.js';
import type { Store, WatchedDomain } from '../store/index.js';
import { type Alert, decide, type Observation } from './alertRules.js';
import { daysBetween } from './daysBetween.js';
import { failureReason } from './failureReason.js';
import { leastRecentlyRead, RegistryLanes, type RegistryWait, RunDeadline } from './RegistryLanes.js';
import { renderDigest } from './renderDigest.js';
import { renderRegistryWaits } from './renderRegistryWaits.js';
import { type WatchCalendar, WatchCalendars } from './WatchCalendars.js';
import type { RegistrySeriesRow, WatchData } from './watchPages.js';

export interface WatchSettings {
  channelId: string;
  leadDays: readonly number[];
  mentionRoleIds: readonly string[];
  concurrency: number;
  /** The most domains the list may hold (WATCH_MAX_DOMAINS). */
  maxDomains: number;
  /** The API's zone: expiry dates are calendar days there. */
  timeZone: string;
  /** The digest is public: BOT_LOCALE (`config.botLocale`). */
  locale: Locale;
}

export interface WatchObserver {
  watchRun(summary: RunSummary): void;
  /** Every alert as it is posted: a run's, a newly added domain's, or one a command's registry look-up found. */
  watchAlerts(alerts: readonly Alert[]): void;
}

/** Expiry dates remembered with their instant: a list holds a few thousand distinct ones at most. */
const REMEMBERED_DATES = 50_000;
/** The store's change stamp of the watch data: a new value whenever a list or a check changed it. */
const CHANGED_KEY = 'watch.changed';
/** During a run, the stamp moves at most this often (and once at its end): what was checked shows soon. */
const RUN_STAMP_EVERY_MS = 30_000;

/** The last run of the whole list, kept in the store's settings. */
export interface LastWatchRun {
  at: string;
  outcome: RunSummary['outcome'];
  checked: number;
}
const LAST_RUN_KEY = 'watch.last_run';

export interface RunSummary {
  checked: number;
  failed: number;
  alerts: Alert[];
  /** Digest messages posted. */
  messages: number;
  durationMs: number;
  outcome: 'ok' | 'partial' | 'failed';
  /** Registries that could not be asked about all their domains by the run's deadline (carried over). */
  waits: RegistryWait[];
}

const EMPTY_RUN: RunSummary = {
  checked: 0,
  failed: 0,
  alerts: [],
  messages: 0,
  durationMs: 0,
  outcome: 'ok',
  waits: [],
};
/** A manual check waits this long for the registries once the provider's side is done; the rest is carried. */
export const REGISTRY_CHECK_MS = 60_000;
/** Newly added domains' registry look-ups end this long after the provider's side; the rest is carried. */
export const ADDED_REGISTRY_MS = 10 * 60_000;

/**
 * The domain watch: the list of watched domains, and the run that looks each one up through the
 * provider's own `GET /domain/info`, stores what it saw and posts one digest of what is new. Every
 * alert is decided in the store (a conditional update of what was seen, a unique alert key), so a
 * restart, a second replica or an overlapping manual check never repeats one.
 */
export class DomainWatch implements WatchData {
  /** Every lookup of this process, scheduled run or new domains, shares WATCH_CONCURRENCY. */
  readonly #limit: ReturnType<typeof pLimit>;
  /** The registry look-ups of newly added domains still under way (see run). */
  readonly #registryTails = new Set<Promise<void>>();
  /** Expiry date → its instant: a scrape converts each distinct date once, not each domain every time. */
  readonly #instants = new Map<string, number>();
  readonly #calendars: WatchCalendars;

  constructor(
    private readonly store: Store,
    private readonly hosting: HostingClient,
    private readonly messages: BotMessages,
    readonly settings: WatchSettings,
    private readonly logger: Logger,
    private readonly observer?: WatchObserver,
    private readonly now: () => Date = () => new Date(),
    /** The registry's word (RDAP) beside the provider's; absent with RDAP_CHECK=off. */
    readonly registry?: RegistryCheck,
  ) {
    this.#limit = pLimit(settings.concurrency);
    this.#calendars = new WatchCalendars(this, settings.leadDays);
  }

  /** Adds the domains unless they would take the list past WATCH_MAX_DOMAINS (then adds none: `full`). */
  async add(domains: readonly { domain: string; unicode: string }[], addedById: string) {
    const result = await this.store.watch.add(domains, addedById, this.now(), this.settings.maxDomains);
    if (result.added.length > 0) await this.noteChanged(this.logger);
    return result;
  }

  async remove(domains: readonly string[]) {
    const result = await this.store.watch.remove(domains);
    if (result.removed.length > 0) await this.noteChanged(this.logger);
    return result;
  }

  /** The store's change stamp of the watch data: the same on every replica, new after every change. */
  async changeStamp(): Promise<string> {
    return (await this.store.settings.get(CHANGED_KEY)) ?? 'never';
  }

  page(after: string | undefined, limit: number): Promise<WatchedDomain[]> {
    return this.store.watch.page(after, limit);
  }

  /**
   * Tells every replica (through the store) that what is computed from the watch data is out of date: any
   * writer of data the watch series or the calendar show calls it after writing.
   */
  async noteChanged(log: Logger = this.logger): Promise<void> {
    try {
      await this.store.settings.put(CHANGED_KEY, randomUUID(), this.now());
    } catch (error) {
      // The next change moves it: until then gauges and calendar show the data before this one.
      log.warn({ err: error }, 'could not record that the watch data changed');
    }
  }

  count(): Promise<number> {
    return this.store.watch.count();
  }

  /** When a run of the whole list last finished, wherever it ran: what the staleness alert reads. */
  async lastRun(): Promise<LastWatchRun | undefined> {
    const stored = await this.store.settings.get(LAST_RUN_KEY);
    return stored === undefined ? undefined : (JSON.parse(stored) as LastWatchRun);
  }

  async #noteRun(summary: Pick<RunSummary, 'outcome' | 'checked'>, log: Logger): Promise<void> {
    const run: LastWatchRun = {
      at: this.now().toISOString(),
      outcome: summary.outcome,
      checked: summary.checked,
    };
    try {
      await this.store.settings.put(LAST_RUN_KEY, JSON.stringify(run), this.now());
    } catch (error) {
      log.warn({ err: error }, 'could not record the watch run');
    }
  }

  /**
   * The expiry calendar of the whole list in `t`'s language: read a page at a time and rendered in turns,
   * once per change of the watch data (every replica sees the change through the store's stamp). With
   * `covers`, only the domains it covers (a reader's scope): computed for that reader, not kept.
   */
  calendar(t: Translator, covers?: (domain: string) => boolean): Promise<WatchCalendar> {
    return covers ? this.#calendars.only(t, covers) : this.#calendars.get(t);
  }

  /** Days left of a stored expiry date, counted from the current day in the API's zone. */
  daysLeft(expiryDate: string | null): number | null {
    if (expiryDate === null) return null;
    return daysBetween(this.#today().toMillis(), this.expiryInstant(expiryDate));
  }

  /** The start of a stored expiry date (`YYYY-MM-DD`) in the API's zone, in ms since the epoch. */
  expiryInstant(expiryDate: string): number {
    let instant = this.#instants.get(expiryDate);
    if (instant === undefined) {
      if (this.#instants.size >= REMEMBERED_DATES) this.#instants.clear();
      instant = DateTime.fromISO(expiryDate, { zone: this.settings.timeZone }).startOf('day').toMillis();
      this.#instants.set(expiryDate, instant);
    }
    return instant;
  }

  #today(): DateTime {
    return DateTime.fromJSDate(this.now(), { zone: this.settings.timeZone }).startOf('day');
  }

  /**
   * Looks up every watched domain (or, for `added`, just those) and posts one digest of what is new;
   * never throws. The registries are asked beside it (RegistryLanes) within the run's `deadline`: the
   * scheduler's ends at the next tick; a manual check's REGISTRY_CHECK_MS after the provider's side.
   */
  async run(trigger: 'schedule' | 'manual', options?: { deadline?: RunDeadline }): Promise<RunSummary>;
  async run(trigger: 'added', only: readonly string[]): Promise<RunSummary & { seen: WatchedDomain[] }>;
  async run(
    trigger: 'schedule' | 'manual' | 'added',
    second?: readonly string[] | { deadline?: RunDeadline },
  ): Promise<RunSummary & { seen?: WatchedDomain[] }> {
    const only = Array.isArray(second) ? (second as readonly string[]) : undefined;
    const started = performance.now();
    const log = this.logger.child({ watchRun: trigger });
    let domains: WatchedDomain[];
    try {
      domains = only ? await this.store.watch.get(only) : await this.store.watch.all();
    } catch (error) {
      log.error({ err: error }, 'watch run could not read the watched domains');
      const summary = { ...EMPTY_RUN, outcome: 'failed' as const };
      if (trigger !== 'added') this.observer?.watchRun(summary);
      return summary;
    }
    const deadline = (second as { deadline?: RunDeadline } | undefined)?.deadline ?? new RunDeadline();
    // The registry is asked beside, never inside, the provider's share (WATCH_CONCURRENCY): a lane per
    // registry, each at its server's own pace (src/rdap/ServerGate.ts), none holding another.
    const lanes = this.registry
      ? new RegistryLanes(
          this.registry,
          deadline,
          { alerts: (found) => this.post(found, log), waits: (waits) => this.#postWaits(waits, log) },
          log,
          this.now,
          // A domain just added (again) is asked at once, whatever was read of it before.
          trigger === 'added' ? 0 : WATCH_MAX_AGE_MS,
        )
      : undefined;
    if (lanes) domains = await leastRecentlyRead(this.store, domains, log);
    const limit = this.#limit;
    // One calendar day for the whole run: a run across midnight judges every domain alike.
    const today = this.#today();
    const alerts: Alert[] = [];
    let failed = 0;
    // What the run stored shows in the gauges and the calendar every RUN_STAMP_EVERY_MS, and at its end.
    let stamped = performance.now();
    let stamping = false;
    const stampNow = async () => {
      if (stamping || performance.now() - stamped < RUN_STAMP_EVERY_MS) return;
      stamping = true;
      stamped = performance.now();
      await this.noteChanged(log);
      stamping = false;
    };
    await Promise.all(
      domains.map((seen) =>
        limit(async () => {
          const observation = await this.#observe(seen.domain);
          if (observation.kind === 'failed') failed++;
          try {
            alerts.push(...(await this.#record(seen, observation, today)));
          } catch (error) {
            failed++;
            log.error({ err: error, domain: seen.domain }, 'watch could not store what it saw');
          }
          lanes?.add(seen, observation.kind === 'ok' ? observation.expiryDate : seen.expiryDate);
          await stampNow();
        }),
      ),
    );
    if (domains.length > 0) await this.noteChanged(log);
    // The provider's digest never waits for the registries: their findings follow, a registry at a time.
    let messages = await this.post(alerts, log);
    const outcome = failed === 0 ? 'ok' : failed === domains.length ? 'failed' : 'partial';
    const provider = { checked: domains.length, failed, outcome } as const;
    // A look at a few new domains says nothing about whether the scheduled watch is running.
    if (trigger !== 'added') await this.#noteRun(provider, log);
    if (deadline.remainingMs() === Number.POSITIVE_INFINITY) {
      deadline.endIn(trigger === 'added' ? ADDED_REGISTRY_MS : REGISTRY_CHECK_MS);
    }
    const waits: RegistryWait[] = [];
    const registrySide = lanes?.finish().then(async (side) => {
      // The registry's series (flags, expiry) show what the registries said.
      if (side.asked > 0) await this.noteChanged(log);
      return side;
    });
    if (trigger === 'added' && registrySide) {
      const tail = registrySide.then(() => undefined);
      this.#registryTails.add(tail);
      void tail.finally(() => this.#registryTails.delete(tail));
    } else if (registrySide) {
      const side = await registrySide;
      messages += side.messages;
      alerts.push(...side.alerts);
      waits.push(...side.waits);
    }
    const summary = {
      ...provider,
      alerts,
      messages,
      durationMs: performance.now() - started,
      waits,
    } as const;
    if (trigger !== 'added') this.observer?.watchRun(summary);
    log.info(
      {
        checked: summary.checked,
        failed,
        alerts: alerts.length,
        messages,
        waiting: waits.map((w) => ({ server: w.server, count: w.count })),
        ms: Math.round(summary.durationMs),
      },
      'watch run finished',
    );
    if (!only) return summary;
    try {
      return { ...summary, seen: await this.store.watch.get(only) };
    } catch (error) {
      log.error({ err: error }, 'could not read back the domains just looked up');
      return { ...summary, seen: [] };
    }
  }

  /** Says which registries could not be asked about how many domains (carried to the next run). */
  async #postWaits(waits: readonly RegistryWait[], log: Logger): Promise<number> {
    try {
      const t = translator(this.settings.locale);
      await this.messages.post(
        this.settings.channelId,
        renderRegistryWaits(waits, t, this.settings.timeZone, this.now()),
      );
      return 1;
    } catch (error) {
      log.error({ err: error }, 'could not post which registries were waiting');
      return 0;
    }
  }

  /** The registry's last answers for these domains (the watch series' registry flags and expiry). */
  async registryOf(domains: readonly string[]): Promise<ReadonlyMap<string, RegistrySeriesRow>> {
    if (!this.registry) return new Map();
    const rows = await this.store.registry.get(domains);
    return new Map(rows.map((r) => [r.domain, { flags: r.flags, expiresAt: r.expiresAt }]));
  }

  /** Resolves once the registry look-ups of newly added domains have finished and their digest is out. */
  async registrySettled(): Promise<void> {
    await Promise.all([...this.#registryTails]);
  }

  /** Posts one digest of `alerts` in the watch channel; returns the messages posted. Never throws. */
  async post(alerts: readonly Alert[], log: Logger = this.logger): Promise<number> {
    if (alerts.length > 0) this.observer?.watchAlerts(alerts);
    let messages = 0;
    const t = translator(this.settings.locale);
    for (const digest of renderDigest(alerts, this.settings.mentionRoleIds, t)) {
      try {
        await this.messages.post(this.settings.channelId, digest);
        messages++;
      } catch (error) {
        log.error({ err: error }, 'could not post the watch digest');
      }
    }
    return messages;
  }

  async #observe(domain: string): Promise<Observation> {
    try {
      // The client retries 429 after Retry-After (and 5xx) within its time budget. Every look-up of the
      // watch takes one share of the connections, beside the commands' (within WATCH_CONCURRENCY).
      const info = await this.hosting.getDomainInfo(domain, { caller: 'watch' });
      return {
        kind: 'ok',
        expiryDate: info.expiryDate?.toISODate() ?? null,
        active: info.active,
        expired: info.expired,
        transferredAway: info.transferredAway,
      };
    } catch (error) {
      if (error instanceof HostingApiError && error.kind === 'not_found') return { kind: 'not_found' };
      const reason = message(
        error instanceof HostingApiError ? failureReason[error.kind] : 'watch.reason.internal',
      );
      return { kind: 'failed', reason };
    }
  }

  /** Stores what was seen; returns the alerts this run won the right to send. */
  async #record(seen: WatchedDomain, observation: Observation, today: DateTime): Promise<Alert[]> {
    const now = this.now();
    const decision = decide(seen, observation, today, this.settings.leadDays);
    const applied = await this.store.watch.record(seen, decision.findings, now);
    const alerts = applied ? [...decision.onChange] : [];
    if (decision.expiry && (await this.store.watch.claimAlert(seen.domain, decision.expiry.key, now))) {
      alerts.push(decision.expiry.alert);
    }
    return alerts;
  }
}
