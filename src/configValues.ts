// The value types of HostOps' environment, each with the error an operator reads: the building blocks
// config.ts's one schema is made of.
import { isIP } from 'node:net';
import { Cron } from 'croner';
import { IANAZone } from 'luxon';
import { z } from 'zod';
import { isSandboxUrl } from './sandbox/sandboxMode.js';
import { parseStorageSize } from './validation/parseStorageSize.js';

// Operators leave `NAME=` lines in .env files; an empty value means "unset", not "empty string".
export const blankAsUnset = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;
export const required = <T extends z.ZodType>(schema: T) => z.preprocess(blankAsUnset, schema);
export const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankAsUnset, schema.optional());

/** A whole number in a range: one message for every way a value misses it, naming the range. */
export const integer = (min: number, max: number) => {
  const range = `must be a whole number from ${min} to ${max}`;
  return z
    .string()
    .regex(/^\d+$/, range)
    .transform(Number)
    .pipe(z.number().int().min(min, range).max(max, range));
};

/**
 * What an operator reads for any problem a schema above does not word itself (zod's own messages, e.g.
 * "Too small: expected number to be >=10", never reach them): every line says what the variable is or
 * must be, in HostOps' words. parseConfig passes it to every parse.
 */
export const configErrorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'is required' : `must be ${issue.expected}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map(String).join(', ')}`;
    case 'too_small':
      return `must be at least ${String(issue.minimum)}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}`;
    case 'invalid_format':
      return `must be a valid ${issue.format}`;
    default:
      return 'is not a value HostOps can use';
  }
};

export const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' });

/** The made-up provider URL .env.example shows (commented out): a host that resolves nowhere. */
export const EXAMPLE_HOSTING_API_URL = 'https://api.example-hosting.com';
export const isExampleHostingApiUrl = (value: string | undefined) =>
  value !== undefined && URL.canParse(value) && new URL(value).host === new URL(EXAMPLE_HOSTING_API_URL).host;

// A real API's base URL, or the literal `sandbox` for the built-in sandbox (src/sandbox). The example's
// placeholder is named as such rather than left to fail later as "cannot reach the provider".
export const hostingApiUrl = z
  .string()
  .refine(
    (value) => isSandboxUrl(value) || httpUrl.safeParse(value).success,
    'must be an http:// or https:// URL, or sandbox for the built-in sandbox',
  )
  .refine(
    (value) => !isExampleHostingApiUrl(value),
    `is still the example placeholder (${new URL(EXAMPLE_HOSTING_API_URL).host}): set your provider's API URL, or sandbox for the built-in sandbox`,
  );

export const snowflake = z.string().regex(/^\d{17,20}$/, 'must be a Discord id (17–20 digits)');

export const snowflakeList = z
  .string()
  .transform((value) => value.split(/[\s,]+/).filter(Boolean))
  .pipe(
    z.array(
      z.string().regex(/^\d{17,20}$/, 'must be a comma-separated list of Discord ids (17–20 digits each)'),
    ),
  );

/**
 * The changing commands, as APPROVAL_REQUIRED names them. Listed here because configuration is parsed
 * before any command module loads; commands/index.ts holds it to the definitions (a change added or
 * renamed without it fails the typecheck).
 */
export const CHANGE_COMMANDS = [
  'server rdns',
  'domain register',
  'domain dns',
  'musicbot create',
  'panel bind',
  'access grant',
  'access revoke',
  'access import',
  'access request',
] as const;

/** The most hours ACCESS_MAX_ELEVATION_H may allow (a week): also the bound /access request declares. */
export const MAX_ELEVATION_H = 168;

export const approvalList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((pair) => pair.trim().split(/\s+/).join(' '))
      .filter(Boolean),
  )
  .pipe(
    z.array(
      z.enum(CHANGE_COMMANDS, {
        error: `must be a comma-separated list of changing commands: ${CHANGE_COMMANDS.join(', ')}`,
      }),
    ),
  );

// Parsed by the scheduler itself, so what is accepted here is exactly what runs (seconds field allowed).
export const cronExpression = z.string().refine((expression) => {
  try {
    new Cron(expression, { paused: true }).stop();
    return true;
  } catch {
    return false;
  }
}, 'must be a cron expression such as "0 8 * * *" (minute hour day month weekday, optional seconds first)');

export const leadDays = z
  .string()
  .transform((value) => value.split(/[\s,]+/).filter(Boolean))
  .pipe(
    z
      .array(z.string().regex(/^\d+$/, 'must be a comma-separated list of whole days such as 30,14,7,3,1'))
      .min(1, 'must list at least one number of days'),
  )
  .transform((days) => [...new Set(days.map(Number))].sort((a, b) => b - a))
  .pipe(z.array(z.number().int().min(0).max(3650, 'must list days from 0 to 3650')));

// The engine is chosen by the scheme; src/store opens it (and names DATABASE_URL if it cannot).
export const databaseUrl = z
  .string()
  .regex(/^(sqlite:|postgres(ql)?:\/\/)/, 'must start with sqlite: or postgres://');

/** `host[:port]`, `[v6]:port` or a bare IPv6 address, as node's resolver takes them; hosts are IPs. */
export const dnsServer = (entry: string) => {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(entry);
  const [host, port] = bracketed
    ? [bracketed[1] ?? '', bracketed[2]]
    : isIP(entry) === 6
      ? [entry, undefined]
      : (entry.split(':') as [string, string | undefined]);
  return isIP(host) !== 0 && (port === undefined || (Number(port) >= 1 && Number(port) <= 65_535));
};

export const dnsServers = z
  .string()
  .transform((value) => value.split(/[\s,]+/).filter(Boolean))
  .pipe(
    z.array(
      z
        .string()
        .refine(
          dnsServer,
          'must be a comma-separated list of resolver addresses such as 9.9.9.9 or 127.0.0.1:5353',
        ),
    ),
  );

/** gateway: a session per process (the default); http: Discord POSTs each interaction to /interactions. */
export const INTERACTION_MODES = ['gateway', 'http'] as const;
export type InteractionMode = (typeof INTERACTION_MODES)[number];

// 32 bytes of Ed25519 key as the developer portal shows them.
export const publicKey = z
  .string()
  .regex(/^[0-9a-fA-F]{64}$/, "must be the application's public key: 64 hexadecimal characters");

export const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

export const timeZone = z
  .string()
  .refine((zone) => IANAZone.isValidZone(zone), 'must be an IANA time zone such as Europe/Berlin');

/** A secret that goes into a URL or a header: long and URL-safe, so it cannot be guessed or mangled. */
export const urlSafeSecret = z
  .string()
  .regex(/^[A-Za-z0-9_-]{32,256}$/, 'must be 32–256 letters, digits, - or _ (e.g. openssl rand -hex 24)');

/** A choice in a form holds at most 25 options (Discord's limit for a select menu). */
export const MAX_FORM_CHOICES = 25;

/**
 * MUSICBOT_STORAGE_PLANS: the storage sizes `/musicbot create`'s form offers, comma-separated
 * (`5 GiB, 10 GiB, 25 GiB`), each a size as the `storage` option takes it; in bytes, in order, no repeats.
 */
export const storagePlans = z
  .string()
  .transform((value, context) => {
    const sizes: number[] = [];
    for (const part of value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean)) {
      try {
        const bytes = parseStorageSize(part);
        if (!sizes.includes(bytes)) sizes.push(bytes);
      } catch {
        context.addIssue({
          code: 'custom',
          message: `"${part}" is not a size (bytes, or a number with a unit such as 512MB or 10 GiB)`,
        });
        return z.NEVER;
      }
    }
    return sizes;
  })
  .pipe(
    z
      .array(z.number())
      .min(1, 'must name at least one size')
      .max(
        MAX_FORM_CHOICES,
        `must name at most ${MAX_FORM_CHOICES} sizes (a choice in a form holds ${MAX_FORM_CHOICES})`,
      ),
  );
