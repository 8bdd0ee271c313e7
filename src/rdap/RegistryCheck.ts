import { z } from 'zod';
import type { Logger } from '../logger.js';
import type { RegistryRecord, Store } from '../store/index.js';
import { RdapBootstrap } from './RdapBootstrap.js';
import type { RdapBound, RdapClient, RdapFailure } from './RdapClient.js';
import { type DomainObject, domainObjectSchema } from './rdapSchemas.js';
import { decideRegistry, type RegistryAlert, type RegistryAnswer } from './registryFindings.js';

const HOUR_MS = 3_600_000;
/** A stored answer older than this is asked again on request. */
export const REQUEST_MAX_AGE_MS = 24 * HOUR_MS;
/**
 * The watch asks again once an answer is this old: a day, less the few minutes a daily run's start may
 * vary by, so a run at 08:00 each day asks each time; a schedule more often than daily asks every 23 h.
 */
export const WATCH_MAX_AGE_MS = 23 * HOUR_MS;
/**
 * The whole of a command's look-up, the bootstrap file, its turn at the server and the request included
 * (a caller's own deadline, when sooner, wins): past it the answer says the registry could not be asked
 * just now (busy: still waiting for its turn; timeout: asked, no answer; paused: the registry asked us to
 * wait past it — said at once, not after waiting).
 */
export const URGENT_BUDGET_MS = 8_000;
/**
 * After a look-up the registry itself failed (unreachable, timing out, an error answer, a redirect refused),
 * a command does not ask for the same domain again for this long: a /domain info meanwhile shows the stored
 * answer at once instead of waiting on a registry that just failed. Our own limits (busy, a pause the
 * registry asked for, no bootstrap file) are never remembered so, and the watch always asks when due.
 */
export const FAILED_RETRY_MS = 15 * 60_000;
/**
 * After a server could not be reached or did not answer a command's look-up (no connection, a TLS failure, a
 * timeout, a redirect refused), commands do not ask that server again for this long, whatever the domain:
 * each /domain info meanwhile would pay a new connection's handshake, or wait out its budget, for the same
 * failure (bench rdap-callers: 4.5 ms of CPU per look-up against a registry whose TLS fails). The watch still
 * asks, and so does an operator's re-ask.
 */
export const SERVER_RETRY_MS = 60_000;
/** The failures that say a server cannot be asked just now, whatever the domain. */
const SERVER_FAILURES: ReadonlySet<RdapFailure> = new Set(['timeout', 'network', 'refused']);
/** The failures that are the registry's own answer, remembered for FAILED_RETRY_MS. */
const REGISTRY_FAILURES: ReadonlySet<RdapFailure> = new Set(['timeout', 'network', 'status', 'refused']);
/** Bounds the memory of recent failures (the oldest are forgotten first). */
const FAILED_REMEMBERED = 10_000;

/** The registry's word for one domain as shown beside the provider's. */
export interface RegistryView {
  /** The stored answer after this look-up (possibly older, when asking failed). */
  record: RegistryRecord | undefined;
  /** Why the registry could not be asked or answer just now; absent when it did (or was not due). */
  failed?: RdapFailure;
  /** When failed is `paused` (or `rate_limited`): when the registry's pause ends. */
  until?: Date;
  /** When failed: the bootstrap's server that was asked (or would have been), e.g. to group a run's misses. */
  server?: string;
}

/** Why a look-up brought no answer of the registry's. */
export interface RegistryMiss {
  kind: 'failed';
  why: RdapFailure;
  until?: Date;
  server?: string;
  /** Not asked: the server failed a command's look-up within SERVER_RETRY_MS (nothing new of this domain). */
  spared?: true;
}

/** Findings of one look-up, for the digest, with what is stored now. */
export interface RegistryOutcome extends RegistryView {
  alerts: RegistryAlert[];
}

/**
 * RFC 9083 §4.5: event dates are RFC 3339 date-times, offset included. Date.parse alone would take "1" for
 * 2001-01-01, roll 2031-02-30 over into March and read a date without an offset in the process's own zone:
 * a wrong date. Only a valid calendar date-time with its offset is read; anything else is unreadable.
 */
const rfc3339 = z.iso.datetime({ offset: true });

function keptFields(object: DomainObject, server: string): RegistryAnswer {
  const expiration = object.events?.find((e) => e.eventAction.toLowerCase() === 'expiration');
  let expiresAt: string | null = null;
  if (expiration?.eventDate !== undefined) {
    // A date that does not parse is no date: never guess one.
    if (!rfc3339.safeParse(expiration.eventDate).success) {
      return { kind: 'unreadable', server, why: 'expiration date is not a date' };
    }
    expiresAt = new Date(Date.parse(expiration.eventDate)).toISOString();
  }
  return {
    kind: 'ok',
    server,
    expiresAt,
    statuses: [...new Set((object.status ?? []).map((s) => s.toLowerCase().trim()))].sort(),
    nameservers: [
      ...new Set((object.nameservers ?? []).map((ns) => ns.ldhName.toLowerCase().replace(/\.$/, ''))),
    ].sort(),
    delegationSigned: object.secureDNS?.delegationSigned ?? null,
  };
}

/**
 * The registry's word (RDAP) beside the provider's: asks the registry a bootstrap file names for a
 * domain, keeps RFC 9083's expiration, status, nameservers and delegationSigned, and decides what
 * changed (registryFindings.ts), once, in the store.
 */
export class RegistryCheck {
  readonly bootstrap: RdapBootstrap;

  constructor(
    private readonly store: Store,
    private readonly client: RdapClient,
    bootstrapUrl: string,
    private readonly timeZone: string,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.bootstrap = new RdapBootstrap(store, client, bootstrapUrl, logger, now);
  }

  /** Whether a stored answer is old enough to ask again (`maxAgeMs`). */
  due(record: RegistryRecord | undefined, maxAgeMs: number): boolean {
    return record === undefined || this.now().getTime() - record.readAt.getTime() >= maxAgeMs;
  }

  /** Domains whose last look-up got no answer, with when and why (a cache: losing it only asks again). */
  readonly #failed = new Map<string, { at: number; why: RdapFailure }>();
  /** Bootstrap servers (origins) that failed a command's look-up, with when and why: bounded by that file. */
  readonly #serverFailed = new Map<string, { at: number; why: RdapFailure }>();

  async stored(domain: string): Promise<RegistryRecord | undefined> {
    return (await this.store.registry.get([domain]))[0];
  }

  /**
   * The origin of the first server the bootstrap names for `domain`: the watch groups a run's domains by
   * it, so each registry's pace and pauses hold only its own domains. Undefined without an RDAP service
   * (or while the bootstrap cannot name one).
   */
  async serverOf(domain: string): Promise<string | undefined> {
    const servers = await this.bootstrap.serversFor(domain);
    const first = servers?.[0];
    return first === undefined ? undefined : new URL(first).origin;
  }

  /** How long from now `origin` asks us to wait (its Retry-After, or the spacing): 0 when it may be asked. */
  pausedForMs(origin: string): number {
    return this.client.pausedForMs(origin);
  }

  /**
   * Asks the registry for `domain` (ASCII): every server the bootstrap names, in order, until one answers
   * (a paused one is passed over at once). `bound` covers all of it, the bootstrap file included.
   */
  async ask(
    domain: string,
    options: RdapBound & { urgent?: boolean; spareFailed?: boolean } = {},
  ): Promise<RegistryAnswer | RegistryMiss> {
    const servers = await this.bootstrap.serversFor(domain, options);
    if (servers === undefined) return { kind: 'failed', why: 'no_bootstrap' };
    if (servers.length === 0) return { kind: 'no_rdap' };
    let failure: RegistryMiss = { kind: 'failed', why: 'network' };
    const { spareFailed, ...bound } = options;
    for (const base of servers) {
      const url = new URL(`domain/${encodeURIComponent(domain)}`, base);
      const failed = spareFailed ? this.#serverFailed.get(url.origin) : undefined;
      if (failed && this.now().getTime() - failed.at < SERVER_RETRY_MS) {
        if (failure.server === undefined || failure.spared)
          failure = { kind: 'failed', why: failed.why, server: url.origin, spared: true };
        continue;
      }
      const answer = await this.client.getJson(url, domainObjectSchema, bound);
      if (answer.kind === 'failed' && options.urgent && SERVER_FAILURES.has(answer.why))
        this.#serverFailed.set(answer.server, { at: this.now().getTime(), why: answer.why });
      else if (answer.kind !== 'failed') this.#serverFailed.delete(answer.server);
      if (answer.kind === 'ok') return keptFields(answer.value, answer.server);
      if (answer.kind === 'not_found' || answer.kind === 'unreadable') return answer;
      // The first paused server says when; a later failure of another kind says more.
      if (failure.why !== 'paused' || answer.why !== 'paused' || failure.server === undefined)
        failure = {
          kind: 'failed',
          why: answer.why,
          server: answer.server,
          ...(answer.until ? { until: answer.until } : {}),
        };
      if (answer.why === 'busy') break;
    }
    return failure;
  }

  /**
   * Looks `domain` up if its stored answer is older than `maxAgeMs` and stores what changed; the alerts
   * are what this call won the right to report (the conditional write), for a watched domain only.
   * `urgent` (someone waits): ahead of the watch at every server, within URGENT_BUDGET_MS or the caller's
   * deadline, whichever is sooner, and not asked again for a while after the registry failed. The watch
   * (not urgent) asks whenever due, within its own deadline if it gives one.
   */
  async refresh(
    domain: { domain: string; unicode: string; watched: boolean },
    providerExpiry: string | null,
    options: RdapBound & { maxAgeMs: number; urgent?: boolean },
  ): Promise<RegistryOutcome> {
    const previous = await this.stored(domain.domain);
    // A domain watched since its last look-up is due at once: its flags were never decided for the watch.
    const unjudged = domain.watched && previous !== undefined && !previous.watched;
    if (!unjudged && !this.due(previous, options.maxAgeMs)) return { record: previous, alerts: [] };
    const urgent = options.urgent ?? false;
    const failed = this.#failed.get(domain.domain);
    // An answer asked for now (maxAgeMs 0: an operator's re-ask) is asked, whatever failed before.
    if (urgent && failed && options.maxAgeMs > 0 && this.now().getTime() - failed.at < FAILED_RETRY_MS) {
      return { record: previous, alerts: [], failed: failed.why };
    }
    const deadline = urgent
      ? Math.min(options.deadline ?? Number.POSITIVE_INFINITY, Date.now() + URGENT_BUDGET_MS)
      : options.deadline;
    const answer = await this.ask(domain.domain, {
      urgent,
      // A command spares a server that just failed; an operator's re-ask (maxAgeMs 0) asks it anyway.
      spareFailed: urgent && options.maxAgeMs > 0,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(deadline !== undefined ? { deadline } : {}),
    });
    if (answer.kind === 'failed') {
      if (REGISTRY_FAILURES.has(answer.why) && !answer.spared) {
        this.#failed.delete(domain.domain);
        this.#failed.set(domain.domain, { at: this.now().getTime(), why: answer.why });
        if (this.#failed.size > FAILED_REMEMBERED)
          this.#failed.delete(this.#failed.keys().next().value as string);
      }
      return {
        record: previous,
        alerts: [],
        failed: answer.why,
        ...(answer.until ? { until: answer.until } : {}),
        ...(answer.server ? { server: answer.server } : {}),
      };
    }
    this.#failed.delete(domain.domain);
    const readAt = this.now();
    // The DNS memory is read only when the nameservers differ from the last ones seen.
    const before = previous?.nameservers;
    const changed =
      answer.kind === 'ok' && before != null && before.join(' ') !== answer.nameservers.join(' ');
    const ownNameservers =
      answer.kind === 'ok' && changed && (await this.#sentByHostOps(domain.domain, answer.nameservers));
    const { record, alerts } = decideRegistry({
      domain: domain.domain,
      unicode: domain.unicode,
      previous,
      answer,
      providerExpiry,
      timeZone: this.timeZone,
      readAt,
      ownNameservers,
      watched: domain.watched,
    });
    const applied = await this.store.registry.record(record, previous?.version);
    const now = applied
      ? { ...record, version: (previous?.version ?? 0) + 1 }
      : await this.stored(domain.domain);
    return { record: now, alerts: applied ? alerts : [] };
  }

  /** Whether the apex NS records HostOps last sent for the domain (the DNS memory) are exactly `nameservers`. */
  async #sentByHostOps(domain: string, nameservers: readonly string[]): Promise<boolean> {
    try {
      const sent = await this.store.dnsSets.latest(domain);
      if (!sent) return false;
      const records = JSON.parse(sent.records) as { name?: string; type?: string; content?: string }[];
      const ns = [
        ...new Set(
          records
            .filter((r) => r.type === 'NS' && (r.name === '@' || r.name === ''))
            .map((r) => String(r.content).toLowerCase().replace(/\.$/, '')),
        ),
      ].sort();
      return ns.length > 0 && ns.join(' ') === nameservers.join(' ');
    } catch (error) {
      this.logger.warn({ err: error, domain }, 'rdap: could not read the DNS memory');
      return false;
    }
  }

  /** The registries' servers paused now (their 429 Retry-After), and until when. */
  pauses(): { server: string; until: Date }[] {
    return this.client.pauses();
  }

  /** Ends the look-ups under way and waiting (shutdown): a watch run waiting on registries ends now. */
  stop(): void {
    this.client.stop();
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
