import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../logger.js';
import type { NewAuditEntry, Store } from '../store/index.js';

/** Waits before each retry of an audit row the store refused: together, past a lease of outage. */
const AUDIT_RETRIES_MS = [100, 400, 1_500, 5_000, 10_000] as const;

/** Outcomes that end a change, each worth one line in the audit channel. */
const CHANGE_ENDINGS = new Set(['done', 'failed', 'unknown', 'cancelled', 'expired', 'rejected']);

export interface AuditEvent extends NewAuditEntry {
  /** The command changes something: its endings and refusals go to the audit channel too. */
  changing: boolean;
}

/**
 * Every invocation, as a row in the store; finished changes and refused changing commands also as
 * one compact line in the audit channel. Recording never fails a command: a store or channel outage
 * is logged, and the answer to the user goes out regardless.
 */
export class AuditTrail {
  readonly #store: Store;
  readonly #logger: Logger;
  readonly #announce: ((event: AuditEvent) => Promise<void>) | undefined;

  constructor(store: Store, logger: Logger, announce?: (event: AuditEvent) => Promise<void>) {
    this.#store = store;
    this.#logger = logger;
    this.#announce = announce;
  }

  async record(event: AuditEvent): Promise<void> {
    const { changing, ...entry } = event;
    // A blip of the store (one error, a restart) is retried: every end has its one row.
    for (let attempt = 0; ; attempt++) {
      try {
        await this.#store.audit.insert(entry);
        break;
      } catch (error) {
        if (attempt < AUDIT_RETRIES_MS.length) {
          await sleep(AUDIT_RETRIES_MS[attempt], undefined, { ref: false });
          continue;
        }
        this.#logger.error({ err: error, cid: entry.correlationId }, 'could not write the audit entry');
        break;
      }
    }
    const announce = changing && (CHANGE_ENDINGS.has(entry.outcome) || entry.outcome === 'refused');
    if (!announce || !this.#announce) return;
    try {
      await this.#announce(event);
    } catch (error) {
      this.#logger.warn({ err: error, cid: entry.correlationId }, 'could not post to the audit channel');
    }
  }
}
