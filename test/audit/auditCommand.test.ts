import { describe, expect, it } from 'vitest';
import { AUDITED_COMMANDS } from '../../commands/audit/auditedCommands.js';
import { type AuditQuery, decodePageArgs, encodePageId } from '../../commands/audit/pageId.js';
import { COUNT_CAP, definition, EXPORT_CAP, exportCsv } from '../../commands/audit.js';
import { commands } from '../../commands/index.js';
import { auditLine } from '../../src/audit/channelPosts.js';
import { AUDIT_OUTCOMES } from '../../src/audit/outcomes.js';
import { AUDIT_PAGE_SIZE, renderAuditLine, renderAuditPage } from '../../src/audit/renderAudit.js';
import { figure, translator } from '../../src/i18n/Translator.js';
import type { AuditEntry, AuditFilter, AuditSearch, Store } from '../../src/store/index.js';
import { outsideCode } from '../support/e2eHelpers.js';

const NOW_SEC = 1_795_000_000;
const en = translator('en');
const de = translator('de');

function entry(id: number, overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id,
    at: new Date((NOW_SEC - id) * 1000),
    userId: '100000000000000001',
    userName: 'alice',
    guildId: '300000000000000001',
    channelId: '400000000000000001',
    command: 'domain',
    subcommand: 'info',
    target: 'example.org',
    outcome: 'ok',
    detail: null,
    correlationId: 'a1b2c3d4e5',
    durationMs: 12,
    parameters: null,
    changeId: null,
    actedById: null,
    actedByName: null,
    ...overrides,
  };
}

describe('/audit definition', () => {
  it('offers exactly the command paths of commands/index.ts', () => {
    const paths = commands.flatMap((module) =>
      Object.keys(module.subcommands).map((sub) => `${module.definition.name}${sub ? ` ${sub}` : ''}`),
    );
    expect([...AUDITED_COMMANDS]).toEqual(paths);
    const command = definition.options.find((o) => o.name === 'command');
    expect(command?.choices?.map((c) => c.value)).toEqual(paths);
  });

  it('offers every outcome the audit trail writes', () => {
    expect([...AUDIT_OUTCOMES]).toEqual([
      'ok',
      'refused',
      'invalid',
      'failed',
      'cancelled',
      'expired',
      'done',
      'unknown',
      'rejected',
    ]);
    const outcome = definition.options.find((o) => o.name === 'outcome');
    expect(outcome?.choices?.map((c) => c.value)).toEqual([...AUDIT_OUTCOMES]);
  });

  it('has top-level options only, none required, with the issue’s limits', () => {
    expect(definition.options.map((o) => [o.name, o.type])).toEqual([
      ['user', 6],
      ['command', 3],
      ['target', 3],
      ['days', 4],
      ['outcome', 3],
      ['export', 5],
    ]);
    expect(definition.options.some((o) => 'required' in o)).toBe(false);
    const days = definition.options.find((o) => o.name === 'days');
    expect(days).toMatchObject({ min_value: 1, max_value: 3650 });
    expect(definition.options.find((o) => o.name === 'target')).toMatchObject({ max_length: 40 });
  });

  it('counts as far as an export goes, one constant', () => {
    expect(COUNT_CAP).toBe(EXPORT_CAP);
    expect(definition.options.find((o) => o.name === 'export')?.description).toContain('10,000');
  });
});

describe('paging custom ids', () => {
  const full: AuditQuery = {
    since: NOW_SEC - 3650 * 86_400,
    userId: '12345678901234567890',
    command: 'musicbot create',
    outcome: 'cancelled',
    target: `${'x'.repeat(20)}:with:colons:${'y'.repeat(7)}`,
  };

  const args = (id: string) => id.slice('hostops:audit:'.length);

  it('round-trips the whole query and the offset, the target last (it may hold colons)', () => {
    const id = encodePageId(full, 120);
    expect(id.startsWith('hostops:audit:120:')).toBe(true);
    expect(decodePageArgs(args(id))).toEqual({ query: full, from: 'newest', offset: 120 });
    const bare: AuditQuery = { since: NOW_SEC };
    expect(encodePageId(bare, 0)).toBe(`hostops:audit:0:${NOW_SEC}:-:-:-:`);
    expect(decodePageArgs(`0:${NOW_SEC}:-:-:-:`)).toEqual({ query: bare, from: 'newest', offset: 0 });
  });

  it('holds a position from either end, and the jumps to either end as positions of their own', () => {
    const bare: AuditQuery = { since: NOW_SEC };
    const ids = [
      encodePageId(bare, { from: 'newest', offset: 0 }),
      encodePageId(bare, { from: 'oldest', offset: 0 }),
      encodePageId(bare, { from: 'oldest', offset: 30 }),
      encodePageId(bare, 'newest'),
      encodePageId(bare, 'oldest'),
    ];
    expect(ids.map((id) => args(id).split(':')[0])).toEqual(['0', 'o0', 'o30', 'N', 'O']);
    expect(ids.map((id) => decodePageArgs(args(id)))).toEqual([
      { query: bare, from: 'newest', offset: 0 },
      { query: bare, from: 'oldest', offset: 0 },
      { query: bare, from: 'oldest', offset: 30 },
      { query: bare, from: 'newest', offset: 0 },
      { query: bare, from: 'oldest', offset: 0 },
    ]);
    // Newest and Newer may lead to the same page, but their ids differ (Discord refuses two equal ids).
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('stays within Discord’s 100 characters at the worst case', () => {
    // A two-digit command index, a member, an outcome, the longest target and the longest positions.
    const worst = { ...full, command: 'watch check' as const, target: 'z'.repeat(40) };
    expect(encodePageId(worst, 99_999_999).length).toBeLessThanOrEqual(100);
    expect(encodePageId(worst, { from: 'oldest', offset: 9_999_999 }).length).toBeLessThanOrEqual(100);
    expect(() => encodePageId(worst, 100_000_000)).toThrow(/position/);
    expect(() => encodePageId(worst, { from: 'oldest', offset: 10_000_000 })).toThrow(/position/);
  });

  it.each([
    ['garbage', 'nonsense'],
    ['an unknown command index', `0:${NOW_SEC}:-:99:-:`],
    ['an unknown outcome index', `0:${NOW_SEC}:-:-:9:`],
    ['a user id that is no snowflake', `0:${NOW_SEC}:abc:-:-:`],
    ['a target too long', `0:${NOW_SEC}:-:-:-:${'t'.repeat(41)}`],
    ['an offset too long', `123456789:${NOW_SEC}:-:-:-:`],
    ['an offset from the oldest too long', `o12345678:${NOW_SEC}:-:-:-:`],
    ['another position', `X:${NOW_SEC}:-:-:-:`],
  ])('refuses %s', (_, args) => {
    expect(decodePageArgs(args)).toBeUndefined();
  });
});

describe('renderAuditPage', () => {
  const filter = { since: new Date(NOW_SEC * 1000) };
  const ids = {
    newestId: 'hostops:audit:newest',
    newerId: 'hostops:audit:newer',
    olderId: 'hostops:audit:older',
    oldestId: 'hostops:audit:oldest',
  };
  /** A page counted from the newest end, with its count exact. */
  const at = (offset: number, total: number, rows: number) => ({
    total,
    capped: false,
    from: 'newest' as const,
    offset,
    more: offset + rows < total,
  });
  const disabled = (body: ReturnType<typeof renderAuditPage>) =>
    body.components?.[0]?.components.map((b) => ('disabled' in b ? b.disabled : undefined));

  it('shows the filter, ten lines and "Matches X–Y of N", with Newer disabled on the first page', () => {
    const rows = Array.from({ length: AUDIT_PAGE_SIZE }, (_, i) => entry(i + 1));
    const body = renderAuditPage({ filter, rows, ...at(0, 25, 10), ...ids }, en);
    const [embed] = body.embeds ?? [];
    expect(embed?.title).toBe('Audit trail');
    expect(embed?.description?.split('\n').filter((l) => l.startsWith('<t:'))).toHaveLength(10);
    expect(embed?.footer?.text).toBe('Matches 1–10 of 25');
    const buttons = body.components?.[0]?.components ?? [];
    expect(buttons.map((b) => ('label' in b ? b.label : undefined))).toEqual([
      '⏮ Newest',
      '◀ Newer',
      'Older ▶',
      'Oldest ⏭',
    ]);
    expect(disabled(body)).toEqual([true, true, false, false]);
    const last = renderAuditPage({ filter, rows: rows.slice(0, 5), ...at(20, 25, 5), ...ids }, en);
    expect(last.embeds?.[0]?.footer?.text).toBe('Matches 21–25 of 25');
    expect(disabled(last)).toEqual([false, false, true, true]);
  });

  it('numbers a page from the oldest end from the newest while the count is exact', () => {
    const rows = Array.from({ length: AUDIT_PAGE_SIZE }, (_, i) => entry(i + 1));
    const oldest = { total: 25, capped: false, from: 'oldest' as const };
    const page = renderAuditPage({ filter, rows, ...oldest, offset: 0, more: true, ...ids }, en);
    expect(page.embeds?.[0]?.footer?.text).toBe('Matches 16–25 of 25');
    // From the oldest end: Older and Oldest lead nowhere, Newer and Newest onwards.
    expect(disabled(page)).toEqual([false, false, true, true]);
    const newest = renderAuditPage(
      { filter, rows: rows.slice(0, 5), ...oldest, offset: 20, more: false, ...ids },
      en,
    );
    expect(newest.embeds?.[0]?.footer?.text).toBe('Matches 1–5 of 25');
    expect(disabled(newest)).toEqual([true, true, false, false]);
  });

  it('says "more than" past the count’s cap, numbering each page from its own end', () => {
    const rows = Array.from({ length: AUDIT_PAGE_SIZE }, (_, i) => entry(i + 1));
    const capped = { rows, total: 10_000, capped: true, ...ids };
    const first = renderAuditPage({ filter, ...capped, from: 'newest', offset: 0, more: true }, en);
    expect(first.embeds?.[0]?.footer?.text).toBe('Matches 1–10 of more than 10,000');
    expect(disabled(first)).toEqual([true, true, false, false]);
    const deep = renderAuditPage({ filter, ...capped, from: 'newest', offset: 12_340, more: true }, en);
    expect(deep.embeds?.[0]?.footer?.text).toBe('Matches 12,341–12,350 of more than 10,000');
    const oldest = renderAuditPage({ filter, ...capped, from: 'oldest', offset: 0, more: true }, en);
    expect(oldest.embeds?.[0]?.footer?.text).toBe(
      'The oldest matches, 1–10 counted from the oldest, of more than 10,000',
    );
    expect(disabled(oldest)).toEqual([false, false, true, true]);
    const german = renderAuditPage({ filter, ...capped, from: 'oldest', offset: 10, more: true }, de);
    expect(german.embeds?.[0]?.footer?.text).toBe(
      'Die ältesten Treffer, 11–20 vom ältesten an gezählt, von mehr als 10.000',
    );
    expect(
      renderAuditPage({ filter, ...capped, from: 'newest', offset: 0, more: true }, de).embeds?.[0]?.footer
        ?.text,
    ).toBe('Treffer 1–10 von mehr als 10.000');
  });

  it('shows a target shorter than three characters as a whole target, and says why on no match', () => {
    const rows = [entry(1, { target: 'al' })];
    const whole = renderAuditPage({ filter: { ...filter, target: 'al' }, rows, ...at(0, 1, 1), ...ids }, en);
    expect(whole.embeds?.[0]?.description).toMatch(/^Entries since <t:\d+:f>, target exactly `al`:/);
    const none = renderAuditPage(
      { filter: { ...filter, target: '42' }, rows: [], ...at(0, 0, 0), ...ids },
      en,
    );
    expect(none.embeds?.[0]?.description).toContain('target exactly `42`.');
    expect(none.embeds?.[0]?.description).toContain(
      'A target shorter than 3 characters matches only whole targets',
    );
    const german = renderAuditPage(
      { filter: { ...filter, target: '42' }, rows: [], ...at(0, 0, 0), ...ids },
      de,
    );
    expect(german.embeds?.[0]?.description).toContain('Ziel genau `42`.');
    expect(german.embeds?.[0]?.description).toContain('Ein Ziel mit weniger als 3 Zeichen');
    // Three characters search within targets, and say so.
    const part = renderAuditPage({ filter: { ...filter, target: 'abc' }, rows, ...at(0, 1, 1), ...ids }, en);
    expect(part.embeds?.[0]?.description).toContain('target containing `abc`');
  });

  it('says clearly when nothing matches, without buttons', () => {
    const body = renderAuditPage(
      {
        filter: { ...filter, outcome: 'expired', target: 'nothing' },
        rows: [],
        ...at(0, 0, 0),
        ...ids,
      },
      en,
    );
    expect(body.embeds?.[0]?.description).toMatch(
      /^No audit entries match: since <t:\d+:f>, outcome expired/,
    );
    expect(body.components).toEqual([]);
  });

  it('keeps ten worst-case lines within Discord’s embed limits', () => {
    const long = `${'`*_~|@everyone <@1> '.repeat(40)}\n`;
    const rows = Array.from({ length: AUDIT_PAGE_SIZE }, (_, i) =>
      entry(i + 1, {
        userName: long,
        target: long,
        detail: long,
        outcome: long,
        command: 'x'.repeat(100),
        subcommand: 'y'.repeat(100),
        correlationId: long,
      }),
    );
    const body = renderAuditPage(
      {
        filter: { ...filter, userId: '12345678901234567890', command: 'domain register', target: long },
        rows,
        ...at(9_999_990, 10_000_000, 10),
        exportNote: 'n'.repeat(200),
        ...ids,
      },
      en,
    );
    const [embed] = body.embeds ?? [];
    const description = embed?.description ?? '';
    expect(description.length).toBeLessThanOrEqual(4096);
    // Nothing was cut off the end: every line and the note are there.
    expect(description.split('\n').filter((l) => l.startsWith('<t:'))).toHaveLength(10);
    expect(description.endsWith('n'.repeat(200))).toBe(true);
    expect((embed?.title?.length ?? 0) + description.length + (embed?.footer?.text.length ?? 0)).toBeLessThan(
      6000,
    );
  });

  it('leaves no mention intact outside code spans', () => {
    const text = '@everyone <@1> <@&2> **x**';
    const rows = [entry(1, { userName: text, target: text, detail: text, outcome: text })];
    const body = renderAuditPage(
      {
        filter: { ...filter, target: text },
        rows,
        ...at(0, 1, 1),
        ...ids,
      },
      en,
    );
    const shown = outsideCode(body.embeds?.[0]?.description ?? '');
    expect(shown).not.toMatch(/@everyone|<@1>|<@&2>/);
    expect(shown).toContain('@\u200beveryone');
  });

  it('speaks German: title, filter, footer, buttons, and the empty answer', () => {
    const rows = Array.from({ length: AUDIT_PAGE_SIZE }, (_, i) => entry(i + 1));
    const body = renderAuditPage(
      {
        filter: { ...filter, userId: '100000000000000001', command: 'domain info', target: 'xyz' },
        rows,
        ...at(0, 12_345, 10),
        exportNote: 'note',
        ...ids,
      },
      de,
    );
    const [embed] = body.embeds ?? [];
    expect(embed?.title).toBe('Audit-Protokoll');
    expect(embed?.description).toMatch(
      /^Einträge seit <t:\d+:f>, von <@100000000000000001>, Befehl `\/domain info`, Ziel enthält `xyz`:\n\n/,
    );
    expect(embed?.footer?.text).toBe('Treffer 1–10 von 12.345');
    const buttons = body.components?.[0]?.components ?? [];
    expect(buttons.map((b) => ('label' in b ? b.label : undefined))).toEqual([
      '⏮ Neueste',
      '◀ Neuer',
      'Älter ▶',
      'Älteste ⏭',
    ]);
    const empty = renderAuditPage(
      { filter: { ...filter, outcome: 'expired' }, rows: [], ...at(0, 0, 0), ...ids },
      de,
    );
    expect(empty.embeds?.[0]?.description).toMatch(
      /^Keine Einträge im Audit-Protokoll passen: seit <t:\d+:f>, Ergebnis expired\.$/,
    );
  });

  it('shows time, outcome, command, escaped target, user, correlation id and detail on one line', () => {
    const line = renderAuditLine(
      entry(1, {
        outcome: 'refused',
        command: 'server',
        subcommand: 'rdns',
        target: 'server 42 *bold*',
        userName: 'bob_the_op',
        detail: 'tier',
        correlationId: 'ffee001122',
      }),
    );
    expect(line).toBe(
      `<t:${NOW_SEC - 1}:f> ⛔ **refused** · \`/server rdns\` · server 42 \\*bold\\* · <@100000000000000001> (bob\\_the\\_op) · \`ffee001122\` · tier`,
    );
  });
});

describe('the export note', () => {
  it('counts matches with plurals and grouped numbers in either language', () => {
    const file = 'hostops-audit.csv';
    expect(en('audit.export.all', { file, count: 1 })).toBe('📎 `hostops-audit.csv` holds all 1 match.');
    expect(en('audit.export.all', { file, count: 2 })).toBe('📎 `hostops-audit.csv` holds all 2 matches.');
    expect(de('audit.export.all', { file, count: 1 })).toBe('📎 `hostops-audit.csv` enthält 1 Treffer.');
    expect(en('audit.export.capped', { file, count: figure(10_000), total: figure(10_000) })).toContain(
      'holds the first 10,000 (the newest) of more than 10,000 matches',
    );
    expect(de('audit.export.capped', { file, count: figure(10_000), total: figure(10_000) })).toContain(
      'enthält die ersten 10.000 (die neuesten) von mehr als 10.000 Treffern',
    );
  });
});

describe('the audit channel line (BOT_LOCALE)', () => {
  const event = {
    ...entry(1, { outcome: 'done', command: 'domain', subcommand: 'register', detail: null }),
    changing: true,
    correlationId: 'ffee001122',
  };

  it('reads as before in English', () => {
    expect(auditLine(event, en)).toBe(
      '✅ **done** · `/domain register` · example.org · by <@100000000000000001> (alice) · ref `ffee001122`',
    );
  });

  it('speaks German, keeping the stored outcome', () => {
    expect(auditLine({ ...event, outcome: 'refused', detail: 'tier' }, de)).toBe(
      '⛔ **refused** (tier) · `/domain register` · example.org · von <@100000000000000001> (alice) · Ref. `ffee001122`',
    );
  });
});

describe('exportCsv', () => {
  /** A store over `rows` (newest first), as the real one pages and chunks them. */
  function fakeStore(rows: AuditEntry[], calls: string[] = [], onRead?: () => void): Store {
    const olderThan = (filter: AuditFilter) =>
      rows.filter(
        (row) =>
          filter.before === undefined ||
          row.at < filter.before.at ||
          (row.at.getTime() === filter.before.at.getTime() && row.id < filter.before.id),
      );
    return {
      audit: {
        search: async (filter: AuditFilter, page: AuditSearch) => {
          calls.push(`search ${page.offset}+${page.limit} up to ${page.countUpTo}`);
          const matches = olderThan(filter);
          onRead?.();
          const capped = matches.length > page.countUpTo;
          return {
            rows: matches.slice(page.offset, page.offset + page.limit),
            total: capped ? page.countUpTo : matches.length,
            capped,
            more: matches.length > page.offset + page.limit,
          };
        },
        rows: async (filter: AuditFilter, limit: number) => {
          calls.push(`rows ${filter.before?.id}+${limit}`);
          const matches = olderThan(filter).slice(0, limit);
          onRead?.();
          return matches;
        },
      },
    } as unknown as Store;
  }
  const idsOf = (csv: string) =>
    csv
      .split('\r\n')
      .slice(1, -1)
      .map((line) => line.split(',')[10]);

  it('writes every match as CSV, chunk after chunk, counting once', async () => {
    const rows = Array.from({ length: 2_500 }, (_, i) => entry(i + 1, { correlationId: `c${i + 1}` }));
    const calls: string[] = [];
    const result = await exportCsv(fakeStore(rows, calls), {});
    expect(idsOf(result.csv)).toEqual(rows.map((r) => r.correlationId));
    expect(result.csv.startsWith('at,user_id,')).toBe(true);
    expect([result.count, result.total, result.capped]).toEqual([2_500, 2_500, false]);
    // Each chunk starts after the last entry of the one before.
    expect(calls).toEqual(['search 0+1000 up to 10000', 'rows 1000+1000', 'rows 2000+1000']);
  });

  it('stops at the cap and says there are more, counting no further', async () => {
    const rows = Array.from({ length: 10_250 }, (_, i) => entry(i + 1));
    const calls: string[] = [];
    const result = await exportCsv(fakeStore(rows, calls), {});
    expect([result.count, result.total, result.capped]).toEqual([10_000, 10_000, true]);
    // Exactly as many as the cap: all of them, no "more than".
    const exact = await exportCsv(fakeStore(rows.slice(0, 10_000)), {});
    expect([exact.count, exact.total, exact.capped]).toEqual([10_000, 10_000, false]);
    expect(idsOf(result.csv)).toHaveLength(10_000);
    expect(calls).toHaveLength(10);
  });

  it('keeps each entry once, and none is left out, when new entries arrive meanwhile', async () => {
    const rows = Array.from({ length: 15 }, (_, i) => entry(i + 100, { correlationId: `c${i + 100}` }));
    const expected = rows.map((r) => r.correlationId);
    let reads = 0;
    // A new entry lands (newest first) after the first chunk was read.
    const store = fakeStore(rows, [], () => {
      if (reads++ === 0) rows.unshift(entry(1, { correlationId: 'new' }));
    });
    const result = await exportCsv(store, {}, 100, 10);
    expect(idsOf(result.csv)).toEqual(expected);
  });
});
