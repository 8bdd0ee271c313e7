import type { Attachment } from 'discord.js';
import type { Locale } from '../i18n/locales.js';
import { figure, type Message, message, translator } from '../i18n/Translator.js';
import { escapeUserText } from '../replies/escapeUserText.js';
import { InvalidOptionError, UserError } from '../replies/UserError.js';
import {
  AttachmentDownloadError,
  downloadAttachment,
  isAttachmentUrl,
} from '../validation/downloadAttachment.js';
import { InvalidValueError } from '../validation/InvalidValueError.js';
import { type ParsedDomain, parseDomain } from '../validation/parseDomain.js';
import type { ParsedDomainList } from '../validation/parseDomainList.js';
import { refuseHiddenCharacters } from '../validation/refuseHiddenCharacters.js';

// A file of domains for /watch add: checked before it is fetched, fetched within bounds, then parsed.

/** Names one attached file may hold, and its size. */
export const MAX_FILE_DOMAINS = 10_000;
export const MAX_FILE_BYTES = 1_048_576;
/** How long the file may take to download. */
export const FILE_DOWNLOAD_TIMEOUT_MS = 15_000;
export const FILE_EXPECTED: Message = message('watch.file.expected', { max: figure(MAX_FILE_DOMAINS) });
const TEXT_EXTENSIONS = /\.(txt|csv|tsv|list)$/i;
const TEXT_TYPES = /^(text\/|application\/(csv|x-csv|vnd\.ms-excel)\b)/i;
/** A first row like `domain` or `name` is a CSV header, not a name. */
const HEADER_WORDS = new Set(['domain', 'domains', 'domain name', 'domainname', 'name', 'hostname', 'fqdn']);

export interface FileRequest {
  url: string;
  name: string;
  size: number;
}

/**
 * What can be told from the attachment before downloading it: where it is, its size and its kind.
 * Only Discord's own hosts are fetched, so a forged payload cannot make HostOps request anything else.
 * `locale` is the invoker's: a refusal here goes only to them.
 */
export function checkAttachment(attachment: Attachment, discordApiUrl: string, locale: Locale): FileRequest {
  const name = attachment.name;
  if (!isAttachmentUrl(attachment.url, discordApiUrl)) {
    throw new InvalidOptionError('file', message('watch.file.not_discord', { name }), FILE_EXPECTED);
  }
  const type = attachment.contentType ?? '';
  const textual = TEXT_TYPES.test(type) || (type === '' && TEXT_EXTENSIONS.test(name));
  if (!textual && !TEXT_EXTENSIONS.test(name)) {
    throw new InvalidOptionError(
      'file',
      message('watch.file.not_text', { name, type: type || message('watch.file.unknown_type') }),
      FILE_EXPECTED,
    );
  }
  if (attachment.size > MAX_FILE_BYTES) {
    // One decimal, always (`2.0` / `2,0`), as the size was always shown.
    const size = translator(locale).number(attachment.size / 1_048_576, {
      minimumFractionDigits: 1,
      maximumFractionDigits: 1,
      useGrouping: false,
    });
    throw new InvalidOptionError('file', message('watch.file.too_big', { name, size }), FILE_EXPECTED);
  }
  return { url: attachment.url, name, size: attachment.size };
}

const tooLarge = (file: FileRequest) =>
  new UserError(
    message('watch.file.larger_than_limit', {
      name: escapeUserText(file.name, 100),
      expected: FILE_EXPECTED,
    }),
  );

/** Downloads the attachment, never more than 1 MB and never for longer than the timeout. */
export async function downloadDomainFile(file: FileRequest): Promise<string> {
  try {
    return await downloadAttachment(file.url, {
      maxBytes: MAX_FILE_BYTES,
      timeoutMs: FILE_DOWNLOAD_TIMEOUT_MS,
    });
  } catch (error) {
    if (!(error instanceof AttachmentDownloadError)) throw error;
    const name = escapeUserText(file.name, 100);
    switch (error.reason) {
      case 'status':
        throw new UserError(message('watch.file.download_status', { name, status: String(error.status) }));
      case 'too_large':
        throw tooLarge(file);
      case 'not_utf8':
        throw new UserError(message('watch.file.not_utf8', { name, expected: FILE_EXPECTED }));
      default: {
        const why =
          error.reason === 'slow'
            ? message('watch.file.download_slow', { seconds: figure(FILE_DOWNLOAD_TIMEOUT_MS / 1000) })
            : message('watch.file.download_error');
        throw new UserError(message('watch.file.download_failed', { name, why }));
      }
    }
  }
}

/** The first field of a CSV or text line: quoted or not, up to the first comma, semicolon or tab. */
function firstColumn(line: string): string {
  const trimmed = line.trim();
  if (trimmed.startsWith('"')) {
    const end = trimmed.indexOf('"', 1);
    return end === -1 ? trimmed.slice(1) : trimmed.slice(1, end);
  }
  return trimmed.split(/[,;\t]/, 1)[0] ?? '';
}

/** One domain per line or in the first column; blank lines, `#` comments and a header row are skipped. */
export function parseDomainFile(text: string, max = MAX_FILE_DOMAINS): ParsedDomainList {
  const domains = new Map<string, ParsedDomain>();
  const invalid = new Map<string, { input: string; error: InvalidValueError }>();
  let first = true;
  for (const line of text.split(/\r\n|\r|\n/)) {
    const entry = firstColumn(line).trim();
    if (entry === '' || entry.startsWith('#')) continue;
    const header = first && HEADER_WORDS.has(entry.toLowerCase());
    first = false;
    if (header) continue;
    try {
      const domain = parseDomain(refuseHiddenCharacters(entry));
      if (!domains.has(domain.ascii)) domains.set(domain.ascii, domain);
    } catch (error) {
      if (!(error instanceof InvalidValueError)) throw error;
      if (!invalid.has(entry)) invalid.set(entry, { input: entry, error });
    }
    if (domains.size + invalid.size > max) {
      throw new UserError(message('watch.file.too_many', { max: figure(max), expected: FILE_EXPECTED }));
    }
  }
  if (domains.size + invalid.size === 0) {
    throw new UserError(message('watch.file.empty', { expected: FILE_EXPECTED }));
  }
  return { domains: [...domains.values()], invalid: [...invalid.values()] };
}
