import type { PreviewFile } from '../replies/ReplyBody.js';

/**
 * A body's text files as Discord attachments. Without files the body goes out without the key: an
 * empty list would tell Discord to drop what the message already carries (a CSV, a records.txt).
 */
export function withAttachments<T extends object>({ files, ...body }: T & { files?: PreviewFile[] }) {
  if (!files || files.length === 0) return body;
  return {
    ...body,
    files: files.map(({ name, content }) => ({ name, attachment: Buffer.from(content, 'utf8') })),
  };
}
