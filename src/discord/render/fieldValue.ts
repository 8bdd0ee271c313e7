import { cutText } from '../../text/cutText.js';

const FIELD_LIMIT = 1024;

/**
 * Commands keep their previews within a field's 1024 characters; should one not, it is cut visibly,
 * saying how long it is, rather than rejected by Discord or cut silently.
 */
export function fieldValue(value: string): string {
  if (value.length <= FIELD_LIMIT) return value;
  const note = ` … (${value.length.toLocaleString('en-US')} characters, not all shown)`;
  return cutText(value, FIELD_LIMIT - note.length, '') + note;
}
