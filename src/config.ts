import { existsSync } from 'node:fs';
import { IANAZone } from 'luxon';
import { z } from 'zod';

// Operators leave `NAME=` lines in .env files; an empty value means "unset", not "empty string".
const blankAsUnset = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;
const required = <T extends z.ZodType>(schema: T) => z.preprocess(blankAsUnset, schema);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankAsUnset, schema.optional());

const integer = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' });

const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

const timeZone = z
  .string()
  .refine((zone) => IANAZone.isValidZone(zone), 'must be an IANA time zone such as Europe/Berlin');

export const configSchema = z
  .object({
    HOSTING_API_URL: required(httpUrl),
    HOSTING_API_TOKEN: required(z.string()),
    HOSTING_API_TIMEOUT_MS: optional(integer(100, 300_000)).default(15_000),
    HOSTING_API_TIMEZONE: optional(timeZone).default('Europe/Berlin'),
    LOG_LEVEL: optional(logLevel).default('info'),
  })
  .transform((env) => ({
    hosting: {
      baseUrl: env.HOSTING_API_URL,
      token: env.HOSTING_API_TOKEN,
      timeoutMs: env.HOSTING_API_TIMEOUT_MS,
      timeZone: env.HOSTING_API_TIMEZONE,
    },
    logLevel: env.LOG_LEVEL,
  }));

export type Config = z.output<typeof configSchema>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.join('\n')}`);
  }
}

/** Parses an environment; throws ConfigError with one line per problem, never echoing a value. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const result = configSchema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const variable = issue.path.join('.') || 'environment';
    const message =
      issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message;
    return `${variable}: ${message}`;
  });
  throw new ConfigError(problems);
}

/**
 * The only reader of process.env. Loads `.env` from the working directory when present; variables
 * already set in the environment win, as with docker `--env-file` plus explicit `-e`.
 * Exits the process (code 78, EX_CONFIG) on invalid configuration: nothing else has started yet.
 */
export function loadConfig(path = '.env'): Config {
  if (existsSync(path)) process.loadEnvFile(path);
  try {
    return parseConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(
      `HostOps cannot start, configuration is invalid:\n${error.problems.map((p) => `  ${p}\n`).join('')}`,
    );
    process.exit(78);
  }
}
