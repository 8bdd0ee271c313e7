import { hostname } from 'node:os';
import type { Logger } from '../logger.js';
import type { ReplicaRecord, ReplicaRole, Store } from './Store.js';
import { StoreOpenError } from './StoreOpenError.js';

/** A replica that has not heartbeated for this long is gone: what it was sending ends `unknown`. */
export const LEASE_MS = 15_000;
const HEARTBEAT_MS = 5_000;

/**
 * This process's presence in the store: a heartbeat every few seconds, which is the lease behind
 * every change it sends. On SQLite it is also the guard that keeps HostOps to one process: a second
 * one finds a live heartbeat and refuses to start.
 */
export class Presence {
  readonly #timer: NodeJS.Timeout;

  private constructor(
    private readonly store: Store,
    readonly replicaId: string,
    private readonly role: ReplicaRole,
    private readonly startedAt: Date,
    private readonly logger: Logger,
  ) {
    this.#timer = setInterval(() => void this.beat(), HEARTBEAT_MS);
    this.#timer.unref();
  }

  /** Told after every heartbeat whether the store took it. */
  onHeartbeat: (ok: boolean) => void = () => {};

  static async start(
    store: Store,
    replicaId: string,
    logger: Logger,
    database: string,
    role: ReplicaRole = 'bot',
  ): Promise<Presence> {
    const now = new Date();
    if (store.engine === 'sqlite') {
      const other = (await store.replicas.live({ withinMs: LEASE_MS })).find(
        (replica) => replica.replicaId !== replicaId && !isEarlierSelf(replica),
      );
      if (other) {
        throw new StoreOpenError(
          `DATABASE_URL: the SQLite database at ${database} is in use by another HostOps process ` +
            `(${other.host}, pid ${other.pid}); replicas need PostgreSQL`,
        );
      }
    }
    const presence = new Presence(store, replicaId, role, now, logger);
    await store.replicas.heartbeat(presence.#row());
    return presence;
  }

  /**
   * Replica ids with a heartbeat inside the lease by the store's clock, and always this one: a process
   * that asks is alive, even when its own heartbeat was late (a store hiccup, a long pause), and must
   * never count the changes it is sending as orphans.
   */
  async live(): Promise<string[]> {
    const replicas = await this.store.replicas.live({ withinMs: LEASE_MS });
    return [...new Set([this.replicaId, ...replicas.map((replica) => replica.replicaId)])];
  }

  /**
   * Other bots inside their lease: who can take over Discord's interactions from this process while it
   * stops. A console session is alive (its sends hold a lease) but answers no interaction.
   */
  async peerBots(): Promise<string[]> {
    const replicas = await this.store.replicas.live({ withinMs: LEASE_MS });
    return replicas
      .filter((replica) => replica.role === 'bot' && replica.replicaId !== this.replicaId)
      .map((replica) => replica.replicaId);
  }

  async beat(): Promise<void> {
    try {
      await this.store.replicas.heartbeat(this.#row());
      this.onHeartbeat(true);
    } catch (error) {
      this.logger.warn({ err: error }, 'could not record the replica heartbeat');
      this.onHeartbeat(false);
    }
  }

  /** A clean stop: the lease ends now rather than after LEASE_MS. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.store.replicas.remove(this.replicaId).catch(() => {});
  }

  #row() {
    return {
      replicaId: this.replicaId,
      role: this.role,
      host: hostname(),
      pid: process.pid,
      startedAt: this.startedAt,
    };
  }
}

/**
 * A heartbeat left by this very host's previous run (killed, then restarted): the same host with our
 * own pid (a container's pid 1 again) or a pid that no longer runs.
 */
function isEarlierSelf(replica: ReplicaRecord): boolean {
  if (replica.host !== hostname()) return false;
  if (replica.pid === process.pid) return true;
  try {
    process.kill(replica.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
