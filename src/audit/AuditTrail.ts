import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../logger.js';
import type { AuditEntry, NewAuditEntry, Store } from '../store/index.js';

/** Waits before each retry of an audit row the store refused: together, past a lease of outage. */
const AUDIT_RETRIES_MS = [100, 400, 1_500, 5_000, 10_000] as const;

/** Outcomes that end a change, each worth one line in the audit channel. */
const CHANGE_ENDINGS = new Set(['done', 'failed', 'unknown', 'cancelled', 'expired', 'rejected']);
/** Owed lines a sweep posts at most at once. */
const DUE_PAGE = 50;

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
    if (this.announces(event)) await this.#post(event);
  }

  /** Whether the event has a line in the audit channel. */
  announces(event: AuditEvent): boolean {
    const ending = CHANGE_ENDINGS.has(event.outcome) || event.outcome === 'refused';
    return event.changing && ending && this.#announce !== undefined;
  }

  /**
   * A change's end whose row was written with the end itself (its line owed in the store): the line is
   * posted if this call takes it. If the store cannot say, the sweep takes it once it is due.
   */
  async announceWritten(event: AuditEvent): Promise<void> {
    if (!this.announces(event) || !event.changeId) return;
    let taken: AuditEntry[];
    try {
      taken = await this.#store.audit.takeAnnouncements({ changeId: event.changeId, outcome: event.outcome });
    } catch (error) {
      this.#logger.warn({ err: error, cid: event.correlationId }, 'audit line left to the sweep');
      return;
    }
    if (taken.length > 0) await this.#post(event);
  }

  /** The sweep: every owed line whose settling replica did not post it within a lease (it died, say). */
  async announceDue(): Promise<void> {
    if (!this.#announce) return;
    for (const entry of await this.#store.audit.takeAnnouncements({ due: DUE_PAGE })) {
      await this.#post({ ...entry, changing: true });
    }
  }

  async #post(event: AuditEvent): Promise<void> {
    try {
      await this.#announce?.(event);
    } catch (error) {
      this.#logger.warn({ err: error, cid: event.correlationId }, 'could not post to the audit channel');
    }
  }
}
