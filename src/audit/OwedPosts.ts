import type { Logger } from '../logger.js';
import { LEASE_MS, type OwedPost, type PostKind, type PostsToTake, type Store } from '../store/index.js';
import type { ChannelPosts } from './channelPosts.js';

/**
 * Takes of one owed post before it is given up. A failed take is taken again once its lease ran out, at
 * the next sweep (every 10 s): 8 takes span about 2–3 minutes, inside the few minutes in which Discord
 * dedupes a nonce — a post Discord created but whose answer was lost is not created twice by a retake.
 */
export const POST_ATTEMPTS = 8;
/** Owed posts a sweep takes at most at once. */
const DUE_PAGE = 50;

/** Discord's nonce (up to 25 characters), from the audit row and the kind: the same for every take. */
export function postNonce(kind: PostKind, auditId: number): string {
  return `hostops-${kind === 'line' ? 'l' : 'n'}${auditId}`;
}

/**
 * What audit rows owe Discord (their audit-channel line; the notice of a change the sweep ended), posted
 * exactly once: each is taken for a lease by one conditional update in the store, posted with a nonce
 * Discord enforces, and marked done only once Discord accepted it. A taker that dies, or whose post
 * Discord refuses or never answers, leaves it to the sweep's next take after the lease — up to
 * POST_ATTEMPTS takes, then it is given up: logged as an error and counted.
 */
export class OwedPosts {
  readonly #store: Store;
  readonly #logger: Logger;
  readonly #posts: ChannelPosts | undefined;
  readonly #onAbandoned: (kind: PostKind) => void;

  constructor(
    store: Store,
    logger: Logger,
    posts: ChannelPosts | undefined,
    onAbandoned: (kind: PostKind) => void = () => {},
  ) {
    this.#store = store;
    this.#logger = logger;
    this.#posts = posts;
    this.#onAbandoned = onAbandoned;
  }

  /** The posts of a change's end its settling replica just wrote: this caller posts them if it takes them. */
  async written(changeId: string, outcome: string, cid: string): Promise<void> {
    let taken: OwedPost[];
    try {
      taken = await this.#take({ changeId, outcome });
    } catch (error) {
      this.#logger.warn({ err: error, cid }, 'owed posts left to the sweep');
      return;
    }
    await this.#postAll(taken);
  }

  /** The sweep: every owed post whose time has come (its taker died, or its post failed). */
  async due(): Promise<void> {
    await this.#postAll(await this.#take({ due: DUE_PAGE }));
  }

  /** At once: a post Discord holds in one channel does not hold another channel's (the client queues by channel). */
  async #postAll(posts: readonly OwedPost[]): Promise<void> {
    await Promise.all(posts.map((post) => this.#post(post)));
  }

  #take(which: PostsToTake): Promise<OwedPost[]> {
    // A process that cannot post to Discord (a console) takes nothing: what is owed waits for a bot.
    return this.#posts?.takes ? this.#store.audit.takePosts(which, LEASE_MS) : Promise.resolve([]);
  }

  async #post({ kind, attempts, entry }: OwedPost): Promise<void> {
    const log = { cid: entry.correlationId, kind, attempt: attempts };
    try {
      await this.#posts?.post(kind, entry, postNonce(kind, entry.id));
    } catch (error) {
      if (attempts < POST_ATTEMPTS) {
        this.#logger.warn({ ...log, err: error }, 'could not post to Discord; retried after the lease');
        return;
      }
      this.#logger.error({ ...log, err: error }, 'gave up posting to Discord after every attempt');
      this.#onAbandoned(kind);
      await this.#done(entry.id, kind, log);
      return;
    }
    await this.#done(entry.id, kind, log);
  }

  async #done(auditId: number, kind: PostKind, log: object): Promise<void> {
    try {
      await this.#store.audit.postDone(auditId, kind);
    } catch (error) {
      // Still owed: the next take posts it again with the same nonce, which Discord dedupes.
      this.#logger.warn({ ...log, err: error }, 'could not mark a post done; a later take repeats it');
    }
  }
}
