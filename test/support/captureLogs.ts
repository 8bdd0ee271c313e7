import { Writable } from 'node:stream';
import { createLogger, type LoggerSetup } from '../../src/logger.js';

/** A real pino logger (with the product's redaction) whose output the test can read back. */
export function captureLogs(setup: Partial<LoggerSetup> = {}) {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      callback();
    },
  });
  const { logger, secrets } = createLogger({ level: 'debug', ...setup, destination });
  return {
    logger,
    secrets,
    lines,
    get text() {
      return lines.join('\n');
    },
    entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
