import { TimestampStyles, time } from 'discord.js';
import type { DnsRecord } from '../hosting/dnsRecords.js';
import { figure, type Translator } from '../i18n/Translator.js';
import { actorMention } from '../replies/actorMention.js';
import { literal } from '../replies/literal.js';
import type { ChangePreview, PreviewField } from '../replies/ReplyBody.js';
import type { DnsSet } from '../store/index.js';
import type { RecordSetDiff } from './diffRecordSets.js';

/**
 * One record as the zone line it stands for, every part as sent; TXT text is quoted (with `"` and `\`
 * escaped) so spaces at its ends and quotes inside it show.
 */
export function recordLine(record: DnsRecord): string {
  const prio = record.prio === undefined ? '' : ` ${record.prio}`;
  const content = record.type === 'TXT' ? `"${record.content.replace(/["\\]/g, '\\$&')}"` : record.content;
  return `${record.name} ${record.ttl} ${record.type}${prio} ${content}`;
}

// Keeps the whole prompt well inside Discord's 6000-character embed budget; a field holds 1024.
const PREVIEW_BUDGET = 4500;
const FIELD_BUDGET = 1024;
const CODE_BLOCK_OVERHEAD = '```\n\n```'.length;
const RECORDS_FILE = 'records.txt';

/**
 * The records as code blocks, each line whole. What does not fit (or cannot sit in a code block)
 * is never cut silently: the prompt says how much is not shown and attaches every line in a file.
 */
export function recordPreview(
  records: readonly DnsRecord[],
  t: Translator,
): Pick<ChangePreview, 'fields' | 'files'> {
  const lines = records.map(recordLine);
  const preview: PreviewField[] = [];
  let block: string[] = [];
  let blockLength = CODE_BLOCK_OVERHEAD;
  let used = 0;
  const flush = () => {
    if (block.length === 0) return;
    preview.push({
      name: preview.length === 0 ? t('domain.dns.records_field', { count: records.length }) : '\u200b',
      value: `\`\`\`\n${block.join('\n')}\n\`\`\``,
    });
    block = [];
    blockLength = CODE_BLOCK_OVERHEAD;
  };
  let shown = 0;
  for (const line of lines) {
    const fits = line.length + CODE_BLOCK_OVERHEAD <= FIELD_BUDGET && used + line.length <= PREVIEW_BUDGET;
    if (!fits || line.includes('```')) break;
    if (blockLength + line.length + 1 > FIELD_BUDGET) flush();
    block.push(line);
    blockLength += line.length + 1;
    used += line.length + 1;
    shown++;
  }
  flush();
  if (shown === lines.length) return { fields: preview };
  const rest = lines.slice(shown);
  const characters = rest.reduce((sum, line) => sum + line.length, rest.length - 1);
  preview.push({
    name: shown === 0 ? t('domain.dns.records_field', { count: records.length }) : '\u200b',
    value: t('domain.dns.not_shown', {
      count: rest.length,
      characters: figure(characters),
      total: figure(records.length),
      file: literal(RECORDS_FILE),
    }),
  });
  return { fields: preview, files: [{ name: RECORDS_FILE, content: `${lines.join('\n')}\n` }] };
}

const DIFF_BUDGET = 900;
const CHANGES_FILE = 'changes.txt';

/** The set a new one is compared with, as the prompt names it (no records: those are in the diff). */
export interface EarlierSet {
  changeId: string;
  sentById: string;
  /** Absent in prompts opened before it was kept. */
  sentByName?: string;
  sentAt: string;
  outcome: DnsSet['outcome'];
}

/** `+ added`, `- removed`, and `~ old` / `→ new` for a changed record, every line whole. */
function diffLines(diff: RecordSetDiff): string[] {
  return [
    ...diff.added.map((record) => `+ ${recordLine(record)}`),
    ...diff.removed.map((record) => `- ${recordLine(record)}`),
    ...diff.changed.flatMap(({ from, to }) => [`~ ${recordLine(from)}`, `→ ${recordLine(to)}`]),
  ];
}

/**
 * What a DNS prompt says about the set it replaces: the last set sent through HostOps and the
 * difference to it, or plainly that none is known. Never cut silently: when the lines do not fit one
 * field, the field says so and `changes.txt` holds them all.
 */
export function diffPreview(
  earlier: { set: EarlierSet; diff: RecordSetDiff } | null,
  t: Translator,
): Pick<ChangePreview, 'fields' | 'files'> {
  const name = t('domain.dns.diff_field');
  if (earlier === null) return { fields: [{ name, value: t('domain.dns.diff_none') }] };
  const { set, diff } = earlier;
  const summary = t('domain.dns.diff_against', {
    who: actorMention(set.sentById, set.sentByName),
    when: time(new Date(set.sentAt), TimestampStyles.LongDateTime),
    outcome: t(set.outcome === 'done' ? 'domain.dns.outcome.done' : 'domain.dns.outcome.unknown'),
    added: figure(diff.added.length),
    removed: figure(diff.removed.length),
    changed: figure(diff.changed.length),
    unchanged: figure(diff.unchanged),
  });
  const lines = diffLines(diff);
  if (lines.length === 0) return { fields: [{ name, value: `${summary}\n${t('domain.dns.diff_same')}` }] };
  const block = `\`\`\`\n${lines.join('\n')}\n\`\`\``;
  const fits =
    block.length + summary.length + 1 <= DIFF_BUDGET && !lines.some((line) => line.includes('```'));
  if (fits) return { fields: [{ name, value: `${summary}\n${block}` }] };
  return {
    fields: [{ name, value: `${summary}\n${t('domain.dns.diff_in_file', { file: literal(CHANGES_FILE) })}` }],
    files: [{ name: CHANGES_FILE, content: `${lines.join('\n')}\n` }],
  };
}
