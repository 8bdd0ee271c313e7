/**
 * Thrown by the validators in this folder when a user-typed value is unusable.
 * The chat layer prefixes the option name, e.g. "`domain`: <message> — expected <expected>".
 */
export class InvalidValueError extends Error {
  override readonly name = 'InvalidValueError';

  /**
   * @param message what is wrong with the given value, short, e.g. `label "exa_mple" contains "_"`
   * @param expected what a valid value looks like, e.g. `a domain name such as example.com or bücher.de`
   */
  constructor(
    message: string,
    readonly expected: string,
  ) {
    super(message);
  }
}
