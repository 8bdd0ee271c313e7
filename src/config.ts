import { existsSync, readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { z } from 'zod';
import {
  approvalList,
  configErrorMap,
  cronExpression,
  databaseUrl,
  dnsServers,
  hostingApiUrl,
  httpUrl,
  INTERACTION_MODES,
  integer,
  isExampleHostingApiUrl,
  leadDays,
  logLevel,
  MAX_ELEVATION_H,
  MAX_FORM_CHOICES,
  optional,
  publicKey,
  required,
  snowflake,
  snowflakeList,
  storagePlans,
  timeZone,
  urlSafeSecret,
} from './configValues.js';
import { LOCALES } from './i18n/locales.js';
import { isSandboxUrl, SANDBOX_DATABASE_URL } from './sandbox/sandboxMode.js';
import { commandLabel } from './text/commandLabel.js';

export {
  CHANGE_COMMANDS,
  EXAMPLE_HOSTING_API_URL,
  INTERACTION_MODES,
  type InteractionMode,
} from './configValues.js';

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
  // What /musicbot create's form offers: storage sizes, and 1 to this many bots.
  MUSICBOT_STORAGE_PLANS: optional(storagePlans).default([5, 10, 25].map((gib) => gib * 1024 ** 3)),
  MUSICBOT_MAX_BOTS: optional(integer(1, MAX_FORM_CHOICES)).default(5),
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
  // The longest an /access request may raise someone's rights for (hours); up to a week.
  ACCESS_MAX_ELEVATION_H: optional(integer(1, MAX_ELEVATION_H)).default(8),
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
  // The longest pause a registry's 429 Retry-After sets; at most what a Node timer holds (2^31 − 1 ms).
  RDAP_MAX_RETRY_AFTER_S: optional(integer(1, 2_147_483)).default(3600),
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
  musicbot: { storagePlans: env.MUSICBOT_STORAGE_PLANS, maxBots: env.MUSICBOT_MAX_BOTS },
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
  /** /access request: the longest elevation a second person may approve. */
  elevation: { maxHours: env.ACCESS_MAX_ELEVATION_H },
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
    maxPauseMs: env.RDAP_MAX_RETRY_AFTER_S * 1000,
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
  const result = schema.safeParse(env, { error: configErrorMap });
  if (result.success) return result.data;
  const problems = result.error.issues.map(
    (issue) => `${String(issue.path[0] ?? 'environment')}: ${issue.message}`,
  );
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
