import type { AccessConfig } from '../config.js';
import type { Store } from '../store/index.js';
import { AccessPolicy } from './AccessPolicy.js';

/**
 * The grants compiled once per generation. Every decision reads the generation first (one primary-key
 * read): a revoke, which bumps it in the same transaction, is in force on every replica from the moment it
 * is committed — before its confirmation can show.
 */
export class GrantCache {
  #compiled: { generation: number; policy: AccessPolicy } | undefined;
  #loading: Promise<{ generation: number; policy: AccessPolicy }> | undefined;

  constructor(
    private readonly store: Pick<Store, 'grants'>,
    private readonly access: AccessConfig,
  ) {}

  /** The policy in force now. Throws when the store cannot say (the caller refuses, never guesses). */
  async policy(): Promise<AccessPolicy> {
    const generation = await this.store.grants.generation();
    const compiled = this.#compiled;
    if (compiled && compiled.generation >= generation) return compiled.policy;
    // Misses of one generation share a load; a load that read an older generation is not used.
    let loading = this.#loading;
    if (!loading) {
      loading = this.store.grants.load().then(({ generation: loaded, grants }) => {
        const next = { generation: loaded, policy: new AccessPolicy(grants, this.access) };
        if (!this.#compiled || this.#compiled.generation < loaded) this.#compiled = next;
        return next;
      });
      this.#loading = loading;
      void loading
        .finally(() => {
          if (this.#loading === loading) this.#loading = undefined;
        })
        .catch(() => {});
    }
    const loaded = await loading;
    return loaded.generation >= generation ? loaded.policy : this.policy();
  }
}
