// The value types of HostOps' environment, each with the error an operator reads: the building blocks
// config.ts's one schema is made of.
import { isIP } from 'node:net';
import { Cron } from 'croner';
import { IANAZone } from 'luxon';
import { z } from 'zod';
import { isSandboxUrl } from './sandbox/sandboxMode.js';

// Operators leave `NAME=` lines in .env files; an empty value means "unset", not "empty string".
export const blankAsUnset = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;
export const required = <T extends z.ZodType>(schema: T) => z.preprocess(blankAsUnset, schema);
export const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankAsUnset, schema.optional());

export const integer = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

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
    `is still the example placeholder (${new URL(EXAMPLE_HOSTING_API_URL).host}): set your provider's API URL, or leave it unset for the console's sandbox`,
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
] as const;

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
  .pipe(z.array(z.number().int().min(0).max(3650, 'days must be at most 3650')));

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
