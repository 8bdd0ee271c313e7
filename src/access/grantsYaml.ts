// The grants as a YAML file (/access export and import), so a team can keep them in git and review them
// there. One format both ways: what an export writes, an import reads back to "no difference".
import { z } from 'zod';
import { figure, type Message, message } from '../i18n/Translator.js';
import { InvalidOptionError } from '../replies/UserError.js';
import type { Grant, GrantSubject } from '../store/index.js';
import { InvalidValueError } from '../validation/InvalidValueError.js';
import { quoteInput } from '../validation/quote.js';
import { parsePatterns, parseWhat } from './grantInput.js';

/** The largest file an import reads, and the most grants it may hold. */
export const MAX_GRANTS_FILE_BYTES = 262_144;
export const MAX_IMPORT_GRANTS = 2_000;
export const GRANTS_FILE = 'hostops-grants.yaml';
/** Aliases a file may use: YAML's anchors could otherwise blow a small file up to gigabytes. */
const MAX_ALIASES = 100;
const GRANT_ID = /^g[0-9a-f]{8}$/;
const SUBJECT = /^(role|user):(\d{17,20})$/;

/** A grant as the file holds it; `id` is optional (an import gives a new grant one). */
export interface FileGrant {
  id?: string;
  subject: GrantSubject;
  what: string[];
  patterns: string[];
  /** ISO; null: until revoked. */
  until: string | null;
}

const text = z.string().max(1_000);
const list = z.union([text, z.array(text).max(100)]);
const fileSchema = z.strictObject({
  version: z.literal(1).optional(),
  grants: z
    .array(
      z.strictObject({
        id: text.optional(),
        who: text,
        what: list,
        on: list,
        until: z.union([text, z.date()]).nullable().optional(),
      }),
    )
    .max(MAX_IMPORT_GRANTS)
    .nullable(),
});

/** The file's expected shape, as errors name it. */
export const GRANTS_FILE_EXPECTED = message('grantsFile.expected', {
  max: figure(MAX_IMPORT_GRANTS),
  kb: figure(MAX_GRANTS_FILE_BYTES / 1024),
});

function invalid(problem: Message): InvalidOptionError {
  return new InvalidOptionError('file', problem, GRANTS_FILE_EXPECTED);
}

const HEADER = [
  '# HostOps grants. /access import applies a file like this one: the grants it lists are in force, the',
  '# others end. who: role:<id> or user:<id>; what: command paths or a tier; on: patterns (docs/access.md);',
  '# until: an ISO date and time, or left out for until revoked.',
];

/**
 * The grants of the store (not the role variables', nor elevations) as the file an export attaches: YAML in
 * block style, every value a double-quoted (JSON) string, so no name or pattern can read as anything else.
 * Written without the library, which only reading needs (and loads on first use).
 */
export function grantsToYaml(grants: readonly Grant[], exportedAt?: Date): string {
  const q = (value: string) => JSON.stringify(value);
  const list = (values: readonly string[]) => `[${values.map(q).join(', ')}]`;
  const lines = [...HEADER, ...(exportedAt ? [`# Exported ${exportedAt.toISOString()}.`] : []), 'version: 1'];
  if (grants.length === 0) lines.push('grants: []');
  else lines.push('grants:');
  for (const g of grants) {
    lines.push(`  - id: ${q(g.id)}`, `    who: ${q(`${g.subject.kind}:${g.subject.id}`)}`);
    lines.push(`    what: ${list(g.what)}`, `    on: ${list(g.patterns)}`);
    if (g.until) lines.push(`    until: ${q(g.until.toISOString())}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The grants a file lists, each checked as /access grant checks its options; throws naming the first fault. */
export async function parseGrantsYaml(input: string, commandPaths: readonly string[]): Promise<FileGrant[]> {
  // Loaded on first use (a chunk of its own in the build): most processes never import grants.
  // yaml's `node` export is CommonJS: its module is the default (all the bundle's chunk has).
  const { parseDocument } = (await import('yaml')).default;
  const doc = parseDocument(input, { uniqueKeys: true, prettyErrors: false });
  const yamlError = doc.errors[0];
  if (yamlError)
    throw invalid(message('grantsFile.yaml', { problem: yamlError.message.split('\n')[0] ?? '' }));
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (error) {
    throw invalid(message('grantsFile.yaml', { problem: error instanceof Error ? error.message : '' }));
  }
  const parsed = fileSchema.safeParse(data ?? {});
  if (!parsed.success) {
    // A key HostOps does not know says more than what is then missing.
    const { issues } = parsed.error;
    const issue = issues.find((i) => i.code === 'unrecognized_keys') ?? issues[0];
    const path = (issue?.path ?? []).map((p) => (typeof p === 'number' ? `[${p + 1}]` : `.${String(p)}`));
    const where = path.length > 0 ? path.join('').slice(1) : message('grantsFile.top');
    throw invalid(
      issue?.code === 'unrecognized_keys'
        ? message('grantsFile.unknown_keys', { where, keys: issue.keys.join(', ') })
        : message('grantsFile.shape', { where, problem: issue?.message ?? '' }),
    );
  }
  const seen = new Set<string>();
  return (parsed.data.grants ?? []).map((entry, n) => {
    const at = (field: string) => `grants[${n + 1}].${field}`;
    const fault = (field: string, problem: Message) =>
      invalid(message('grantsFile.entry', { where: at(field), problem }));
    if (entry.id !== undefined && (!GRANT_ID.test(entry.id) || seen.has(entry.id)))
      throw fault(
        'id',
        message(seen.has(entry.id) ? 'grantsFile.id_twice' : 'grantsFile.id', {
          input: quoteInput(entry.id),
        }),
      );
    if (entry.id !== undefined) seen.add(entry.id);
    const who = SUBJECT.exec(entry.who.trim());
    if (!who) throw fault('who', message('access.who.invalid', { input: quoteInput(entry.who) }));
    // Read as /access grant reads its options (a list is the options' comma-separated text).
    const checked = <T>(field: string, read: () => T): T => {
      try {
        return read();
      } catch (error) {
        if (error instanceof InvalidValueError) throw fault(field, error.problem);
        throw error;
      }
    };
    const joined = (value: string | string[]) => (Array.isArray(value) ? value.join(',') : value);
    const what = checked('what', () => parseWhat(joined(entry.what), commandPaths));
    const patterns = checked('on', () => parsePatterns(joined(entry.on)));
    let until: string | null = null;
    if (entry.until !== undefined && entry.until !== null) {
      const date = entry.until instanceof Date ? entry.until : new Date(entry.until);
      if (Number.isNaN(date.getTime()))
        throw fault('until', message('grantsFile.until', { input: quoteInput(String(entry.until)) }));
      until = date.toISOString();
    }
    return {
      ...(entry.id === undefined ? {} : { id: entry.id }),
      subject: { kind: who[1] === 'role' ? 'role' : 'user', id: who[2] ?? '' },
      what,
      patterns,
      until,
    };
  });
}
