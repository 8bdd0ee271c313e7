import type { InvalidValueError } from '../validation/InvalidValueError.js';
import { escapeUserText } from './render/escapeUserText.js';

/**
 * An error whose message is written for the person who ran the command. Handlers throw these; the
 * router is the one place that turns them (and every other error) into a reply.
 */
export class UserError extends Error {
  override name = 'UserError';
}

export type RefusalReason = 'guild' | 'channel' | 'tier' | 'shutting_down';

/** A gate said no: nothing was validated or sent. */
export class RefusalError extends UserError {
  override name = 'RefusalError';
  constructor(
    message: string,
    readonly reason: RefusalReason,
  ) {
    super(message);
  }
}

/** One option's value is unusable; says which option and what a valid value looks like. */
export class InvalidOptionError extends UserError {
  override name = 'InvalidOptionError';
  constructor(
    readonly option: string,
    readonly problem: string,
    readonly expected: string,
  ) {
    // The problem quotes what the user typed: it must not ping anyone or break the markdown.
    super(`\`${option}\`: ${escapeUserText(problem, 400)}. Expected ${expected}.`);
  }

  static from(option: string, error: InvalidValueError): InvalidOptionError {
    return new InvalidOptionError(option, error.message, error.expected);
  }
}
