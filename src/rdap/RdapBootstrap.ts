import type { Logger } from '../logger.js';
import type { Store } from '../store/index.js';
import type { RdapClient } from './RdapClient.js';
import { type BootstrapFile, bootstrapSchema } from './rdapSchemas.js';
import { SHIPPED_BOOTSTRAP } from './shippedBootstrap.js';

const STORED_KEY = 'rdap.bootstrap';
const DAY_MS = 86_400_000;
/** After a failed fetch, the next try: soon enough that a start without network heals the same day. */
const RETRY_MS = 3_600_000;
/** IANA's file is ≈ 100 KB. */
const MAX_BYTES = 4 * 1024 * 1024;

interface StoredBootstrap {
  /** Where it came from: a change of RDAP_BOOTSTRAP_URL fetches again. */
  url: string;
  /** When the last attempt to fetch it was made (ms), successful or not: at most one a day. */
  triedAt: number;
  /** When it was last fetched (ms); absent while only the shipped copy is known. */
  fetchedAt?: number;
  file: BootstrapFile;
}

/** Which servers answer for which TLDs: labels (lower case) to base URLs. */
export type ServerTable = Map<string, string[]>;

function table(file: BootstrapFile): ServerTable {
  const servers: ServerTable = new Map();
  for (const [labels = [], urls = []] of file.services) {
    const bases = urls.map((u) => (u.endsWith('/') ? u : `${u}/`));
    for (const label of labels) servers.set(label.toLowerCase().replace(/\.$/, ''), bases);
  }
  return servers;
}

/**
 * RFC 9224's bootstrap file, cached in the store (every replica shares one copy) and refreshed at most
 * once a day; the shipped copy when the store holds none.
 */
export class RdapBootstrap {
  #loaded: { stored: StoredBootstrap; servers: ServerTable } | undefined;
  #refreshing: Promise<void> | undefined;

  constructor(
    private readonly store: Store,
    private readonly client: RdapClient,
    private readonly url: string,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * The base URLs for `domain` (ASCII), longest label match first (RFC 9224 §4); empty when its
   * registry offers no RDAP; undefined when that is not known (only the shipped copy is held, and it
   * does not name the TLD).
   */
  async serversFor(domain: string): Promise<string[] | undefined> {
    const { servers, stored } = await this.#current();
    const labels = domain.toLowerCase().replace(/\.$/, '').split('.');
    for (let i = 1; i < labels.length; i++) {
      const found = servers.get(labels.slice(i).join('.'));
      if (found) return found.filter((u) => URL.canParse(u) && this.client.allowed(new URL(u)));
    }
    return stored.fetchedAt === undefined ? undefined : [];
  }

  async #current(): Promise<{ stored: StoredBootstrap; servers: ServerTable }> {
    const due = (stored: StoredBootstrap) => this.#due(stored);
    if (this.#loaded && !due(this.#loaded.stored)) return this.#loaded;
    this.#refreshing ??= this.#refresh().finally(() => {
      this.#refreshing = undefined;
    });
    await this.#refreshing;
    return this.#loaded as { stored: StoredBootstrap; servers: ServerTable };
  }

  async #refresh(): Promise<void> {
    let stored = await this.#read();
    if (stored && !this.#due(stored)) {
      this.#loaded = { stored, servers: table(stored.file) };
      return;
    }
    const triedAt = this.now().getTime();
    const fetched = await this.client.getJson(new URL(this.url), bootstrapSchema, { maxBytes: MAX_BYTES });
    if (fetched.kind === 'ok') {
      stored = { url: this.url, triedAt, fetchedAt: triedAt, file: fetched.value };
      this.logger.info({ services: fetched.value.services.length }, 'rdap: bootstrap file refreshed');
    } else {
      this.logger.warn(
        { outcome: fetched.kind, why: 'why' in fetched ? fetched.why : undefined, url: this.url },
        'rdap: could not refresh the bootstrap file; using the copy held',
      );
      stored = { ...(stored ?? { url: this.url, file: SHIPPED_BOOTSTRAP }), triedAt };
    }
    this.#loaded = { stored, servers: table(stored.file) };
    try {
      await this.store.settings.put(STORED_KEY, JSON.stringify(stored), this.now());
    } catch (error) {
      this.logger.warn({ err: error }, 'rdap: could not store the bootstrap file');
    }
  }

  /** Refreshed at most daily; after a failed try, again within the hour; at once for another URL. */
  #due(stored: StoredBootstrap): boolean {
    if (stored.url !== this.url) return true;
    const fresh = stored.fetchedAt !== undefined && stored.fetchedAt === stored.triedAt;
    return this.now().getTime() - stored.triedAt >= (fresh ? DAY_MS : RETRY_MS);
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
