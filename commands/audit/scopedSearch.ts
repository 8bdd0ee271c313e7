import { auditCsv, auditCsvRows } from '../../src/audit/auditCsv.js';
import { AUDIT_PAGE_SIZE } from '../../src/audit/renderAudit.js';
import type { AuditEntry, AuditFilter, AuditSearchResult, Store } from '../../src/store/index.js';
import type { PagePosition } from './pageId.js';

// /audit for a reader whose grants cover less than everything: the store knows no patterns, so the
// matches are read newest first, a chunk at a time, and only the entries the reader may see
// (auditEntryVisible) are paged, counted and exported — never an entry outside, nor a count that tells of one.

/** Matches read per store query for a scoped reader. */
export const SCOPED_CHUNK = 1_000;

type Visible = (entry: AuditEntry) => boolean;

/** Every match of `filter`, newest first: each chunk `before` the last entry of the one before. */
async function* matches(store: Store, filter: AuditFilter, chunk: number): AsyncGenerator<AuditEntry[]> {
  let before = filter.before;
  for (;;) {
    const rows = await store.audit.rows(before ? { ...filter, before } : filter, chunk);
    if (rows.length > 0) yield rows;
    const last = rows.at(-1);
    if (!last || rows.length < chunk) return;
    before = { at: last.at, id: last.id };
  }
}

/**
 * The page at `position` among the visible matches, counted up to `countUpTo`. From the newest end the
 * read stops once the page and the capped count are known; from the oldest end it reads every match,
 * keeping only the oldest `offset + AUDIT_PAGE_SIZE` visible ones.
 */
export async function scopedSearch(
  store: Store,
  filter: AuditFilter,
  position: PagePosition,
  visible: Visible,
  countUpTo: number,
  chunk = SCOPED_CHUNK,
): Promise<AuditSearchResult> {
  const want = position.offset + AUDIT_PAGE_SIZE;
  const newest: AuditEntry[] = [];
  let oldest: AuditEntry[] = [];
  let count = 0;
  read: for await (const rows of matches(store, filter, chunk)) {
    for (const entry of rows) {
      if (!visible(entry)) continue;
      count++;
      if (position.from === 'newest') {
        if (newest.length < want) newest.push(entry);
        else if (count > countUpTo) break read;
      } else {
        oldest.push(entry);
        if (oldest.length > 2 * want) oldest = oldest.slice(-want);
      }
    }
  }
  const { offset } = position;
  let rows: AuditEntry[];
  if (position.from === 'newest') rows = newest.slice(offset, want);
  else {
    const kept = oldest.slice(-want);
    rows = kept.slice(Math.max(0, kept.length - want), Math.max(0, kept.length - offset));
  }
  return {
    rows,
    total: Math.min(count, countUpTo),
    capped: count > countUpTo,
    more: count > want,
  };
}

/** The visible matches as CSV, newest first, up to `cap` rows; `total` counted up to `cap`. */
export async function scopedExport(
  store: Store,
  filter: AuditFilter,
  visible: Visible,
  cap: number,
  chunk = SCOPED_CHUNK,
): Promise<{ csv: string; count: number; total: number; capped: boolean }> {
  const parts = [auditCsv([])];
  let count = 0;
  let capped = false;
  for await (const rows of matches(store, filter, chunk)) {
    const shown: AuditEntry[] = [];
    for (const entry of rows) {
      if (!visible(entry)) continue;
      if (count === cap) {
        capped = true;
        break;
      }
      shown.push(entry);
      count++;
    }
    parts.push(auditCsvRows(shown));
    if (capped) break;
  }
  return { csv: parts.join(''), count, total: count, capped };
}
