import { z } from 'zod';
import type { Logger } from '../logger.js';
import type { RegistryRecord, Store } from '../store/index.js';
import { RdapBootstrap } from './RdapBootstrap.js';
import type { RdapClient, RdapFailure } from './RdapClient.js';
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
 * The whole of a command's look-up, its turn at the server and the request included: past it the answer
 * says the registry could not be asked just now (busy: still waiting for its turn; timeout: asked, no answer).
 */
const URGENT_BUDGET_MS = 8_000;
/**
 * After a look-up that got no answer (registry unreachable, timing out, failing), the same domain is not
 * asked again for this long: a /domain info meanwhile shows the stored answer at once instead of waiting
 * on a registry that just failed, and a broken registry is not asked once per command.
 */
const FAILED_RETRY_MS = 15 * 60_000;
/** Bounds the memory of recent failures (the oldest are forgotten first). */
const FAILED_REMEMBERED = 10_000;

/** The registry's word for one domain as shown beside the provider's. */
export interface RegistryView {
  /** The stored answer after this look-up (possibly older, when asking failed). */
  record: RegistryRecord | undefined;
  /** Why the registry could not be asked or answer just now; absent when it did (or was not due). */
  failed?: RdapFailure;
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

  /** Asks the registry for `domain` (ASCII): every server the bootstrap names, in order, until one answers. */
  async ask(
    domain: string,
    options: { urgent?: boolean; signal?: AbortSignal } = {},
  ): Promise<RegistryAnswer | { kind: 'failed'; why: RdapFailure }> {
    const servers = await this.bootstrap.serversFor(domain);
    if (servers === undefined) return { kind: 'failed', why: 'no_bootstrap' };
    if (servers.length === 0) return { kind: 'no_rdap' };
    let failure: { kind: 'failed'; why: RdapFailure } = { kind: 'failed', why: 'network' };
    for (const base of servers) {
      const url = new URL(`domain/${encodeURIComponent(domain)}`, base);
      const answer = await this.client.getJson(url, domainObjectSchema, options);
      if (answer.kind === 'ok') return keptFields(answer.value, answer.server);
      if (answer.kind === 'not_found' || answer.kind === 'unreadable') return answer;
      failure = { kind: 'failed', why: answer.why };
      if (answer.why === 'busy') break;
    }
    return failure;
  }

  /**
   * Looks `domain` up if its stored answer is older than `maxAgeMs` and stores what changed; the alerts
   * are what this call won the right to report (the conditional write), for a watched domain only.
   */
  async refresh(
    domain: { domain: string; unicode: string; watched: boolean },
    providerExpiry: string | null,
    /** `signal`: the caller's deadline (a watch run's): ended while waiting for a turn, it is `busy`. */
    options: { maxAgeMs: number; urgent?: boolean; signal?: AbortSignal },
  ): Promise<RegistryOutcome> {
    const previous = await this.stored(domain.domain);
    // A domain watched since its last look-up is due at once: its flags were never decided for the watch.
    const unjudged = domain.watched && previous !== undefined && !previous.watched;
    if (!unjudged && !this.due(previous, options.maxAgeMs)) return { record: previous, alerts: [] };
    const failed = this.#failed.get(domain.domain);
    // An answer asked for now (maxAgeMs 0: an operator's re-ask) is asked, whatever failed before.
    if (failed && options.maxAgeMs > 0 && this.now().getTime() - failed.at < FAILED_RETRY_MS) {
      return { record: previous, alerts: [], failed: failed.why };
    }
    const budget = options.urgent ? AbortSignal.timeout(URGENT_BUDGET_MS) : undefined;
    const signal =
      budget && options.signal ? AbortSignal.any([budget, options.signal]) : (budget ?? options.signal);
    const answer = await this.ask(domain.domain, {
      urgent: options.urgent ?? false,
      ...(signal ? { signal } : {}),
    });
    if (answer.kind === 'failed') {
      this.#failed.delete(domain.domain);
      this.#failed.set(domain.domain, { at: this.now().getTime(), why: answer.why });
      if (this.#failed.size > FAILED_REMEMBERED)
        this.#failed.delete(this.#failed.keys().next().value as string);
      return { record: previous, alerts: [], failed: answer.why };
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

  /** Ends the look-ups under way and waiting (shutdown): a watch run waiting on registries ends now. */
  stop(): void {
    this.client.stop();
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
