import type { Translator } from '../../i18n/Translator.js';
import { cutText } from '../../text/cutText.js';

const FIELD_LIMIT = 1024;

/**
 * Commands keep their previews within a field's 1024 characters; should one not, it is cut visibly,
 * saying how long it is (in the reader's language `t`), rather than rejected by Discord or cut silently.
 */
export function fieldValue(value: string, t: Translator): string {
  if (value.length <= FIELD_LIMIT) return value;
  const note = ` ${t('common.field_cut', { count: value.length })}`;
  return cutText(value, FIELD_LIMIT - note.length, '') + note;
}
