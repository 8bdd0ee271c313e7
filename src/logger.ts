import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';

export type { Logger } from 'pino';

const SECRET_KEYS = ['authorization', 'token', 'password', 'HOSTING_API_TOKEN', 'DISCORD_TOKEN'];

// pino's redaction has no "any depth" wildcard, so list the depths our log objects actually reach.
const REDACT_PATHS = SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`, `*.*.*.${key}`]);

export const REDACTED = '[REDACTED]';

/** Every occurrence of each secret replaced by REDACTED. */
export function scrubSecrets(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const secret of secrets)
    if (secret.length > 0 && out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

export interface LoggerSetup {
  level: string;
  /** Secret values known at start-up (API token, bot token); scrubbed from every line as a last line of defence. */
  secrets?: readonly string[];
  destination?: DestinationStream;
}

/**
 * Secrets registered at run time (generated passwords) live here only while they are in use, so the
 * scrub on every line stays a handful of substring checks.
 */
export class SecretRegistry {
  readonly #values = new Set<string>();
  add(value: string): () => void {
    if (value.length < 4) return () => {};
    this.#values.add(value);
    return () => this.#values.delete(value);
  }
  scrub(text: string): string {
    return scrubSecrets(text, this.#values);
  }
}

export function createLogger({ level, secrets = [], destination }: LoggerSetup): {
  logger: Logger;
  secrets: SecretRegistry;
} {
  const registry = new SecretRegistry();
  for (const secret of secrets) registry.add(secret);
  const options: LoggerOptions = {
    level,
    base: { service: 'hostops' },
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    hooks: { streamWrite: (line) => registry.scrub(line) },
    timestamp: pino.stdTimeFunctions.isoTime,
    serializers: { err: serializeError },
  };
  const logger = destination ? pino(options, destination) : pino(options);
  return { logger, secrets: registry };
}

/**
 * discord.js REST errors carry the request body (which can hold a password we just showed the user)
 * and a URL with the interaction token; keep neither.
 */
function serializeError(error: unknown) {
  const serialized = pino.stdSerializers.err(error as Error) as Record<string, unknown> | undefined;
  if (serialized && typeof serialized === 'object') {
    delete serialized.requestBody;
    delete serialized.rawError;
    if (typeof serialized.url === 'string')
      serialized.url = serialized.url.replace(/\/[\w-]{20,}/g, `/${REDACTED}`);
  }
  return serialized;
}
