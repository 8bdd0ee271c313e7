import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../logger.js';
import type { NewAuditEntry, PostKind, Store } from '../store/index.js';
import type { ChannelPosts } from './channelPosts.js';
import { OwedPosts } from './OwedPosts.js';

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
  readonly #posts: ChannelPosts | undefined;
  readonly #owed: OwedPosts;

  constructor(store: Store, logger: Logger, posts?: ChannelPosts, onAbandoned?: (kind: PostKind) => void) {
    this.#store = store;
    this.#logger = logger;
    this.#posts = posts;
    this.#owed = new OwedPosts(store, logger, posts, onAbandoned);
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
    return event.changing && ending && this.#posts?.lines === true;
  }

  /** Whether a change's end can owe its channel a notice (there is a channel, and a way to post there). */
  notices(event: AuditEvent): boolean {
    return event.changing && Boolean(event.channelId) && this.#posts !== undefined;
  }

  /**
   * A change's end whose row was written with the end itself, with what it owes Discord (OwedPosts):
   * posted if this call takes it. If the store cannot say, the sweep takes it once it is due.
   */
  async announceWritten(event: AuditEvent): Promise<void> {
    if (!event.changeId) return;
    await this.#owed.written(event.changeId, event.outcome, event.correlationId);
  }

  /** The sweep: every owed post whose taker did not post it within a lease (it died, Discord failed). */
  announceDue(): Promise<void> {
    return this.#owed.due();
  }

  async #post(event: AuditEvent): Promise<void> {
    try {
      await this.#posts?.post('line', event);
    } catch (error) {
      this.#logger.warn({ err: error, cid: event.correlationId }, 'could not post to the audit channel');
    }
  }
}
