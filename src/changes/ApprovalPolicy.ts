import type { Store } from '../store/index.js';

const SETTING = 'approval_required';

/**
 * Which changes need a second person (APPROVAL_REQUIRED), read alike by every face of HostOps: each bot
 * publishes its list to the store when it starts, and a change needs approval when the process's own
 * list or the published one names it. A console started with fewer variables therefore holds to the
 * bot's policy; it cannot be the way around it.
 */
export class ApprovalPolicy {
  readonly #store: Store;
  readonly #own: readonly string[];

  constructor(store: Store, own: readonly string[]) {
    this.#store = store;
    this.#own = own;
  }

  /** What a bot does at start: its list becomes the one every face reads. */
  static async publish(store: Store, own: readonly string[], now: Date): Promise<ApprovalPolicy> {
    await store.settings.put(SETTING, JSON.stringify(own), now);
    return new ApprovalPolicy(store, own);
  }

  /** Whether `/domain register` (say) needs a second person. Throws when the store cannot tell. */
  async requires(command: string): Promise<boolean> {
    if (this.#own.includes(command)) return true;
    const published = await this.#store.settings.get(SETTING);
    if (published === undefined) return false;
    const list: unknown = JSON.parse(published);
    return Array.isArray(list) && list.includes(command);
  }
}
