import type { Logger } from '../logger.js';
import type { Store } from '../store/index.js';

const DAY_MS = 24 * 60 * 60 * 1000;
// Interaction claims only need to outlive Discord's redelivery of one interaction.
const CLAIM_RETENTION_MS = DAY_MS;

/**
 * Once a day: audit entries older than the retention and old claims are purged. The day is claimed
 * in the store, so with several replicas (or a restart) each day's purge runs once.
 */
export class Housekeeping {
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly store: Store,
    private readonly retentionDays: number,
    private readonly replicaId: string,
    private readonly logger: Logger,
    /** The store's clock (StoreClock): what the rows it purges by age were stamped with. */
    private readonly now: () => Date = () => new Date(),
  ) {
    // Checked hourly, so a replica started just after another one's purge still takes tomorrow's.
    this.#timer = setInterval(() => void this.run(), 60 * 60 * 1000);
    this.#timer.unref();
  }

  /** Runs today's purge unless some process already did; resolves with what was purged, if anything. */
  async run(now = this.now()): Promise<{ audit: number; claims: number; forms: number } | undefined> {
    try {
      const slot = now.toISOString().slice(0, 10);
      if (!(await this.store.claims.claimJobRun('purge', slot, this.replicaId, now))) return undefined;
      const audit = await this.store.audit.purgeOlderThan(
        new Date(now.getTime() - this.retentionDays * DAY_MS),
      );
      const claims = await this.store.claims.purgeOlderThan(new Date(now.getTime() - CLAIM_RETENTION_MS));
      // Forms shown and never submitted (a closed modal sends nothing).
      const forms = await this.store.forms.purgeExpired();
      this.logger.info(
        { audit, claims, forms, retentionDays: this.retentionDays },
        'purged old audit entries',
      );
      return { audit, claims, forms };
    } catch (error) {
      this.logger.warn({ err: error }, 'could not purge old audit entries');
      return undefined;
    }
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}
