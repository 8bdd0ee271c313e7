import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';

export type { Logger } from 'pino';

const SECRET_KEYS = new Set([
  'authorization',
  'token',
  'password',
  'HOSTING_API_TOKEN',
  'DISCORD_TOKEN',
  'CALENDAR_TOKEN',
  'calendarToken',
  'METRICS_TOKEN',
  'metricsToken',
]);
// Deeper than any log object of ours; it bounds the walk over whatever a caller passes.
const REDACT_DEPTH = 8;

export const REDACTED = '[REDACTED]';
/** What pino's error serializer returns (and its `cause`s) inherit from. */
const SERIALIZED_ERROR: unknown = Object.getPrototypeOf(pino.stdSerializers.err(new Error('probe')));

/**
 * The value with every key in SECRET_KEYS replaced by REDACTED, in plain objects and arrays down to
 * REDACT_DEPTH. It copies only the containers on the way to a secret, and returns the value itself
 * when there is none, which is nearly always. (pino's own `redact` needs a path per depth, and its
 * wildcard paths walk every binding of every child logger: they were a tenth of HostOps' CPU per
 * interaction in a burst, docs/bench/2026-11-23-replicas-and-store.md.)
 */
function redactSecretKeys<T>(value: T, depth = REDACT_DEPTH): T {
  if (depth === 0 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item: unknown, index) => {
      const redacted = redactSecretKeys(item, depth - 1);
      if (redacted === item) return;
      copy ??= [...value];
      copy[index] = redacted;
    });
    return (copy ?? value) as T;
  }
  const prototype = Object.getPrototypeOf(value);
  // Errors and other class instances are left to their serializers (serializeError redacts its output).
  if (prototype !== Object.prototype && prototype !== null && prototype !== SERIALIZED_ERROR) return value;
  let copy: Record<string, unknown> | undefined;
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    const redacted =
      SECRET_KEYS.has(key) && item !== undefined ? REDACTED : redactSecretKeys(item, depth - 1);
    if (redacted === item) continue;
    copy ??= { ...(value as Record<string, unknown>) };
    copy[key] = redacted;
  }
  return (copy ?? value) as T;
}

/**
 * Every occurrence of each secret replaced by REDACTED: as given, and percent- or form-encoded in any mix
 * (a URL's query echoed in an error page or an undici error carries `LIC%2D…`, `a+b`, `%c3%a4`).
 */
export function scrubSecrets(text: string, secrets: Iterable<string>): string {
  let out = text;
  const encodedText = out.includes('%') || out.includes('+');
  for (const secret of secrets) {
    if (secret.length === 0) continue;
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    if (encodedText) out = out.replace(encodedForms(secret), REDACTED);
  }
  return out;
}

const encodedFormsCache = new Map<string, RegExp>();

/** A pattern matching the secret with each character either as itself or percent-encoded (any hex case). */
function encodedForms(secret: string): RegExp {
  let pattern = encodedFormsCache.get(secret);
  if (pattern) return pattern;
  let source = '';
  for (const character of secret) {
    const percent = [...Buffer.from(character, 'utf8')]
      .map((byte) => `%${byte.toString(16).padStart(2, '0')}`)
      .join('');
    const literal = character.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const alternatives = [literal, percent.replace(/[a-f]/g, (hex) => `[${hex}${hex.toUpperCase()}]`)];
    if (character === ' ') alternatives.push('\\+');
    source += `(?:${alternatives.join('|')})`;
  }
  pattern = new RegExp(source, 'g');
  // Secrets are few (tokens, a password while it is in use); the bound only guards against misuse.
  if (encodedFormsCache.size > 256) encodedFormsCache.clear();
  encodedFormsCache.set(secret, pattern);
  return pattern;
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
    formatters: { log: redactSecretKeys },
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
  return redactSecretKeys(serialized);
}
