import { request } from 'undici';

// An attached file, fetched only from where Discord serves attachments and never past its bounds: what
// /watch add (a file of domains) and /access import (a YAML file of grants) read.

// Discord serves attachments from its CDN; the configured API host covers REST proxies and test doubles.
const ATTACHMENT_HOSTS = ['cdn.discordapp.com', 'media.discordapp.net'];

/** Whether `url` is on a host Discord serves attachments from (a forged payload gets nothing else fetched). */
export function isAttachmentUrl(url: string, discordApiUrl: string): boolean {
  const host = URL.canParse(url) ? new URL(url).hostname : '';
  return [...ATTACHMENT_HOSTS, new URL(discordApiUrl).hostname].includes(host);
}

/** Why a download gave no text: the caller says it in its own words. */
export class AttachmentDownloadError extends Error {
  constructor(
    readonly reason: 'status' | 'too_large' | 'slow' | 'failed' | 'not_utf8',
    readonly status?: number,
  ) {
    super(`attachment download: ${reason}${status === undefined ? '' : ` ${status}`}`);
  }
}

/** Downloads the attachment as UTF-8 text, never more than `maxBytes` and never for longer than `timeoutMs`. */
export async function downloadAttachment(
  url: string,
  { maxBytes, timeoutMs }: { maxBytes: number; timeoutMs: number },
): Promise<string> {
  const signal = AbortSignal.timeout(timeoutMs);
  let body: Buffer;
  try {
    const response = await request(url, { method: 'GET', signal });
    // Stopping early (too large) destroys the body, which undici 6 reports as an 'error' event after the
    // loop below has let go of it: nobody reads it any more, so that abort is ours, not a failure.
    response.body.on('error', () => {});
    if (response.statusCode < 200 || response.statusCode > 299) {
      await response.body.dump();
      throw new AttachmentDownloadError('status', response.statusCode);
    }
    const length = Number(response.headers['content-length']);
    if (Number.isFinite(length) && length > maxBytes) {
      response.body.destroy();
      throw new AttachmentDownloadError('too_large');
    }
    const chunks: Buffer[] = [];
    let received = 0;
    for await (const chunk of response.body) {
      const buffer = chunk as Buffer;
      received += buffer.length;
      if (received > maxBytes) {
        response.body.destroy();
        throw new AttachmentDownloadError('too_large');
      }
      chunks.push(buffer);
    }
    body = Buffer.concat(chunks);
  } catch (error) {
    if (error instanceof AttachmentDownloadError) throw error;
    throw new AttachmentDownloadError(signal.aborted ? 'slow' : 'failed');
  }
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(body);
    if (text.includes('\0')) throw new Error('NUL in text');
    return text;
  } catch {
    throw new AttachmentDownloadError('not_utf8');
  }
}
