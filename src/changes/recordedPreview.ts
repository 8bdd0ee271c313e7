import { LOCALES, type Locale } from '../i18n/locales.js';
import type { ChangePreview, LocalizedPreview } from '../replies/ReplyBody.js';

/**
 * A record's preview (masked) in `locale`. Records written before previews were kept in every language
 * hold one preview, in their requester's language: that one is shown to everyone.
 */
export function recordedPreview(stored: unknown, locale: Locale): ChangePreview {
  const shaped = stored as Partial<LocalizedPreview> & Partial<ChangePreview>;
  if (typeof shaped.title === 'string') return shaped as ChangePreview;
  const found = shaped[locale] ?? LOCALES.map((other) => shaped[other]).find((preview) => preview);
  return found ?? { title: '', fields: [] };
}
