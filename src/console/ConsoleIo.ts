import type { Readable, Writable } from 'node:stream';

/** The process's streams and environment, as the console uses them (tests pass their own). */
export interface ConsoleIo {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean; hasColors?: () => boolean };
  stderr: Writable & { isTTY?: boolean; hasColors?: () => boolean };
  env: Record<string, string | undefined>;
}

/** Writes text as one or more whole lines; nothing for empty text. */
export function writeLine(stream: Writable, text: string): void {
  if (text) stream.write(text.endsWith('\n') ? text : `${text}\n`);
}
