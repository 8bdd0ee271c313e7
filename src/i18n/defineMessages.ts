/**
 * `{name}` placeholders of a message. Only identifiers count, so literal braces in a message (a JSON
 * example) are text; the runtime uses the same rule (`PLACEHOLDER`).
 */
export type Placeholders<S extends string> = string extends S
  ? string
  : S extends `${string}{${infer Name}}${infer Rest}`
    ?
        | (Name extends `${string}${' ' | '"' | ':' | ',' | '{'}${string}` | '' ? never : Name)
        | Placeholders<Rest>
    : never;

export const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * A translation must use exactly the English entry's placeholders: otherwise its type becomes an
 * impossible string that names them, and the typecheck fails on that entry.
 */
type Checked<E extends Record<string, string>, T> = {
  [K in keyof E]: K extends keyof T
    ? T[K] extends string
      ? Same<Placeholders<E[K]>, Placeholders<T[K]>> extends true
        ? T[K]
        : `placeholders must be exactly: ${Placeholders<E[K]> & string}`
      : never
    : never;
};

/**
 * English is the source of every area's messages (`as const`); a translation is written with
 * `translationOf(en)({ … })`: every English key must be there (a missing one fails the typecheck) with
 * exactly the same placeholders. Counted messages are pairs of keys `…_one` / `…_other`, chosen by
 * `Intl.PluralRules` from the `count` parameter (how to write one: `catalogue.ts`).
 */
export function translationOf<E extends Record<string, string>>(_english: E) {
  return <const T extends { [K in keyof E]: string }>(
    translation: T & NoInfer<Checked<E, T>>,
  ): { [K in keyof E]: string } => translation;
}
