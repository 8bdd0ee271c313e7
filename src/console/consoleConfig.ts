import { userInfo } from 'node:os';
import { type Config, configSchema, parseConfig } from '../config.js';
import { type Locale, pickLocale } from '../i18n/locales.js';
import { SANDBOX_URL } from '../sandbox/sandboxMode.js';

/** The tiers one can act as in the console. */
export const CONSOLE_TIERS = ['viewer', 'operator', 'admin'] as const;
export type ConsoleTier = (typeof CONSOLE_TIERS)[number];

export function isConsoleTier(value: string): value is ConsoleTier {
  return (CONSOLE_TIERS as readonly string[]).includes(value);
}

/**
 * Made-up Discord ids: the console's one guild and channel, and one role per tier. The access
 * configuration names these roles, and `--as` gives the console user the matching one, so the very
 * same gates decide what the console may run.
 */
export const CONSOLE_GUILD_ID = '100000000000000001';
export const CONSOLE_CHANNEL_ID = '100000000000000002';
export const CONSOLE_ROLE_IDS: Record<ConsoleTier, string> = {
  viewer: '100000000000000011',
  operator: '100000000000000012',
  admin: '100000000000000013',
};

/**
 * What the console reads from the environment (and `.env`): the hosting API, the store, and what
 * commands need to build their changes. No Discord variable: the console never talks to Discord.
 */
export const CONSOLE_VARIABLES = [
  'HOSTING_API_URL',
  'HOSTING_API_TOKEN',
  'HOSTING_API_TIMEOUT_MS',
  'HOSTING_API_TIMEZONE',
  'HOSTING_API_MAX_CONNECTIONS',
  'HOSTING_API_MAX_URL_BYTES',
  'DATABASE_URL',
  'DEFAULT_OWNER_C',
  'DEFAULT_ADMIN_C',
  'DEFAULT_TECH_C',
  'DEFAULT_ZONE_C',
  'CONFIRM_TIMEOUT_S',
  'AUDIT_RETENTION_DAYS',
  'BOT_LOCALE',
  // The forward check of /server rdns, as the bot does it.
  'DNS_SERVERS',
  'RDNS_FORWARD_CHECK',
  // Known so the console refuses what needs a second person, rather than skipping the approval.
  'APPROVAL_REQUIRED',
  // The watch's /watch check runs as the bot's would (the digest goes to the terminal).
  'WATCH_LEAD_DAYS',
  'WATCH_CONCURRENCY',
  'WATCH_MAX_DOMAINS',
  // The registry's word beside the provider's in /domain info and expiry, and in /watch check.
  'RDAP_CHECK',
  'RDAP_BOOTSTRAP_URL',
  'RDAP_MAX_PER_SERVER',
  'RDAP_MIN_INTERVAL_MS',
  'RDAP_MAX_RETRY_AFTER_S',
] as const;

/**
 * The terminal's language, as POSIX chooses the one for messages: LC_ALL, else LC_MESSAGES, else LANG
 * (the first that is set and not empty). `de_DE.UTF-8` → German; anything else (C, POSIX, en_US…) →
 * English.
 */
export function consoleLocale(env: Record<string, string | undefined>): Locale {
  const chosen = [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((value) => value !== undefined && value !== '');
  return pickLocale(chosen);
}

/**
 * The bot's configuration schema, fed the console's variables plus fixed stand-ins for everything
 * Discord: so every value is checked exactly as for the bot, and problems name the same variables.
 * Without HOSTING_API_URL the console runs on the built-in sandbox, with a throwaway store of its own
 * (the configuration's databaseUrl, whatever DATABASE_URL says). Throws ConfigError.
 */
export function consoleConfig(env: Record<string, string | undefined>): Config {
  const picked: Record<string, string | undefined> = {};
  for (const name of CONSOLE_VARIABLES) picked[name] = env[name];
  if (picked.HOSTING_API_URL === undefined || picked.HOSTING_API_URL.trim() === '') {
    picked.HOSTING_API_URL = SANDBOX_URL;
  }
  // The console's one reader sees the "channel" messages too: they follow the terminal's language.
  if (picked.BOT_LOCALE === undefined || picked.BOT_LOCALE.trim() === '') {
    picked.BOT_LOCALE = consoleLocale(env);
  }
  const config = parseConfig(
    {
      ...picked,
      DISCORD_TOKEN: 'console-does-not-use-discord',
      DISCORD_GUILD_ID: CONSOLE_GUILD_ID,
      VIEWER_ROLE_IDS: CONSOLE_ROLE_IDS.viewer,
      OPERATOR_ROLE_IDS: CONSOLE_ROLE_IDS.operator,
      ADMIN_ROLE_IDS: CONSOLE_ROLE_IDS.admin,
      OPS_CHANNEL_IDS: CONSOLE_CHANNEL_ID,
      HTTP_PORT: '0',
      LOG_LEVEL: 'silent',
    },
    configSchema,
  );
  // The tier comes from --as, not from roles: a refusal says which flag gives it.
  return { ...config, access: { ...config.access, tierFrom: 'console' } };
}

/** The OS user at the terminal: the console's actor is `console:<name>` (consoleActor). */
export function osUserName(env: Record<string, string | undefined>): string {
  try {
    return userInfo().username;
  } catch {
    return env.USER ?? env.USERNAME ?? 'unknown';
  }
}
