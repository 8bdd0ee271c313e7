import {
  ApplicationCommandOptionType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { ReadScope } from '../src/access/AccessPolicy.js';
import { readScopeOf } from '../src/access/readScopeOf.js';
import { auditCsv, auditCsvRows } from '../src/audit/auditCsv.js';
import { auditEntryVisible } from '../src/audit/auditScope.js';
import { AUDIT_OUTCOMES } from '../src/audit/outcomes.js';
import {
  AUDIT_PAGE_SIZE,
  type AuditFilterView,
  renderAuditPage,
  searchesWholeTarget,
} from '../src/audit/renderAudit.js';
import {
  type CommandContext,
  type ComponentHandler,
  type ContextOf,
  defineCommand,
  GUILD_ONLY,
  type ReadAnswer,
  read,
} from '../src/discord/CommandModule.js';
import { validated } from '../src/discord/options.js';
import { figure, message } from '../src/i18n/Translator.js';
import { type AuditData, auditEntryData } from '../src/replies/answerData.js';
import type { PreviewFile } from '../src/replies/ReplyBody.js';
import { InvalidOptionError, UserError } from '../src/replies/UserError.js';
import { type AuditFilter, type Store, TARGET_SUBSTRING_MIN } from '../src/store/index.js';
import { cutText } from '../src/text/cutText.js';
import { InvalidValueError } from '../src/validation/InvalidValueError.js';
import { AUDITED_COMMANDS } from './audit/auditedCommands.js';
import {
  type AuditQuery,
  decodePageArgs,
  encodePageId,
  MAX_TARGET_LENGTH,
  type PagePosition,
} from './audit/pageId.js';
import { scopedExport, scopedSearch } from './audit/scopedSearch.js';

export const DEFAULT_DAYS = 7;
export const MAX_DAYS = 3650;
/** Most rows one export holds; the answer says when there were more. */
export const EXPORT_CAP = 10_000;
/**
 * /audit counts matches up to this many and says "more than" past it: counting the half million
 * matches of a text in half a year's million entries took 0.2 s, and an export holds no more than
 * this. A deep page, the oldest included, is read from its own end, so no page needs the exact count.
 */
export const COUNT_CAP = EXPORT_CAP;
const EXPORT_CHUNK = 1_000;
export const EXPORT_FILE = 'hostops-audit.csv';
const DAY_SECONDS = 86_400;
const SNOWFLAKE = /^\d{17,20}$/;

export const definition = {
  name: 'audit',
  description: 'Search the audit trail: who ran which command, when, and how it ended',
  ...GUILD_ONLY,
  options: [
    {
      type: ApplicationCommandOptionType.User,
      name: 'user',
      description: 'Only entries of this member',
    },
    {
      type: ApplicationCommandOptionType.String,
      name: 'command',
      description: 'Only entries of this command',
      choices: AUDITED_COMMANDS.map((path) => ({ name: `/${path}`, value: path })),
    },
    {
      type: ApplicationCommandOptionType.String,
      name: 'target',
      description: `Only entries whose target contains this text; under ${TARGET_SUBSTRING_MIN} characters, the whole target`,
      max_length: MAX_TARGET_LENGTH,
    },
    {
      type: ApplicationCommandOptionType.Integer,
      name: 'days',
      description: `How many days back to look (default ${DEFAULT_DAYS})`,
      min_value: 1,
      max_value: MAX_DAYS,
    },
    {
      type: ApplicationCommandOptionType.String,
      name: 'outcome',
      description: 'Only entries with this outcome',
      choices: AUDIT_OUTCOMES.map((outcome) => ({ name: outcome, value: outcome })),
    },
    {
      type: ApplicationCommandOptionType.Boolean,
      name: 'export',
      description: `Attach every match (up to ${EXPORT_CAP.toLocaleString('en-US')}) as a CSV file`,
    },
  ],
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

interface AuditRequest {
  query: AuditQuery;
  days: number;
  export: boolean;
}

function storeFilter(query: AuditQuery): AuditFilter {
  const filter: AuditFilter = { since: new Date(query.since * 1000) };
  if (query.userId !== undefined) filter.userId = query.userId;
  if (query.command !== undefined) {
    const [command = '', subcommand = ''] = query.command.split(' ');
    filter.command = command;
    filter.subcommand = subcommand;
  }
  if (query.outcome !== undefined) filter.outcome = query.outcome;
  if (query.target !== undefined) {
    // No index finds text shorter than a trigram within targets; real targets that short (a music-bot
    // user `al`) are found whole.
    if (searchesWholeTarget(query.target)) filter.targetExact = query.target;
    else filter.target = query.target;
  }
  return filter;
}

function filterView(query: AuditQuery): AuditFilterView {
  const { since, ...rest } = query;
  return { since: new Date(since * 1000), ...rest };
}

function oneOf<T extends string>(option: string, raw: string | null, list: readonly T[]): T | undefined {
  if (raw === null) return undefined;
  if ((list as readonly string[]).includes(raw)) return raw as T;
  throw new InvalidOptionError(
    option,
    message('audit.invalid.not_a_choice', { value: raw }),
    message('audit.invalid.one_of', { choices: list.join(', ') }),
  );
}

function parseTarget(raw: string): string | undefined {
  const target = raw.trim();
  // UTF-16 units: what the paging button's custom id (at most 100 of them) has to hold.
  if (target.length > MAX_TARGET_LENGTH) {
    throw new InvalidValueError(
      message('audit.invalid.target_too_long', { length: figure(target.length) }),
      message('audit.invalid.target_expected', { max: figure(MAX_TARGET_LENGTH) }),
    );
  }
  return target === '' ? undefined : target;
}

function parseRequest({ interaction }: ContextOf<typeof definition, ''>): AuditRequest {
  const { options } = interaction;
  const query: AuditQuery = { since: 0 };
  // The member's id is all the filter needs: `value` holds it (a resolved `user` comes along with it).
  const user = options.get('user');
  if (user) {
    const id = user.user?.id ?? user.value;
    if (typeof id !== 'string' || !SNOWFLAKE.test(id)) {
      throw new InvalidOptionError(
        'user',
        message('audit.invalid.not_a_member', { value: String(id) }),
        message('audit.invalid.member_expected'),
      );
    }
    query.userId = id;
  }
  const command = oneOf('command', options.getString('command'), AUDITED_COMMANDS);
  if (command !== undefined) query.command = command;
  const rawTarget = options.getString('target');
  const target = rawTarget === null ? undefined : validated('target', rawTarget, parseTarget);
  if (target !== undefined) query.target = target;
  const outcome = oneOf('outcome', options.getString('outcome'), AUDIT_OUTCOMES);
  if (outcome !== undefined) query.outcome = outcome;
  // Its range (1 to MAX_DAYS) is the definition's, checked by the router before this runs.
  const days = options.getInteger('days') ?? DEFAULT_DAYS;
  // Audit entries carry real-world times (not the calendar tests may pin through `context.now`).
  query.since = Math.floor(Date.now() / 1000) - days * DAY_SECONDS;
  return { query, days, export: options.getBoolean('export') ?? false };
}

/** What the audit trail records as the target of an /audit search: the search itself (data: English). */
function describeRequest({ query, days, export: csv }: AuditRequest): string {
  const parts = [`${days}d`];
  if (query.userId !== undefined) parts.push(`user ${query.userId}`);
  if (query.command !== undefined) parts.push(`command ${query.command}`);
  if (query.outcome !== undefined) parts.push(`outcome ${query.outcome}`);
  if (query.target !== undefined) parts.push(`target ${query.target}`);
  if (csv) parts.push('export');
  return cutText(parts.join(', '), 200);
}

/**
 * The page at `position`, its matches counted up to COUNT_CAP. An id past the end (entries purged since
 * the button was drawn) shows the page at the end it went towards: never an empty page. A reader whose
 * grants cover less than everything sees, counts and pages only the entries inside (scopedSearch).
 */
async function page(store: Store, query: AuditQuery, position: PagePosition, scope: ReadScope) {
  const filter = storeFilter(query);
  const search = (at: PagePosition) =>
    scope.everything
      ? store.audit.search(filter, { limit: AUDIT_PAGE_SIZE, ...at, countUpTo: COUNT_CAP })
      : scopedSearch(store, filter, at, (entry) => auditEntryVisible(scope, entry), COUNT_CAP);
  let at = position;
  let result = await search(at);
  if (result.rows.length === 0 && at.offset > 0) {
    at = { from: at.from === 'newest' ? 'oldest' : 'newest', offset: 0 };
    result = await search(at);
  }
  return { ...result, ...at };
}

/** The page as the embed shows it, with the ids of its four buttons. */
function pageView(query: AuditQuery, result: Awaited<ReturnType<typeof page>>) {
  const { from, offset } = result;
  const step = (by: number): PagePosition => ({ from, offset: Math.max(0, offset + by) });
  const towardsOlder = from === 'newest' ? AUDIT_PAGE_SIZE : -AUDIT_PAGE_SIZE;
  return {
    filter: filterView(query),
    rows: result.rows,
    total: result.total,
    capped: result.capped,
    from,
    offset,
    more: result.more,
    newestId: encodePageId(query, 'newest'),
    newerId: encodePageId(query, step(-towardsOlder)),
    olderId: encodePageId(query, step(towardsOlder)),
    oldestId: encodePageId(query, 'oldest'),
  };
}

/**
 * Every match up to `cap` as CSV, newest first; `count` rows, `total` matches counted up to `cap`
 * (`capped`: more than that). Read in chunks,
 * each one after the last entry of the one before (entries written meanwhile are newer: they neither
 * shift a chunk nor come twice), and each chunk turned into CSV text at once, so at most one chunk of
 * entries is held: the whole export as entries was 10,000 objects and their cells on the heap.
 */
export async function exportCsv(
  store: Store,
  filter: AuditFilter,
  cap = EXPORT_CAP,
  chunk = EXPORT_CHUNK,
): Promise<{ csv: string; count: number; total: number; capped: boolean }> {
  const first = await store.audit.search(filter, {
    limit: Math.min(chunk, cap),
    offset: 0,
    from: 'newest',
    countUpTo: cap,
  });
  const parts = [auditCsv(first.rows)];
  let count = first.rows.length;
  let last = first.rows.at(-1);
  let read = first.rows.length;
  while (last !== undefined && read === chunk && count < cap) {
    const rows = await store.audit.rows(
      { ...filter, before: { at: last.at, id: last.id } },
      Math.min(chunk, cap - count),
    );
    parts.push(auditCsvRows(rows));
    count += rows.length;
    read = rows.length;
    last = rows.at(-1);
  }
  // Entries written since the count are newer than the first chunk: never in the export.
  return { csv: parts.join(''), count, total: Math.max(first.total, count), capped: first.capped };
}

async function answer(context: CommandContext, request: AuditRequest): Promise<ReadAnswer> {
  const { store, t } = context;
  const { query } = request;
  const scope = await readScopeOf(context);
  const result = await page(store, query, { from: 'newest', offset: 0 }, scope);
  let exportNote: string | undefined;
  const files: PreviewFile[] = [];
  const { since, userId, ...filter } = query;
  const data: AuditData = {
    filter: {
      since: new Date(since * 1000).toISOString(),
      ...(userId === undefined ? {} : { user: userId }),
      ...filter,
    },
    total: result.total,
    totalCapped: result.capped,
    offset: result.offset,
    entries: result.rows.map(auditEntryData),
  };
  if (request.export) {
    const all = scope.everything
      ? await exportCsv(store, storeFilter(query))
      : await scopedExport(store, storeFilter(query), (entry) => auditEntryVisible(scope, entry), EXPORT_CAP);
    files.push({ name: EXPORT_FILE, content: all.csv });
    const { count, total, capped } = all;
    data.export = { file: EXPORT_FILE, rows: count, total, totalCapped: capped };
    exportNote = capped
      ? t('audit.export.capped', { file: EXPORT_FILE, count: figure(count), total: figure(total) })
      : t('audit.export.all', { file: EXPORT_FILE, count });
  }
  const body = renderAuditPage(
    { ...pageView(query, result), ...(exportNote === undefined ? {} : { exportNote }) },
    t,
  );
  return files.length > 0 ? { ...body, files, data } : { ...body, data };
}

const paging: ComponentHandler = {
  tier: 'operator',
  update: async (context) => {
    const { store, args, t } = context;
    const decoded = decodePageArgs(args);
    if (!decoded) throw new UserError(message('audit.old_button'));
    const { query, from, offset } = decoded;
    // The presser's scope: a button draws the page of whoever presses it.
    const scope = await readScopeOf(context);
    return renderAuditPage(pageView(query, await page(store, query, { from, offset }, scope)), t);
  },
};

export const audit = defineCommand(definition, {
  subcommands: {
    '': read({
      tier: 'operator',
      ephemeral: true,
      parse: parseRequest,
      target: describeRequest,
      run: answer,
    }),
  },
  components: { audit: paging },
});
