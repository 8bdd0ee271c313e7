import type { Logger } from '../logger.js';
import type { Store } from '../store/index.js';
import { deadlineSignal, type RdapBound, type RdapClient } from './RdapClient.js';
import { type BootstrapFile, bootstrapSchema } from './rdapSchemas.js';
import { SHIPPED_BOOTSTRAP } from './shippedBootstrap.js';

const STORED_KEY = 'rdap.bootstrap';
/** A fetched file is used this long before it is fetched again. */
export const BOOTSTRAP_MAX_AGE_MS = 86_400_000;
/**
 * After a failed fetch of a URL, that URL is not tried again for this long (a changed RDAP_BOOTSTRAP_URL
 * included): soon enough that a start without network heals the same day, and however many look-ups come
 * meanwhile, one request an hour.
 */
export const BOOTSTRAP_RETRY_MS = 3_600_000;
/**
 * The whole of one fetch of the file, its turn, redirects and 429 waits included. It runs in the
 * background: look-ups use the copy held meanwhile, and wait for it only within their own deadline.
 */
export const BOOTSTRAP_FETCH_BUDGET_MS = 30_000;
/** The largest bootstrap file read (IANA's is ≈ 100 KB). */
export const BOOTSTRAP_MAX_BYTES = 4 * 1024 * 1024;

interface StoredBootstrap {
  /** Where `file` came from. */
  url: string;
  /** When `file` was fetched (ms); absent while only the shipped copy is known. */
  fetchedAt?: number;
  file: BootstrapFile;
  /** The last failed fetch, of which URL: that URL waits BOOTSTRAP_RETRY_MS before it is tried again. */
  failed?: { url: string; at: number };
}

/** Which servers answer for which TLDs: labels (lower case) to base URLs. */
export type ServerTable = Map<string, string[]>;

interface Held {
  stored: StoredBootstrap;
  servers: ServerTable;
}

function table(file: BootstrapFile): ServerTable {
  const servers: ServerTable = new Map();
  for (const [labels = [], urls = []] of file.services) {
    const bases = urls.map((u) => (u.endsWith('/') ? u : `${u}/`));
    for (const label of labels) servers.set(label.toLowerCase().replace(/\.$/, ''), bases);
  }
  return servers;
}

/** Whether `promise` settled before the bound ended (it goes on either way). */
async function settledWithin(promise: Promise<unknown>, bound: RdapBound): Promise<boolean> {
  const signals = [bound.signal];
  if (bound.deadline !== undefined) signals.push(deadlineSignal(bound.deadline));
  const ended = AbortSignal.any(signals.filter((s): s is AbortSignal => s !== undefined));
  if (ended.aborted) return false;
  let onAbort = () => {};
  const gaveUp = new Promise<false>((resolve) => {
    onAbort = () => resolve(false);
    ended.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([promise.then(() => true), gaveUp]);
  } finally {
    ended.removeEventListener('abort', onAbort);
  }
}

/**
 * RFC 9224's bootstrap file, cached in the store (every replica shares one copy) and refreshed at most
 * once a day, in the background: a look-up reads the copy held (the last one fetched, or the shipped one)
 * at once, and waits for a fetch only when nothing held names its TLD yet, within its own deadline.
 */
export class RdapBootstrap {
  #held: Held | undefined;
  #loading: Promise<Held> | undefined;
  #refreshing: Promise<void> | undefined;

  constructor(
    private readonly store: Store,
    private readonly client: RdapClient,
    private readonly url: string,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * The base URLs for `domain` (ASCII), longest label match first (RFC 9224 §4); empty when its registry
   * offers no RDAP; undefined when that is not known within `bound` (only the shipped copy is held, it
   * does not name the TLD, and the file could not be fetched in time).
   */
  async serversFor(domain: string, bound: RdapBound = {}): Promise<string[] | undefined> {
    let held = await this.#load();
    if (this.#due(held.stored)) this.#refreshInBackground();
    // Never fetched yet: the first fetch is waited for, within the caller's bound, before the shipped copy.
    if (held.stored.fetchedAt === undefined && this.#refreshing) {
      await settledWithin(this.#refreshing, bound);
      held = this.#held ?? held;
    }
    return this.#lookUp(held, domain) ?? (held.stored.fetchedAt === undefined ? undefined : []);
  }

  /** Settles when the refresh under way (if any) has ended: for a test, or a shutdown that waits. */
  async settled(): Promise<void> {
    await this.#refreshing;
  }

  #lookUp(held: Held, domain: string): string[] | undefined {
    const labels = domain.toLowerCase().replace(/\.$/, '').split('.');
    for (let i = 1; i < labels.length; i++) {
      const found = held.servers.get(labels.slice(i).join('.'));
      if (found) return found.filter((u) => URL.canParse(u) && this.client.allowed(new URL(u)));
    }
    return undefined;
  }

  /** The copy held: in memory, else the store's, else the shipped one. Never fetches. */
  #load(): Promise<Held> {
    if (this.#held) return Promise.resolve(this.#held);
    this.#loading ??= this.#read().then((stored) =>
      this.#hold(stored ?? { url: this.url, file: SHIPPED_BOOTSTRAP }),
    );
    return this.#loading;
  }

  #hold(stored: StoredBootstrap): Held {
    this.#held = { stored, servers: table(stored.file) };
    // The servers it names (and the file's own origin) are reached where they are; nothing else is.
    const origins = new Set([new URL(this.url).origin]);
    for (const bases of this.#held.servers.values())
      for (const base of bases) if (URL.canParse(base)) origins.add(new URL(base).origin);
    this.client.nameOrigins(origins);
    return this.#held;
  }

  #refreshInBackground(): void {
    this.#refreshing ??= this.#refresh()
      .catch((error: unknown) => this.logger.warn({ err: error }, 'rdap: the bootstrap refresh failed'))
      .finally(() => {
        this.#refreshing = undefined;
      });
  }

  async #refresh(): Promise<void> {
    // Another replica may have fetched it meanwhile.
    const stored = (await this.#read()) ?? (this.#held as Held).stored;
    if (!this.#due(stored)) {
      this.#hold(stored);
      return;
    }
    const at = this.now().getTime();
    const fetched = await this.client.getJson(new URL(this.url), bootstrapSchema, {
      maxBytes: BOOTSTRAP_MAX_BYTES,
      deadline: Date.now() + BOOTSTRAP_FETCH_BUDGET_MS,
    });
    let next: StoredBootstrap;
    if (fetched.kind === 'ok') {
      next = { url: this.url, fetchedAt: at, file: fetched.value };
      this.logger.info({ services: fetched.value.services.length }, 'rdap: bootstrap file refreshed');
    } else {
      this.logger.warn(
        { outcome: fetched.kind, why: 'why' in fetched ? fetched.why : undefined, url: this.url },
        'rdap: could not refresh the bootstrap file; using the copy held',
      );
      next = { ...stored, failed: { url: this.url, at } };
    }
    this.#hold(next);
    try {
      await this.store.settings.put(STORED_KEY, JSON.stringify(next), this.now());
    } catch (error) {
      this.logger.warn({ err: error }, 'rdap: could not store the bootstrap file');
    }
  }

  /** Fetched at most daily; a URL whose fetch failed, not again within BOOTSTRAP_RETRY_MS. */
  #due(stored: StoredBootstrap): boolean {
    const now = this.now().getTime();
    if (
      stored.url === this.url &&
      stored.fetchedAt !== undefined &&
      now - stored.fetchedAt < BOOTSTRAP_MAX_AGE_MS
    )
      return false;
    return !(stored.failed?.url === this.url && now - stored.failed.at < BOOTSTRAP_RETRY_MS);
  }

  async #read(): Promise<StoredBootstrap | undefined> {
    try {
      const text = await this.store.settings.get(STORED_KEY);
      if (text === undefined) return undefined;
      const value = JSON.parse(text) as StoredBootstrap;
      const file = bootstrapSchema.safeParse(value.file);
      return file.success ? { ...value, file: file.data } : undefined;
    } catch (error) {
      this.logger.warn({ err: error }, 'rdap: the stored bootstrap file is unreadable');
      return undefined;
    }
  }
}
