// /access export (the grants as a YAML file) and /access import (such a file: its difference to what is in
// force, applied on Confirm through the change flow). Elevations (grants of an approved request) and the
// role variables' grants are neither exported nor touched by an import.
import type { Grant } from '../../src/access/Grant.js';
import {
  type FileGrant,
  GRANTS_FILE,
  GRANTS_FILE_EXPECTED,
  grantsToYaml,
  MAX_GRANTS_FILE_BYTES,
  parseGrantsYaml,
} from '../../src/access/grantsYaml.js';
import { change } from '../../src/discord/ChangeSpec.js';
import { type PrepareContext, read } from '../../src/discord/CommandModule.js';
import { figure, message, type Translator } from '../../src/i18n/Translator.js';
import { Colour } from '../../src/replies/colours.js';
import { escapeUserText } from '../../src/replies/escapeUserText.js';
import { InvalidOptionError, UserError } from '../../src/replies/UserError.js';
import {
  AttachmentDownloadError,
  downloadAttachment,
  isAttachmentUrl,
} from '../../src/validation/downloadAttachment.js';
import { commandPaths, type GrantParams, grantLine, grantOf, newGrantId, paramsOf } from './grantParams.js';

/** The attached file's name when the prompt shows what will be in force and its fields cannot hold it all. */
const AFTER_FILE = 'hostops-grants-after.yaml';
const DOWNLOAD_TIMEOUT_MS = 15_000;
/** Room for the lines of one preview field (Discord takes 1,024 characters). */
const FIELD_ROOM = 900;

export interface ImportParams {
  fileName: string;
  /** The attachment, read by the look-up before the prompt; null from then on. */
  file: { url: string; size: number } | null;
  /** The grants' generation the difference was made against: the send applies it only to that one. */
  generation: number;
  added: GrantParams[];
  removed: GrantParams[];
  unchanged: number;
  /** What is in force after Confirm (besides the role variables' grants and elevations), with ids. */
  after: FileGrant[];
  by: string;
}

/** A grant's identity as the file can say it: who, what, on, until (not its id or creator). */
const keyOf = (g: {
  subject: Grant['subject'];
  what: readonly string[];
  patterns: readonly string[];
  until: string | null;
}) => JSON.stringify([g.subject.kind, g.subject.id, [...g.what].sort(), [...g.patterns].sort(), g.until]);

/** The difference between the grants in force and the file's: each file grant matches one in force at most. */
export function importDiff(
  inForce: readonly Grant[],
  wanted: readonly FileGrant[],
  base: Pick<ImportParams, 'fileName' | 'by'>,
  generation: number,
): ImportParams {
  const plain = inForce.filter((g) => g.requestId === null);
  const pool = new Map<string, Grant[]>();
  for (const g of plain) {
    const key = keyOf(paramsOf(g));
    pool.set(key, [...(pool.get(key) ?? []), g]);
  }
  const kept = new Set(inForce.filter((g) => g.requestId !== null).map((g) => g.id));
  const after: FileGrant[] = [];
  const toAdd: FileGrant[] = [];
  for (const w of wanted) {
    const match = pool.get(keyOf(w))?.shift();
    if (match) {
      kept.add(match.id);
      after.push({ ...w, id: match.id });
    } else toAdd.push(w);
  }
  const removed = [...pool.values()].flat().map(paramsOf);
  const added = toAdd.map((w): GrantParams => {
    const id = w.id !== undefined && !kept.has(w.id) ? w.id : newGrantId();
    kept.add(id);
    after.push({ ...w, id });
    return { id, subject: w.subject, what: w.what, patterns: w.patterns, until: w.until, by: base.by };
  });
  return { ...base, file: null, generation, added, removed, unchanged: wanted.length - added.length, after };
}

async function download(params: ImportParams): Promise<string> {
  if (!params.file) throw new Error('the import file was read already');
  const name = escapeUserText(params.fileName, 100);
  try {
    return await downloadAttachment(params.file.url, {
      maxBytes: MAX_GRANTS_FILE_BYTES,
      timeoutMs: DOWNLOAD_TIMEOUT_MS,
    });
  } catch (error) {
    if (!(error instanceof AttachmentDownloadError)) throw error;
    if (error.reason === 'too_large')
      throw new InvalidOptionError(
        'file',
        message('grantsFile.too_big', { name, kb: figure(MAX_GRANTS_FILE_BYTES / 1024) }),
        GRANTS_FILE_EXPECTED,
      );
    if (error.reason === 'not_utf8')
      throw new InvalidOptionError('file', message('grantsFile.not_utf8', { name }), GRANTS_FILE_EXPECTED);
    const why =
      error.reason === 'status'
        ? `HTTP ${error.status}`
        : error.reason === 'slow'
          ? message('watch.file.download_slow', { seconds: figure(DOWNLOAD_TIMEOUT_MS / 1000) })
          : message('watch.file.download_error');
    throw new UserError(message('grantsFile.download_failed', { name, why }));
  }
}

/** Lines that fit one field; the rest said in a line of their own (they are in the attached file). */
function linesField(lines: string[], t: Translator): { value: string; cut: boolean } {
  if (lines.length === 0) return { value: t('grantsFile.none'), cut: false };
  const shown: string[] = [];
  let room = FIELD_ROOM;
  for (const line of lines) {
    if (line.length + 1 > room) break;
    shown.push(line);
    room -= line.length + 1;
  }
  const more = lines.length - shown.length;
  return more === 0
    ? { value: shown.join('\n'), cut: false }
    : {
        value: [...shown, t('grantsFile.more', { more: figure(more), file: AFTER_FILE })].join('\n'),
        cut: true,
      };
}

const asGrant = (g: FileGrant | GrantParams) => grantOf({ by: '', ...g, id: g.id ?? '' }, new Date(0));

export const accessExport = read({
  tier: 'admin',
  ephemeral: true,
  parse: () => null,
  run: async ({ store, now, t }) => {
    const grants = (await store.grants.load()).grants.filter((g) => g.requestId === null);
    return {
      embeds: [
        {
          title: t('grantsFile.export.title'),
          color: Colour.info,
          description: t('grantsFile.export.summary', { file: GRANTS_FILE, total: figure(grants.length) }),
        },
      ],
      files: [{ name: GRANTS_FILE, content: grantsToYaml(grants, now()) }],
      data: { file: GRANTS_FILE, grants: grants.length },
    };
  },
});

export const accessImport = change({
  tier: 'admin',
  operation: 'accessImport',
  parse: ({ interaction, config }): ImportParams => {
    const attachment = interaction.options.getAttachment('file');
    const name = escapeUserText(attachment?.name ?? '', 100);
    if (!attachment || !isAttachmentUrl(attachment.url, config.discord.apiUrl))
      throw new InvalidOptionError('file', message('grantsFile.not_discord', { name }), GRANTS_FILE_EXPECTED);
    if (attachment.size > MAX_GRANTS_FILE_BYTES)
      throw new InvalidOptionError(
        'file',
        message('grantsFile.too_big', { name, kb: figure(MAX_GRANTS_FILE_BYTES / 1024) }),
        GRANTS_FILE_EXPECTED,
      );
    return {
      fileName: attachment.name,
      file: { url: attachment.url, size: attachment.size },
      generation: -1,
      added: [],
      removed: [],
      unchanged: 0,
      after: [],
      by: interaction.user.id,
    };
  },
  // Reads the file (once: the parameters keep what it said), then the difference to the grants in force.
  precheck: async (params: ImportParams, context: PrepareContext) => {
    const first = params.file !== null;
    const wanted = first
      ? await parseGrantsYaml(await download(params), commandPaths(context.commands ?? []))
      : params.after;
    const { generation, grants } = await context.store.grants.load();
    const diff = importDiff(grants, wanted, params, generation);
    if (first && diff.added.length === 0 && diff.removed.length === 0)
      throw new UserError(
        message('grantsFile.no_difference', {
          file: escapeUserText(params.fileName, 100),
          total: figure(diff.unchanged),
        }),
      );
    return diff;
  },
  // At Confirm (or Approve): the difference shown holds only while the grants are of the prompt's generation.
  recheck: async (params, { store }) => {
    const { generation, grants } = await store.grants.load();
    if (generation === params.generation) return undefined;
    return {
      parameters: importDiff(grants, params.after, params, generation),
      why: message('grantsFile.stale'),
    };
  },
  target: ({ fileName }) => `file ${fileName}`,
  preview: (params, t) => {
    const added = linesField(
      params.added.map((g) => `+ ${grantLine(asGrant(g), t)}`),
      t,
    );
    const removed = linesField(
      params.removed.map((g) => `− ${grantLine(asGrant(g), t)}`),
      t,
    );
    return {
      title: t('grantsFile.title'),
      fields: [
        {
          name: t('grantsFile.field.file'),
          value: `\`${escapeUserText(params.fileName, 100)}\``,
          inline: true,
        },
        { name: t('grantsFile.field.unchanged'), value: t.number(params.unchanged), inline: true },
        { name: t('grantsFile.field.added', { total: figure(params.added.length) }), value: added.value },
        {
          name: t('grantsFile.field.removed', { total: figure(params.removed.length) }),
          value: removed.value,
        },
        {
          name: t('access.field.effect'),
          value: t('grantsFile.in_force', { total: figure(params.after.length) }),
        },
      ],
      ...(added.cut || removed.cut
        ? { files: [{ name: AFTER_FILE, content: grantsToYaml(params.after.map(asGrant)) }] }
        : {}),
    };
  },
  send: async (params, { store, now, t, channelT, requester }) => {
    const applied = await store.grants.replace(
      params.generation,
      params.removed.map((g) => g.id),
      params.added.map((g) => grantOf(g, now())),
    );
    if (!applied) throw new UserError(message('grantsFile.stale_send'));
    const counts = {
      file: `\`${escapeUserText(params.fileName, 100)}\``,
      added: figure(params.added.length),
      removed: figure(params.removed.length),
      unchanged: figure(params.unchanged),
    };
    return {
      private: {
        embeds: [
          { title: t('grantsFile.done'), color: Colour.success, description: t('grantsFile.record', counts) },
        ],
      },
      public: {
        content: channelT('access.record', { requester, line: channelT('grantsFile.record', counts) }),
      },
      result: {
        added: params.added.map((g) => g.id),
        removed: params.removed.map((g) => g.id),
        generation: params.generation + 1,
      },
    };
  },
});
