import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { parseEnv } from 'node:util';
import { Cron } from 'croner';
import { IANAZone } from 'luxon';
import { z } from 'zod';
import { LOCALES } from './i18n/locales.js';
import { isSandboxUrl, SANDBOX_DATABASE_URL } from './sandbox/sandboxMode.js';
import { commandLabel } from './text/commandLabel.js';

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

/** The made-up provider URL .env.example shows (commented out): a host that resolves nowhere. */
export const EXAMPLE_HOSTING_API_URL = 'https://api.example-hosting.com';
const isExampleHostingApiUrl = (value: string | undefined) =>
  value !== undefined && URL.canParse(value) && new URL(value).host === new URL(EXAMPLE_HOSTING_API_URL).host;

// A real API's base URL, or the literal `sandbox` for the built-in sandbox (src/sandbox). The example's
// placeholder is named as such rather than left to fail later as "cannot reach the provider".
const hostingApiUrl = z
  .string()
  .refine(
    (value) => isSandboxUrl(value) || httpUrl.safeParse(value).success,
    'must be an http:// or https:// URL, or sandbox for the built-in sandbox',
  )
  .refine(
    (value) => !isExampleHostingApiUrl(value),
    `is still the example placeholder (${new URL(EXAMPLE_HOSTING_API_URL).host}): set your provider's API URL, or leave it unset for the console's sandbox`,
  );

const snowflake = z.string().regex(/^\d{17,20}$/, 'must be a Discord id (17–20 digits)');

const snowflakeList = z
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
] as const;

const approvalList = z
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
const cronExpression = z.string().refine((expression) => {
  try {
    new Cron(expression, { paused: true }).stop();
    return true;
  } catch {
    return false;
  }
}, 'must be a cron expression such as "0 8 * * *" (minute hour day month weekday, optional seconds first)');

const leadDays = z
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
const databaseUrl = z
  .string()
  .regex(/^(sqlite:|postgres(ql)?:\/\/)/, 'must start with sqlite: or postgres://');

/** `host[:port]`, `[v6]:port` or a bare IPv6 address, as node's resolver takes them; hosts are IPs. */
const dnsServer = (entry: string) => {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(entry);
  const [host, port] = bracketed
    ? [bracketed[1] ?? '', bracketed[2]]
    : isIP(entry) === 6
      ? [entry, undefined]
      : (entry.split(':') as [string, string | undefined]);
  return isIP(host) !== 0 && (port === undefined || (Number(port) >= 1 && Number(port) <= 65_535));
};

const dnsServers = z
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
const publicKey = z
  .string()
  .regex(/^[0-9a-fA-F]{64}$/, "must be the application's public key: 64 hexadecimal characters");

const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

const timeZone = z
  .string()
  .refine((zone) => IANAZone.isValidZone(zone), 'must be an IANA time zone such as Europe/Berlin');

/** The Discord variables on their own: the command-registration script needs nothing else. */
export const discordShape = {
  DISCORD_TOKEN: required(z.string()),
  DISCORD_APPLICATION_ID: optional(snowflake),
  // The one guild HostOps serves: interactions from anywhere else are refused before anything else.
  DISCORD_GUILD_ID: required(snowflake),
  DISCORD_API_URL: optional(httpUrl).default('https://discord.com/api'),
  LOG_LEVEL: optional(logLevel).default('info'),
};

const discordOf = (env: z.output<z.ZodObject<typeof discordShape>>) => ({
  token: env.DISCORD_TOKEN,
  applicationId: env.DISCORD_APPLICATION_ID,
  guildId: env.DISCORD_GUILD_ID,
  apiUrl: env.DISCORD_API_URL.replace(/\/+$/, ''),
});

export const deployConfigSchema = z
  .object(discordShape)
  .transform((env) => ({ discord: discordOf(env), logLevel: env.LOG_LEVEL }));

/** A secret that goes into a URL or a header: long and URL-safe, so it cannot be guessed or mangled. */
const urlSafeSecret = z
  .string()
  .regex(/^[A-Za-z0-9_-]{32,256}$/, 'must be 32–256 letters, digits, - or _ (e.g. openssl rand -hex 24)');

const environmentSchema = z.object({
  ...discordShape,
  VIEWER_ROLE_IDS: optional(snowflakeList).default([]),
  OPERATOR_ROLE_IDS: optional(snowflakeList).default([]),
  ADMIN_ROLE_IDS: optional(snowflakeList).default([]),
  OPS_CHANNEL_IDS: optional(snowflakeList).default([]),
  // The language of messages the whole channel reads; answers only the invoker sees follow their client.
  BOT_LOCALE: optional(z.enum(LOCALES)).default('en'),
  DEFAULT_OWNER_C: optional(z.string()),
  DEFAULT_ADMIN_C: optional(z.string()),
  DEFAULT_TECH_C: optional(z.string()),
  DEFAULT_ZONE_C: optional(z.string()),
  // Discord interaction tokens live 15 minutes; the prompt must be editable until it expires.
  CONFIRM_TIMEOUT_S: optional(integer(10, 840)).default(120),
  HTTP_PORT: optional(integer(0, 65_535)).default(8080),
  HTTP_HOST: optional(z.string()).default('0.0.0.0'),
  // Below Docker's 10-second kill, leaving room to close connections and flush logs.
  SHUTDOWN_GRACE_MS: optional(integer(0, 60_000)).default(8000),
  HOSTING_API_URL: required(hostingApiUrl),
  // Required unless HOSTING_API_URL is `sandbox`: see the refinement below the object.
  HOSTING_API_TOKEN: optional(z.string()),
  HOSTING_API_TIMEOUT_MS: optional(integer(100, 300_000)).default(15_000),
  HOSTING_API_TIMEZONE: optional(timeZone).default('Europe/Berlin'),
  HOSTING_API_MAX_CONNECTIONS: optional(integer(1, 256)).default(10),
  // How long a request may wait for one of those connections; an interaction's answer is further bounded
  // by its token's 15 minutes.
  HOSTING_API_QUEUE_TIMEOUT_MS: optional(integer(1_000, 900_000)).default(300_000),
  // Every parameter travels in the query string; 8 KiB is what common servers accept in a request line.
  HOSTING_API_MAX_URL_BYTES: optional(integer(256, 1_048_576)).default(8192),
  DATABASE_URL: optional(databaseUrl).default('sqlite:data/hostops.db'),
  AUDIT_CHANNEL_ID: optional(snowflake),
  AUDIT_RETENTION_DAYS: optional(integer(1, 36_500)).default(400),
  APPROVAL_REQUIRED: optional(approvalList).default([]),
  APPROVAL_CHANNEL_ID: optional(snowflake),
  // Up to 7 days: approval requests are bot messages, which (unlike interaction tokens) stay editable.
  APPROVAL_TIMEOUT_S: optional(integer(60, 7 * 24 * 3600)).default(3600),
  WATCH_CHANNEL_ID: optional(snowflake),
  WATCH_SCHEDULE: optional(cronExpression).default('0 8 * * *'),
  WATCH_LEAD_DAYS: optional(leadDays).default([30, 14, 7, 3, 1]),
  WATCH_MENTION_ROLE_IDS: optional(snowflakeList).default([]),
  WATCH_CONCURRENCY: optional(integer(1, 64)).default(4),
  // A list past this is refused whole: the watch run, /watch list and the expiry gauge stay bounded.
  WATCH_MAX_DOMAINS: optional(integer(1, 100_000)).default(10_000),
  // The resolvers the forward check of /server rdns asks; unset: the system's.
  DNS_SERVERS: optional(dnsServers).default([]),
  RDNS_FORWARD_CHECK: optional(z.enum(['warn', 'require', 'off'])).default('warn'),
  // How Discord delivers interactions: over the gateway (a session per process), or as signed HTTP
  // requests to POST /interactions on a listener of its own (no gateway at all).
  INTERACTIONS_MODE: optional(z.enum(INTERACTION_MODES)).default('gateway'),
  INTERACTIONS_PORT: optional(integer(1, 65_535)).default(8081),
  INTERACTIONS_HOST: optional(z.string()).default('0.0.0.0'),
  // The application's public key from the developer portal: required in http mode (see below).
  DISCORD_PUBLIC_KEY: optional(publicKey),
  // Part of SHUTDOWN_GRACE_MS: the load balancer's health check sees /healthz fail before the listener closes.
  INTERACTIONS_UNREADY_MS: optional(integer(0, 30_000)).default(2000),
  // The secret part of the calendar's URL: long and URL-safe, so it cannot be guessed or mangled.
  CALENDAR_TOKEN: optional(urlSafeSecret),
  // The calendar's listener of its own: the only port to publish for calendar apps (nothing else is on it).
  CALENDAR_PORT: optional(integer(0, 65_535)).default(8082),
  CALENDAR_HOST: optional(z.string()).default('0.0.0.0'),
  // Unset: /metrics is open to whoever reaches HTTP_PORT (kept private by not publishing it).
  METRICS_TOKEN: optional(urlSafeSecret),
  // The registry's word (RDAP) beside the provider's: off sends nothing to any registry.
  RDAP_CHECK: optional(z.enum(['on', 'off'])).default('on'),
  RDAP_BOOTSTRAP_URL: optional(httpUrl).default('https://data.iana.org/rdap/dns.json'),
  RDAP_MAX_PER_SERVER: optional(integer(1, 16)).default(1),
  RDAP_MIN_INTERVAL_MS: optional(integer(0, 60_000)).default(1000),
});

/** Every variable HostOps reads; docs/configuration.md's table and .env.example must list exactly these. */
export const ENVIRONMENT_VARIABLES = Object.keys(environmentSchema.shape);

// Checked even when other variables are invalid, so every missing one is named in one go.
const always = {
  when: (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null,
};

// Only the sandbox runs without API credentials; for a real API the missing token is still named.
const credentialedEnvironment = environmentSchema
  .refine(
    (env) =>
      isSandboxUrl(env.HOSTING_API_URL) ||
      isExampleHostingApiUrl(env.HOSTING_API_URL) ||
      env.HOSTING_API_TOKEN !== undefined,
    {
      path: ['HOSTING_API_TOKEN'],
      message: 'is required',
      ...always,
    },
  )
  // The calendar's listener serves nothing else: it cannot share a port with another listener.
  .refine(
    (env) =>
      env.CALENDAR_TOKEN === undefined ||
      env.CALENDAR_PORT === 0 ||
      (env.CALENDAR_PORT !== env.HTTP_PORT &&
        (env.INTERACTIONS_MODE !== 'http' || env.CALENDAR_PORT !== env.INTERACTIONS_PORT)),
    {
      path: ['CALENDAR_PORT'],
      message: 'must differ from HTTP_PORT and INTERACTIONS_PORT (the calendar has a listener of its own)',
      ...always,
    },
  )
  // Without it no request to /interactions can be verified, so none could be answered.
  .refine((env) => env.INTERACTIONS_MODE !== 'http' || env.DISCORD_PUBLIC_KEY !== undefined, {
    path: ['DISCORD_PUBLIC_KEY'],
    message: 'is required with INTERACTIONS_MODE=http (the public key in the developer portal)',
    ...always,
  });

export const configSchema = credentialedEnvironment.transform((env) => ({
  discord: discordOf(env),
  access: {
    viewerRoleIds: env.VIEWER_ROLE_IDS,
    operatorRoleIds: env.OPERATOR_ROLE_IDS,
    adminRoleIds: env.ADMIN_ROLE_IDS,
    channelIds: env.OPS_CHANNEL_IDS,
    // Where a tier comes from, for what a refusal tells: Discord roles, or (set by the console) its --as flag.
    ...({} as { tierFrom?: 'console' }),
  },
  contactDefaults: {
    owner: env.DEFAULT_OWNER_C,
    admin: env.DEFAULT_ADMIN_C,
    tech: env.DEFAULT_TECH_C,
    zone: env.DEFAULT_ZONE_C,
  },
  confirmTimeoutMs: env.CONFIRM_TIMEOUT_S * 1000,
  http: {
    port: env.HTTP_PORT,
    host: env.HTTP_HOST,
    /** Unset: /metrics without a credential. Else wanted as `Authorization: Bearer <token>`. */
    metricsToken: env.METRICS_TOKEN,
  },
  calendar: {
    /** Unset: no calendar URL. Served as GET /calendar/<token>.ics on a listener of its own. */
    token: env.CALENDAR_TOKEN,
    port: env.CALENDAR_PORT,
    host: env.CALENDAR_HOST,
  },
  interactions: {
    mode: env.INTERACTIONS_MODE,
    port: env.INTERACTIONS_PORT,
    host: env.INTERACTIONS_HOST,
    /** Hex; set whenever mode is http. */
    publicKey: env.DISCORD_PUBLIC_KEY?.toLowerCase(),
    unreadyMs: env.INTERACTIONS_UNREADY_MS,
  },
  shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
  hosting: {
    /** `sandbox`, or a real API's base URL. */
    baseUrl: env.HOSTING_API_URL,
    /** Empty for the sandbox, which makes up its own token when it starts. */
    token: env.HOSTING_API_TOKEN ?? '',
    /** True when HOSTING_API_URL is `sandbox`: answers are made up and nothing really changes. */
    sandbox: isSandboxUrl(env.HOSTING_API_URL),
    timeoutMs: env.HOSTING_API_TIMEOUT_MS,
    timeZone: env.HOSTING_API_TIMEZONE,
    maxConnections: env.HOSTING_API_MAX_CONNECTIONS,
    queueTimeoutMs: env.HOSTING_API_QUEUE_TIMEOUT_MS,
    maxUrlBytes: env.HOSTING_API_MAX_URL_BYTES,
  },
  /** DATABASE_URL; on the sandbox a throwaway store of its own instead (SANDBOX_DATABASE_URL). */
  databaseUrl: isSandboxUrl(env.HOSTING_API_URL) ? SANDBOX_DATABASE_URL : env.DATABASE_URL,
  audit: { channelId: env.AUDIT_CHANNEL_ID, retentionDays: env.AUDIT_RETENTION_DAYS },
  approval: {
    /** `/domain register`, as the router labels commands. */
    required: env.APPROVAL_REQUIRED.map((path) => commandLabel(path)),
    channelId: env.APPROVAL_CHANNEL_ID,
    timeoutMs: env.APPROVAL_TIMEOUT_S * 1000,
  },
  watch: {
    /** Unset: the watch is off. */
    channelId: env.WATCH_CHANNEL_ID,
    schedule: env.WATCH_SCHEDULE,
    leadDays: env.WATCH_LEAD_DAYS,
    mentionRoleIds: env.WATCH_MENTION_ROLE_IDS,
    // Never more lookups at once than the pool has connections.
    concurrency: Math.min(env.WATCH_CONCURRENCY, env.HOSTING_API_MAX_CONNECTIONS),
    maxDomains: env.WATCH_MAX_DOMAINS,
  },
  dns: {
    servers: env.DNS_SERVERS,
    /** warn: show the check, Confirm stays; require: only a confirmed match may be sent; off. */
    forwardCheck: env.RDNS_FORWARD_CHECK,
  },
  rdap: {
    enabled: env.RDAP_CHECK === 'on',
    bootstrapUrl: env.RDAP_BOOTSTRAP_URL,
    maxPerServer: env.RDAP_MAX_PER_SERVER,
    minIntervalMs: env.RDAP_MIN_INTERVAL_MS,
  },
  botLocale: env.BOT_LOCALE,
  logLevel: env.LOG_LEVEL,
}));

export type Config = z.output<typeof configSchema>;
export type DeployConfig = z.output<typeof deployConfigSchema>;
export type AccessConfig = Config['access'];

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.join('\n')}`);
  }
}

/** Parses an environment; throws ConfigError with one line per problem, never echoing a value. */
export function parseConfig(env: Record<string, string | undefined>): Config;
export function parseConfig<S extends z.ZodType>(
  env: Record<string, string | undefined>,
  schema: S,
): z.output<S>;
export function parseConfig(
  env: Record<string, string | undefined>,
  schema: z.ZodType = configSchema,
): unknown {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const variable = String(issue.path[0] ?? 'environment');
    const message =
      issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message;
    return `${variable}: ${message}`;
  });
  // A list variable can fail on several items; one line per variable is enough.
  throw new ConfigError([...new Set(problems)]);
}

/**
 * Adds the variables of `.env` in the working directory, when there is one, to `env`: the ones `env`
 * does not already have (the environment wins, as with docker `--env-file` plus explicit `-e`). Node's
 * own parser reads the file, the one `process.loadEnvFile` uses; the bot and the console both read
 * `.env` through this.
 */
export function readEnvFile(env: Record<string, string | undefined>): void {
  if (!existsSync('.env')) return;
  for (const [name, value] of Object.entries(parseEnv(readFileSync('.env', 'utf8')))) {
    if (env[name] === undefined) env[name] = value;
  }
}

/**
 * The only reader of process.env. Loads `.env` from the working directory when present; variables
 * already set in the environment win, as with docker `--env-file` plus explicit `-e`.
 * Exits the process (code 78, EX_CONFIG) on invalid configuration: nothing else has started yet.
 */
export function loadConfig(): Config;
export function loadConfig<S extends z.ZodType>(schema: S): z.output<S>;
export function loadConfig(schema: z.ZodType = configSchema): unknown {
  readEnvFile(process.env);
  try {
    return parseConfig(process.env, schema);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(
      `HostOps cannot start, configuration is invalid:\n${error.problems.map((p) => `  ${p}\n`).join('')}`,
    );
    process.exit(78);
  }
}
