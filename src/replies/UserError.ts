import { type Message, message, translator } from '../i18n/Translator.js';

/**
 * An error written for the person who ran the command. It carries a message of the catalogue, not
 * words, so the one place that turns errors into replies can answer in the reader's language; the
 * Error's own message is the English text, for logs.
 */
export class UserError extends Error {
  override name = 'UserError';
  constructor(readonly text: Message) {
    super(translator('en').render(text));
  }
}

export type RefusalReason =
  | 'guild'
  | 'channel'
  | 'tier'
  | 'shutting_down'
  | 'forward_dns'
  | 'approval'
  | 'watch_full';

/** A gate said no: nothing was validated or sent. */
export class RefusalError extends UserError {
  override name = 'RefusalError';
  constructor(
    text: Message,
    readonly reason: RefusalReason,
  ) {
    super(text);
  }
}

/** The answer to anything new while this process is stopping. */
export function restarting(): RefusalError {
  return new RefusalError(message('errors.restarting'), 'shutting_down');
}

/** A change that needs a second person, asked for where nobody can approve it (the console). */
/** `always`: the command always waits for a second person (an /access request), whatever the list says. */
export function approvalNotHere(command: string, always = false): RefusalError {
  const key = always ? 'changes.approval.not_here_always' : 'changes.approval.not_here';
  return new RefusalError(message(key, { command }), 'approval');
}

/** One option's value is unusable; says which option and what a valid value looks like. */
export class InvalidOptionError extends UserError {
  override name = 'InvalidOptionError';
  constructor(
    readonly option: string,
    readonly problem: Message,
    readonly expected: Message,
  ) {
    super(message('errors.invalid_option', { option, problem, expected }));
  }

  static from(option: string, error: { problem: Message; expected: Message }): InvalidOptionError {
    return new InvalidOptionError(option, error.problem, error.expected);
  }
}
