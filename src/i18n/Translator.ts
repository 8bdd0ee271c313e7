import { catalogue, type English } from './catalogue.js';
import { PLACEHOLDER, type Placeholders } from './defineMessages.js';
import type { Locale } from './locales.js';

type PluralBase<K> = K extends `${infer Base}_one` ? Base : never;
type Singular<K> = K extends `${string}_one` | `${string}_other` ? never : K;

/** A counted message: the base of its `_one` / `_other` pair (see `src/i18n/catalogue.ts`). */
export type PluralKey = PluralBase<keyof English>;
/** A message of the catalogue: a plain key, or the base of an `_one` / `_other` pair. */
export type MessageKey = Singular<keyof English> | PluralKey;

// Both forms' placeholders: an `_one` text may leave the number out ("this record …").
type Template<K extends MessageKey> = K extends keyof English
  ? English[K]
  : English[`${K}_one` & keyof English] | English[`${K}_other` & keyof English];

/**
 * A number in a message that is not a count, so no plural form hangs on it: an HTTP status, seconds
 * before the unit symbol `s`, a position. Formatted for the language like a count.
 */
export interface Figure {
  readonly figure: number;
}
export const figure = (value: number): Figure => ({ figure: value });

/**
 * A value for a placeholder: text as is, a figure formatted for the language, or a nested message. A
 * bare number goes only to a counted message's `count`: a number beside words of its own is a count,
 * and a count needs plural forms (so a plain message given a number fails the typecheck).
 */
export type Text = string | Figure | Message;
export type ParamValue = Text | number;
export type ParamsOf<K extends MessageKey> = K extends PluralKey
  ? Record<Exclude<Placeholders<Template<K>>, 'count'>, Text> & { count: number }
  : Record<Placeholders<Template<K>>, Text>;
type ParamsArg<K extends MessageKey> = K extends PluralKey
  ? [params: ParamsOf<K>]
  : [Placeholders<Template<K>>] extends [never]
    ? []
    : [params: ParamsOf<K>];

/** A message not yet put into words: errors carry these, so the answer can be in the reader's language. */
export interface Message {
  readonly key: MessageKey;
  readonly params?: Readonly<Record<string, ParamValue>>;
}

export function message<K extends MessageKey>(key: K, ...params: ParamsArg<K>): Message {
  return { key, params: params[0] };
}

export interface Translator {
  <K extends MessageKey>(key: K, ...params: ParamsArg<K>): string;
  readonly locale: Locale;
  /** A message descriptor (or text already in words) in this language. */
  render(text: Message | string): string;
  /** `1,234` / `1.234`; options as for `Intl.NumberFormat`. */
  number(value: number, options?: Intl.NumberFormatOptions): string;
  /** `a, b and c` / `a, b und c`. */
  list(items: readonly string[], type?: 'conjunction' | 'disjunction'): string;
}

const translators = new Map<Locale, Translator>();

/** The translator of a language; one per language for the life of the process. */
export function translator(locale: Locale): Translator {
  let found = translators.get(locale);
  if (found === undefined) {
    found = createTranslator(locale);
    translators.set(locale, found);
  }
  return found;
}

function createTranslator(locale: Locale): Translator {
  const entries: Readonly<Record<string, string>> = catalogue[locale];
  const plural = new Intl.PluralRules(locale);
  const numbers = new Intl.NumberFormat(locale);
  const lists = {
    conjunction: new Intl.ListFormat(locale, { type: 'conjunction' }),
    disjunction: new Intl.ListFormat(locale, { type: 'disjunction' }),
  };

  const format = (key: string, params: Readonly<Record<string, ParamValue>> | undefined): string => {
    let template = entries[key];
    if (template === undefined) {
      const count = params?.count;
      const form = typeof count === 'number' ? plural.select(count) : 'other';
      template = entries[`${key}_${form}`] ?? entries[`${key}_other`];
    }
    // The catalogue's types make this unreachable; an unknown key at run time shows itself, not a crash.
    if (template === undefined) return key;
    if (params === undefined) return template;
    return template.replace(PLACEHOLDER, (whole, name: string) => {
      const value = params[name];
      if (value === undefined) return whole;
      if (typeof value === 'number') return numbers.format(value);
      if (typeof value === 'string') return value;
      return 'figure' in value ? numbers.format(value.figure) : format(value.key, value.params);
    });
  };

  const t = ((key: string, params?: Record<string, ParamValue>) =>
    format(key, params)) as unknown as Translator;
  return Object.assign(t, {
    locale,
    render: (text: Message | string) => (typeof text === 'string' ? text : format(text.key, text.params)),
    number: (value: number, options?: Intl.NumberFormatOptions) =>
      options === undefined ? numbers.format(value) : new Intl.NumberFormat(locale, options).format(value),
    list: (items: readonly string[], type: 'conjunction' | 'disjunction' = 'conjunction') =>
      lists[type].format(items),
  });
}
