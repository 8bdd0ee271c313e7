import { describe, expect, it } from 'vitest';
import {
  AUDITED_COMMANDS,
  type AuditQuery,
  decodePageArgs,
  definition,
  encodePageId,
  exportCsv,
} from '../../commands/audit.js';
import { commands } from '../../commands/index.js';
import { auditLine } from '../../src/audit/announce.js';
import { AUDIT_OUTCOMES } from '../../src/audit/outcomes.js';
import { AUDIT_PAGE_SIZE, renderAuditLine, renderAuditPage } from '../../src/audit/renderAudit.js';
import { translator } from '../../src/i18n/Translator.js';
import type { AuditEntry, AuditFilter, Page, Store } from '../../src/store/index.js';
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
});

describe('paging custom ids', () => {
  const full: AuditQuery = {
    since: NOW_SEC - 3650 * 86_400,
    userId: '12345678901234567890',
    command: 'musicbot create',
    outcome: 'cancelled',
    target: `${'x'.repeat(20)}:with:colons:${'y'.repeat(7)}`,
  };

  it('round-trips the whole query and the offset, the target last (it may hold colons)', () => {
    const id = encodePageId(full, 120);
    expect(id.startsWith('hostops:audit:120:')).toBe(true);
    expect(decodePageArgs(id.slice('hostops:audit:'.length))).toEqual({ query: full, offset: 120 });
    const bare: AuditQuery = { since: NOW_SEC };
    expect(encodePageId(bare, 0)).toBe(`hostops:audit:0:${NOW_SEC}:-:-:-:`);
    expect(decodePageArgs(`0:${NOW_SEC}:-:-:-:`)).toEqual({ query: bare, offset: 0 });
  });

  it('stays within Discord’s 100 characters at the worst case', () => {
    const worst = { ...full, target: 'z'.repeat(40) };
    expect(encodePageId(worst, 999_999_999).length).toBeLessThanOrEqual(100);
  });

  it.each([
    ['garbage', 'nonsense'],
    ['an unknown command index', `0:${NOW_SEC}:-:99:-:`],
    ['an unknown outcome index', `0:${NOW_SEC}:-:-:9:`],
    ['a user id that is no snowflake', `0:${NOW_SEC}:abc:-:-:`],
    ['a target too long', `0:${NOW_SEC}:-:-:-:${'t'.repeat(41)}`],
  ])('refuses %s', (_, args) => {
    expect(decodePageArgs(args)).toBeUndefined();
  });
});

describe('renderAuditPage', () => {
  const filter = { since: new Date(NOW_SEC * 1000) };
  const ids = { newerId: 'hostops:audit:newer', olderId: 'hostops:audit:older' };

  it('shows the filter, ten lines and "Matches X–Y of N", with Newer disabled on the first page', () => {
    const rows = Array.from({ length: AUDIT_PAGE_SIZE }, (_, i) => entry(i + 1));
    const body = renderAuditPage({ filter, rows, total: 25, offset: 0, ...ids }, en);
    const [embed] = body.embeds ?? [];
    expect(embed?.title).toBe('Audit trail');
    expect(embed?.description?.split('\n').filter((l) => l.startsWith('<t:'))).toHaveLength(10);
    expect(embed?.footer?.text).toBe('Matches 1–10 of 25');
    const buttons = body.components?.[0]?.components ?? [];
    expect(buttons.map((b) => ('disabled' in b ? b.disabled : undefined))).toEqual([true, false]);
    const last = renderAuditPage({ filter, rows: rows.slice(0, 5), total: 25, offset: 20, ...ids }, en);
    expect(last.embeds?.[0]?.footer?.text).toBe('Matches 21–25 of 25');
    expect(last.components?.[0]?.components.map((b) => ('disabled' in b ? b.disabled : undefined))).toEqual([
      false,
      true,
    ]);
  });

  it('says clearly when nothing matches, without buttons', () => {
    const body = renderAuditPage(
      {
        filter: { ...filter, outcome: 'expired', target: 'nothing' },
        rows: [],
        total: 0,
        offset: 0,
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
        total: 10_000_000,
        offset: 9_999_990,
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
        total: 1,
        offset: 0,
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
        filter: { ...filter, userId: '100000000000000001', command: 'domain info', target: 'x' },
        rows,
        total: 12_345,
        offset: 0,
        exportNote: 'note',
        ...ids,
      },
      de,
    );
    const [embed] = body.embeds ?? [];
    expect(embed?.title).toBe('Audit-Protokoll');
    expect(embed?.description).toMatch(
      /^Einträge seit <t:\d+:f>, von <@100000000000000001>, Befehl `\/domain info`, Ziel enthält `x`:\n\n/,
    );
    expect(embed?.footer?.text).toBe('Treffer 1–10 von 12.345');
    const buttons = body.components?.[0]?.components ?? [];
    expect(buttons.map((b) => ('label' in b ? b.label : undefined))).toEqual(['◀ Neuer', 'Älter ▶']);
    const empty = renderAuditPage(
      { filter: { ...filter, outcome: 'expired' }, rows: [], total: 0, offset: 0, ...ids },
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
    expect(en('audit.export.capped', { file, count: 10_000, total: 10_003 })).toContain(
      'is capped at 10,000 of 10,003 matches',
    );
    expect(de('audit.export.capped', { file, count: 10_000, total: 10_003 })).toContain(
      'ist auf 10.000 von 10.003 Treffern begrenzt',
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
        query: async (filter: AuditFilter, page: Page) => {
          calls.push(`query ${page.offset}+${page.limit}`);
          const matches = olderThan(filter);
          onRead?.();
          return { rows: matches.slice(page.offset, page.offset + page.limit), total: matches.length };
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
    expect([result.count, result.total]).toEqual([2_500, 2_500]);
    // Each chunk starts after the last entry of the one before.
    expect(calls).toEqual(['query 0+1000', 'rows 1000+1000', 'rows 2000+1000']);
  });

  it('stops at the cap and reports the full total', async () => {
    const rows = Array.from({ length: 10_250 }, (_, i) => entry(i + 1));
    const calls: string[] = [];
    const result = await exportCsv(fakeStore(rows, calls), {});
    expect([result.count, result.total]).toEqual([10_000, 10_250]);
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
