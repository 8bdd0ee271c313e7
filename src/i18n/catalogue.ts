import type { Locale } from './locales.js';
import * as access from './messages/access.js';
import * as audit from './messages/audit.js';
import * as changes from './messages/changes.js';
import * as common from './messages/common.js';
import * as console from './messages/console.js';
import * as domain from './messages/domain.js';
import * as errors from './messages/errors.js';
import * as forms from './messages/forms.js';
import * as grantsFile from './messages/grantsFile.js';
import * as help from './messages/help.js';
import * as musicbot from './messages/musicbot.js';
import * as panel from './messages/panel.js';
import * as rdap from './messages/rdap.js';
import * as server from './messages/server.js';
import * as validation from './messages/validation.js';
import * as watch from './messages/watch.js';

/**
 * Every text HostOps sends, by area (messages/*.ts, English beside German). Keys start with their
 * area's name, so areas never collide.
 *
 * Counts — the one way to say a number of things (`Intl.PluralRules` picks the form):
 * - A message that says how many of something is a pair `…_one` / `…_other`, in every language, even
 *   where both read the same (`'{count} checked'`): it is called by its base, `t('x.y', { count })`, and
 *   the translator picks the form for the number in the reader's language. Write the pair for the
 *   sentence's every word that agrees with the count, not just its noun ("1 expires", "die 1 Domain,
 *   die eben hinzugekommen ist, wird …").
 * - `count` is the only placeholder that takes a bare number, and only a pair takes it: a plain message
 *   given a number fails the typecheck. A number that is not a count — an HTTP status, seconds before
 *   `s`, a position, a fixed bound — goes in as `figure(n)` (formatted for the language, no form).
 * - A message with two counts takes the one its words agree with as `count`; the other goes in as a
 *   counted message of its own (`watch.count.domains`: "1 domain"), or as a `figure` where no word
 *   agrees with it (`{failed} failed`, `of {total}`).
 * - Every pair has a row in test/i18n/plurals.test.ts (a `Record` over the pairs: a new pair without
 *   a row fails the typecheck), which renders it for 0, 1, 2 and 5 in each language.
 * Converting a counted message from a branch: rename `'a.b'` to `'a.b_one'` + `'a.b_other'` in English
 * and German, pass `{ count: n }` (other numbers as `figure(n)`), add its row to the test.
 */
export const english = {
  ...common.en,
  ...errors.en,
  ...forms.en,
  ...changes.en,
  ...validation.en,
  ...server.en,
  ...domain.en,
  ...musicbot.en,
  ...panel.en,
  ...help.en,
  ...audit.en,
  ...watch.en,
  ...rdap.en,
  ...console.en,
  ...access.en,
  ...grantsFile.en,
} as const;

export type English = typeof english;

export const catalogue: Record<Locale, { readonly [K in keyof English]: string }> = {
  en: english,
  de: {
    ...common.de,
    ...errors.de,
    ...forms.de,
    ...changes.de,
    ...validation.de,
    ...server.de,
    ...domain.de,
    ...musicbot.de,
    ...panel.de,
    ...help.de,
    ...audit.de,
    ...watch.de,
    ...rdap.de,
    ...console.de,
    ...access.de,
    ...grantsFile.de,
  },
};
