import { type Message, translator } from '../i18n/Translator.js';

/**
 * What the user typed cannot be run: unknown command or option, missing or malformed value. `text` is
 * the problem for the reader's language (`message` is its English words).
 */
export class CommandLineError extends Error {
  override readonly name = 'CommandLineError';
  readonly text: Message;

  /** `refused`: the line is fine, but the console may not run it (exit code 3, not 2). */
  constructor(
    text: Message,
    readonly refused = false,
  ) {
    super(translator('en').render(text));
    this.text = text;
  }
}
