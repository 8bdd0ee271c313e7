import pLimit from 'p-limit';
import type { Logger } from '../logger.js';
import type { RdapFailure } from '../rdap/RdapClient.js';
import { type RegistryCheck, WATCH_MAX_AGE_MS } from '../rdap/RegistryCheck.js';
import type { Store, WatchedDomain } from '../store/index.js';
import type { Alert } from './alertRules.js';

/** Look-ups of one registry a run keeps under way at once: its gate (RDAP_MAX_PER_SERVER) still paces them. */
const LANE_IN_FLIGHT = 4;
/** While lanes are still asking, what they found so far goes out this often: a finding never waits a long lane. */
export const FINDINGS_FLUSH_MS = 60_000;

/** A registry a run could not finish asking: how many of its domains are carried to the next run, and why. */
export interface RegistryWait {
  /** The server's origin. */
  server: string;
  /** The TLDs of the domains it was to be asked about (`.org`), sorted. */
  tlds: string[];
  /** Domains not asked (carried to the next run, which asks the least recently read first). */
  count: number;
  /** When the registry asks us to wait until (its Retry-After), when that lies past the run's deadline. */
  until?: Date;
}

/** Where a lane's findings and waits go: the watch channel, posted once. */
export interface LaneSink {
  alerts(alerts: readonly Alert[]): Promise<number>;
  waits(waits: readonly RegistryWait[]): Promise<number>;
}

interface Lane {
  server: string;
  tlds: Set<string>;
  limit: ReturnType<typeof pLimit>;
  tasks: Promise<void>[];
  /** Ended when the registry asks us to wait past the deadline: the rest of its domains are carried. */
  stop: AbortController;
  signal: AbortSignal;
  carried: number;
  until?: Date;
}

/**
 * The registry side of one watch run: a lane per registry (the first server the bootstrap names), fed as
 * the provider's look-ups finish, each asking within the run's deadline and posting its own findings, so a
 * paused or slow registry holds only its own domains. A domain not asked by the deadline, or while its
 * registry asks us to wait past it, is carried: still due, and asked first by the next run.
 */
export class RegistryLanes {
  readonly #lanes = new Map<string, Lane>();
  readonly #feeding: Promise<void>[] = [];
  readonly #found: Alert[] = [];
  #posted = 0;
  #asked = 0;
  readonly #flushTimer: NodeJS.Timeout;
  #flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly registry: RegistryCheck,
    /** The run's deadline: ended, every lane stops asking and carries the rest. */
    private readonly deadline: RunDeadline,
    private readonly sink: LaneSink,
    private readonly log: Logger,
    /** The watch's clock: when a registry's wait ends, as the digest says it. */
    private readonly now: () => Date,
    private readonly maxAgeMs: number = WATCH_MAX_AGE_MS,
  ) {
    this.#flushTimer = setInterval(() => void this.#flush(), FINDINGS_FLUSH_MS).unref();
  }

  /** Queues `seen` at its registry's lane, with the provider's expiry date this run read (or the stored one). */
  add(seen: WatchedDomain, providerExpiry: string | null): void {
    this.#feeding.push(
      this.#laneOf(seen.domain).then((lane) => {
        lane.tlds.add(`.${seen.domain.split('.').at(-1) ?? ''}`);
        lane.tasks.push(lane.limit(() => this.#ask(lane, seen, providerExpiry)));
      }),
    );
  }

  /**
   * No more domains: each lane posts its findings and its wait as it ends, without waiting for the others.
   * Resolves when every lane has ended (by the deadline at the latest); never rejects.
   */
  async finish(): Promise<{ alerts: Alert[]; messages: number; asked: number; waits: RegistryWait[] }> {
    await Promise.all(this.#feeding);
    // The deadline may have been set just now (a manual check's): a registry waiting past it stops asking.
    for (const lane of this.#lanes.values()) this.#pausedPastDeadline(lane);
    const alerts: Alert[] = [];
    const waits: RegistryWait[] = [];
    let messages = 0;
    await Promise.all(
      [...this.#lanes.values()].map(async (lane) => {
        await Promise.all(lane.tasks);
        const found = this.#found.splice(0);
        alerts.push(...found);
        messages += await this.sink.alerts(found);
        if (lane.carried > 0) {
          const wait: RegistryWait = {
            server: lane.server,
            tlds: [...lane.tlds].sort(),
            count: lane.carried,
            ...(lane.until ? { until: lane.until } : {}),
          };
          waits.push(wait);
          messages += await this.sink.waits([wait]);
        }
      }),
    );
    clearInterval(this.#flushTimer);
    await this.#flushing;
    alerts.unshift(...this.#flushed);
    return { alerts, messages: messages + this.#posted, asked: this.#asked, waits };
  }

  readonly #flushed: Alert[] = [];

  /** Posts what the lanes found so far (one at a time). */
  #flush(): Promise<void> {
    this.#flushing = this.#flushing.then(async () => {
      const found = this.#found.splice(0);
      if (found.length === 0) return;
      this.#flushed.push(...found);
      this.#posted += await this.sink.alerts(found);
    });
    return this.#flushing;
  }

  async #laneOf(domain: string): Promise<Lane> {
    let server = '';
    try {
      server = (await this.registry.serverOf(domain)) ?? '';
    } catch (error) {
      this.log.warn({ err: error, domain }, 'watch could not find the registry of a domain');
    }
    let lane = this.#lanes.get(server);
    if (!lane) {
      const stop = new AbortController();
      lane = {
        server,
        tlds: new Set(),
        limit: pLimit(LANE_IN_FLIGHT),
        tasks: [],
        stop,
        signal: AbortSignal.any([this.deadline.signal, stop.signal]),
        carried: 0,
      };
      this.#lanes.set(server, lane);
    }
    return lane;
  }

  /** Whether the lane's registry asks us to wait past the run's deadline (then the lane stops: `until`). */
  #pausedPastDeadline(lane: Lane): boolean {
    if (lane.server === '') return false;
    const ms = this.registry.pausedForMs(lane.server);
    if (ms <= 0 || ms < this.deadline.remainingMs()) return false;
    this.#stop(lane, ms);
    return true;
  }

  /** Stops the lane while its registry asks us to wait `ms` more: said with `until`, the rest carried. */
  #stop(lane: Lane, ms: number): void {
    if (lane.server === '' || ms <= 0 || lane.stop.signal.aborted) return;
    lane.until = new Date(this.now().getTime() + ms);
    lane.stop.abort(new Error(`the registry asks us to wait until ${lane.until.toISOString()}`));
  }

  async #ask(lane: Lane, seen: WatchedDomain, providerExpiry: string | null): Promise<void> {
    if (lane.signal.aborted || this.#pausedPastDeadline(lane)) {
      lane.carried++;
      return;
    }
    try {
      // The run's deadline reaches every wait of the client (the bootstrap, the server's turn, a 429's
      // retry): a server paused past it answers `paused` at once, a waiter queued behind it too.
      const deadline = this.deadline.epochMs();
      const outcome = await this.registry.refresh({ ...seen, watched: true }, providerExpiry, {
        maxAgeMs: this.maxAgeMs,
        signal: lane.signal,
        ...(deadline === undefined ? {} : { deadline }),
      });
      // Not answered for our own limits, the registry's pause or the deadline (a request it ended is no
      // news of the registry): still due, so the next run asks it first.
      const ended = lane.signal.aborted || this.deadline.remainingMs() <= 0;
      if (outcome.failed && (WAITED.has(outcome.failed) || ended)) {
        // `paused`: the registry asked us to wait longer than a request waits for itself (RETRY_WITHIN_MS)
        // or than the run has left: the lane stops there, its waiters too, and the rest is carried.
        if (outcome.failed === 'paused') this.#stop(lane, this.registry.pausedForMs(lane.server));
        else this.#pausedPastDeadline(lane);
        lane.carried++;
        return;
      }
      this.#asked++;
      this.#found.push(...outcome.alerts);
    } catch (error) {
      this.log.error({ err: error, domain: seen.domain }, 'watch could not ask the registry');
    }
  }
}

/** A look-up's end that is no answer of the registry's: our own queue, or the registry asking us to wait. */
const WAITED: ReadonlySet<RdapFailure> = new Set(['busy', 'rate_limited', 'paused']);

/**
 * A run's deadline for the registries: ended by its timer, or at once by `end()` (the next scheduled tick,
 * a shutdown). Without a time set yet (a manual check sets it once the provider's side is done), it lasts.
 */
export class RunDeadline {
  readonly #controller = new AbortController();
  #endsAt = Number.POSITIVE_INFINITY;
  #timer: NodeJS.Timeout | undefined;

  constructor(inMs?: number) {
    if (inMs !== undefined) this.endIn(inMs);
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Ends `ms` from now (never beyond what a timer can hold: a longer deadline is ended by the next run). */
  endIn(ms: number): void {
    clearTimeout(this.#timer);
    const bounded = Math.min(Math.max(0, ms), 2 ** 31 - 1);
    this.#endsAt = performance.now() + bounded;
    this.#timer = setTimeout(() => this.end(), bounded).unref();
  }

  end(): void {
    clearTimeout(this.#timer);
    this.#endsAt = Math.min(this.#endsAt, performance.now());
    this.#controller.abort(new Error('the watch run reached its deadline'));
  }

  remainingMs(): number {
    return this.signal.aborted ? 0 : this.#endsAt - performance.now();
  }

  /** The deadline as a Date.now() instant (the RDAP client's bound); undefined while none is set. */
  epochMs(): number | undefined {
    const remaining = this.remainingMs();
    return Number.isFinite(remaining) ? Date.now() + remaining : undefined;
  }
}

/** `domains`, those whose registry answer is oldest (or missing) first: what a run carried goes first. */
export async function leastRecentlyRead(
  store: Store,
  domains: WatchedDomain[],
  log: Logger,
): Promise<WatchedDomain[]> {
  try {
    const rows = await store.registry.get(domains.map((d) => d.domain));
    const readAt = new Map(rows.map((r) => [r.domain, r.readAt.getTime()]));
    const at = (d: WatchedDomain) => readAt.get(d.domain) ?? Number.NEGATIVE_INFINITY;
    return [...domains].sort((a, b) => at(a) - at(b));
  } catch (error) {
    log.warn({ err: error }, 'watch could not read when the registries were last asked');
    return domains;
  }
}
