import { type Message, translator } from '../i18n/Translator.js';

/**
 * Thrown by the validators in this folder when a user-typed value is unusable. It carries messages of
 * the catalogue, so the answer can be in the reader's language; the chat layer prefixes the option
 * name, e.g. "`domain`: <problem>. Expected <expected>." The Error's own message is English, for logs.
 */
export class InvalidValueError extends Error {
  override readonly name = 'InvalidValueError';

  /**
   * @param problem what is wrong with the given value, short, e.g. `label "exa_mple" contains "_"`
   * @param expected what a valid value looks like, e.g. `a domain name such as example.com or bücher.de`
   */
  constructor(
    readonly problem: Message,
    readonly expected: Message,
  ) {
    super(translator('en').render(problem));
  }
}
