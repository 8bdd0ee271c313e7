import { AUDIT_OUTCOMES, type AuditOutcome } from '../../src/audit/outcomes.js';
import { customId } from '../../src/discord/customId.js';
import { AUDITED_COMMANDS, type AuditedCommand } from './auditedCommands.js';

// The custom id of /audit's paging buttons: the page's position and the whole search, so that any
// replica (or this one after a restart) can show the page without remembering anything.

const CUSTOM_ID_LIMIT = 100;
/** The longest `target` a search may have: with it the id of any page stays within Discord's 100. */
export const MAX_TARGET_LENGTH = 40;

/** One /audit search. `since` is fixed when the command runs, so paging shows a stable window. */
export interface AuditQuery {
  /** Entries at or after this instant, in whole epoch seconds. */
  since: number;
  userId?: string;
  command?: AuditedCommand;
  outcome?: AuditOutcome;
  /** Case-insensitive part of the target. */
  target?: string;
}

/** Where a page is: `offset` matches from the newest or from the oldest end of the search. */
export interface PagePosition {
  from: 'newest' | 'oldest';
  offset: number;
}

/** What a paging button holds: a position, or the jump to either end (**Newest**, **Oldest**). */
export type PageTarget = PagePosition | 'newest' | 'oldest';

/** The position's part of a page id: `<offset>` from the newest end, `o<offset>` from the oldest, `N`, `O`. */
function encodePosition(target: PageTarget | number): string {
  if (target === 'newest') return 'N';
  if (target === 'oldest') return 'O';
  const { from, offset } = typeof target === 'number' ? { from: 'newest', offset: target } : target;
  const text = from === 'oldest' ? `o${offset}` : String(offset);
  // PAGE_ARGS takes 8 characters at most, which keeps the whole id within 100 (see below).
  if (!Number.isSafeInteger(offset) || offset < 0 || text.length > 8) {
    throw new Error(`audit page position ${text}`);
  }
  return text;
}

/**
 * The position and the whole query, compactly: `<position>:<since>:<user|->:<command#|->:<outcome#|->:<target>`.
 * The jumps to either end are positions of their own (`N`, `O`), so their ids never equal Newer's or
 * Older's, which may lead to the same page (Discord refuses two equal ids in one message).
 */
export function encodePageId(query: AuditQuery, target: PageTarget | number): string {
  const index = (list: readonly string[], value: string | undefined) =>
    value === undefined ? '-' : String(list.indexOf(value));
  const id = customId(
    'audit',
    [
      encodePosition(target),
      String(query.since),
      query.userId ?? '-',
      index(AUDITED_COMMANDS, query.command),
      index(AUDIT_OUTCOMES, query.outcome),
      query.target ?? '',
    ].join(':'),
  );
  // parse() bounds every part so that this cannot happen; a longer id would make Discord refuse the answer.
  if (id.length > CUSTOM_ID_LIMIT) throw new Error(`audit page id of ${id.length} characters`);
  return id;
}

const PAGE_ARGS = /^(\d{1,8}|o\d{1,7}|N|O):(\d{1,11}):(-|\d{17,20}):(-|\d{1,2}):(-|\d):(.*)$/s;

/** The inverse of encodePageId, from what follows `hostops:audit:`; undefined for anything else. */
export function decodePageArgs(args: string): ({ query: AuditQuery } & PagePosition) | undefined {
  const match = PAGE_ARGS.exec(args);
  if (!match) return undefined;
  const [, at = '', since = '', userId = '-', command = '-', outcome = '-', target = ''] = match;
  const query: AuditQuery = { since: Number(since) };
  if (userId !== '-') query.userId = userId;
  if (command !== '-') {
    const path = AUDITED_COMMANDS[Number(command)];
    if (path === undefined) return undefined;
    query.command = path;
  }
  if (outcome !== '-') {
    const value = AUDIT_OUTCOMES[Number(outcome)];
    if (value === undefined) return undefined;
    query.outcome = value;
  }
  if (target !== '') {
    if (target.length > MAX_TARGET_LENGTH) return undefined;
    query.target = target;
  }
  if (at === 'N' || at === 'O') return { query, from: at === 'N' ? 'newest' : 'oldest', offset: 0 };
  if (at.startsWith('o')) return { query, from: 'oldest', offset: Number(at.slice(1)) };
  return { query, from: 'newest', offset: Number(at) };
}
