/** The languages HostOps speaks. A third one is a new entry here plus its catalogue entries. */
export const LOCALES = ['en', 'de'] as const;
export type Locale = (typeof LOCALES)[number];

/** Languages other than English: the ones command definitions get localisations for. */
export type TranslatedLocale = Exclude<Locale, 'en'>;
export const TRANSLATED_LOCALES = LOCALES.filter((locale): locale is TranslatedLocale => locale !== 'en');

/**
 * Discord's locale of the invoker's client (`de`, `en-US`, `pt-BR`, …) or a POSIX `LANG`
 * (`de_DE.UTF-8`) → the language to answer in: German for German, English for everything else.
 */
export function pickLocale(value: string | null | undefined): Locale {
  const language = (value ?? '').split(/[-_.@]/, 1)[0]?.toLowerCase();
  return (LOCALES as readonly string[]).includes(language ?? '') ? (language as Locale) : 'en';
}
