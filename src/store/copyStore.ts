import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { openStore } from './openStore.js';
import { LEASE_MS } from './Presence.js';
import type { ChangeRecord, ChangeState, NewAuditEntry, Store } from './Store.js';
import { StoreOpenError } from './StoreOpenError.js';

/** Why a copy did not happen: one line, naming the flag it is about, never a password. */
export class CopyStoreError extends Error {
  override readonly name = 'CopyStoreError';
}

export interface CopyStoreOptions {
  /** The store to read, e.g. `sqlite:data/hostops.db` (it must exist; it is migrated like at start-up). */
  from: string;
  /** The store to fill, e.g. `postgres://…`; it must hold no change and no audit entry. */
  to: string;
  /** Rows read and written per batch. */
  batchSize?: number;
}

export interface CopySummary {
  changes: number;
  audit: number;
  /** Watched domains, and watch alerts already sent. */
  watched: number;
  alerts: number;
  /** DNS record sets sent (what /domain dns compares with and Revert goes back to). */
  dnsSets: number;
}

// A Record, so a new ChangeState fails to compile here instead of being left behind by the copy.
const STATES: Record<ChangeState, true> = {
  pending: true,
  awaiting_approval: true,
  sending: true,
  done: true,
  failed: true,
  unknown: true,
  cancelled: true,
  rejected: true,
  expired: true,
};
const ALL_STATES = Object.keys(STATES) as ChangeState[];

/**
 * `npm run migrate-store`: copies the change records, the audit trail, the domain watch (its list and the
 * alerts already sent) and the DNS record sets sent of one store into an empty other one (SQLite into
 * PostgreSQL), in one transaction on the target, through the Store API. Claims, job runs, replica
 * heartbeats, open forms and the published settings are transient (a running bot publishes its settings
 * again) and not copied. Refuses, copying nothing, while a HostOps
 * process is live on either store, and when the target already holds a change or an audit entry.
 *
 * Audit entries get new ids on the target; they are written oldest first in the order `/audit` lists
 * them (time, then id), so that order is the same on both sides.
 */
export async function copyStore(options: CopyStoreOptions): Promise<CopySummary> {
  const { from, to, batchSize = 1000 } = options;
  const missing = missingSqliteFile(from);
  // openStore would create an empty database there and the copy would "succeed" with nothing in it.
  if (missing) throw new CopyStoreError(`--from: no SQLite database at ${missing}`);

  const source = await open(from, '--from');
  try {
    await refuseLive(source, '--from');
    const target = await open(to, '--to');
    try {
      await refuseLive(target, '--to');
      const result = await target.importRows({
        changes: changeBatches(source, batchSize),
        audit: auditBatches(source, batchSize),
        watch: { domains: await source.watch.all(), alerts: await source.watch.alerts() },
        dnsSets: await source.dnsSets.all(),
      });
      if (!result.imported) {
        const { changes, audit } = result.existing;
        throw new CopyStoreError(
          `--to: the target store is not empty (${plural(changes, 'change')}, ${plural(audit, 'audit entry', 'audit entries')}); ` +
            'copy into a new, empty database. Nothing was copied.',
        );
      }
      const { changes, audit, watched, alerts, dnsSets } = result;
      return { changes, audit, watched, alerts, dnsSets };
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

function missingSqliteFile(url: string): string | undefined {
  if (!/^sqlite:/i.test(url)) return undefined;
  const rest = url.slice('sqlite:'.length);
  if (rest === ':memory:' || rest === '' || rest.startsWith('//')) return undefined; // openStore's to judge
  const path = resolve(process.cwd(), rest);
  return existsSync(path) ? undefined : path;
}

async function open(url: string, flag: string): Promise<Store> {
  try {
    return await openStore(url);
  } catch (error) {
    // Its one line names DATABASE_URL; here the URL came from a flag.
    if (error instanceof StoreOpenError)
      throw new CopyStoreError(error.message.replace(/^DATABASE_URL: /, `${flag}: `), { cause: error });
    throw error;
  }
}

async function refuseLive(store: Store, flag: string): Promise<void> {
  // By the store's clock, which stamped the heartbeats: this host's clock may be off from it.
  const live = await store.replicas.live({ withinMs: LEASE_MS });
  const first = live[0];
  if (first === undefined) return;
  throw new CopyStoreError(
    `${flag}: HostOps is running on this store (${first.host}, pid ${first.pid}${live.length > 1 ? `, and ${live.length - 1} more` : ''}); ` +
      `stop HostOps first (a process that was killed counts as stopped ${LEASE_MS / 1000} s after its last heartbeat). Nothing was copied.`,
  );
}

async function* changeBatches(source: Store, size: number): AsyncGenerator<ChangeRecord[]> {
  const changes = await source.changes.listByState(ALL_STATES);
  for (let start = 0; start < changes.length; start += size) yield changes.slice(start, start + size);
}

/**
 * Oldest first. `audit.query` pages newest first, so the pages are read from the last one back and each
 * is reversed. A source that changes meanwhile aborts the copy (and so rolls back the target).
 */
async function* auditBatches(source: Store, size: number): AsyncGenerator<NewAuditEntry[]> {
  const { total } = await source.audit.query({}, { limit: 1, offset: 0 });
  for (let end = total; end > 0; end -= size) {
    const offset = Math.max(0, end - size);
    const page = await source.audit.query({}, { limit: end - offset, offset });
    if (page.total !== total)
      throw new CopyStoreError('--from: the source store changed during the copy; stop HostOps first');
    yield page.rows.reverse().map(({ id: _id, ...entry }) => entry);
  }
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
