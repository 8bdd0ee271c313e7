import { describe, expect, it } from 'vitest';
import { CHANGE_COMMANDS, ConfigError, ENVIRONMENT_VARIABLES, parseConfig } from '../src/config.js';

const valid = {
  HOSTING_API_URL: 'https://api.example.com',
  HOSTING_API_TOKEN: 'tok-123456',
  DISCORD_TOKEN: 'discord-token-abc',
  DISCORD_GUILD_ID: '100000000000000000',
};

/**
 * A valid value other than the default for each variable. Which variables there are comes from the
 * schema (ENVIRONMENT_VARIABLES): a variable added there without a sample here fails the test below.
 */
const SAMPLES: Record<string, string | undefined> = {
  DISCORD_TOKEN: 'discord-token-xyz',
  DISCORD_APPLICATION_ID: '100000000000000001',
  DISCORD_GUILD_ID: '100000000000000002',
  DISCORD_API_URL: 'http://127.0.0.1:3000/api',
  LOG_LEVEL: 'debug',
  VIEWER_ROLE_IDS: '100000000000000003',
  OPERATOR_ROLE_IDS: '100000000000000004',
  ADMIN_ROLE_IDS: '100000000000000005',
  OPS_CHANNEL_IDS: '100000000000000006',
  BOT_LOCALE: 'de',
  DEFAULT_OWNER_C: 'O-1',
  DEFAULT_ADMIN_C: 'A-1',
  DEFAULT_TECH_C: 'T-1',
  DEFAULT_ZONE_C: 'Z-1',
  MUSICBOT_STORAGE_PLANS: '512 MiB, 2 GiB',
  MUSICBOT_MAX_BOTS: '3',
  CONFIRM_TIMEOUT_S: '30',
  HTTP_PORT: '9090',
  HTTP_HOST: '127.0.0.1',
  SHUTDOWN_GRACE_MS: '3000',
  HOSTING_API_URL: 'http://127.0.0.1:9000/api',
  HOSTING_API_TOKEN: 'hosting-token-xyz',
  HOSTING_API_TIMEOUT_MS: '2500',
  HOSTING_API_TIMEZONE: 'America/New_York',
  HOSTING_API_MAX_CONNECTIONS: '4',
  HOSTING_API_QUEUE_TIMEOUT_MS: '60000',
  HOSTING_API_MAX_URL_BYTES: '4096',
  DATABASE_URL: 'postgres://hostops:pw@db:5432/hostops',
  AUDIT_CHANNEL_ID: '100000000000000007',
  AUDIT_RETENTION_DAYS: '30',
  APPROVAL_REQUIRED: 'domain register, musicbot  create',
  APPROVAL_CHANNEL_ID: '100000000000000008',
  APPROVAL_TIMEOUT_S: '600',
  ACCESS_MAX_ELEVATION_H: '4',
  WATCH_CHANNEL_ID: '100000000000000009',
  WATCH_SCHEDULE: '*/30 6-18 * * 1-5',
  WATCH_LEAD_DAYS: '7, 60,14 7',
  WATCH_MENTION_ROLE_IDS: '100000000000000010,100000000000000011',
  WATCH_CONCURRENCY: '3',
  WATCH_MAX_DOMAINS: '2500',
  DNS_SERVERS: '127.0.0.1:5353, [::1]:53,9.9.9.9',
  RDNS_FORWARD_CHECK: 'require',
  INTERACTIONS_MODE: 'http',
  INTERACTIONS_PORT: '9443',
  INTERACTIONS_HOST: '127.0.0.1',
  DISCORD_PUBLIC_KEY: 'AB'.repeat(32),
  INTERACTIONS_UNREADY_MS: '500',
  CALENDAR_TOKEN: 'cal_0123456789abcdef0123456789abcdef',
  RDAP_CHECK: 'off',
  RDAP_BOOTSTRAP_URL: 'http://127.0.0.1:8099/dns.json',
  RDAP_MAX_PER_SERVER: '2',
  RDAP_MIN_INTERVAL_MS: '250',
  RDAP_MAX_RETRY_AFTER_S: '600',
  CALENDAR_PORT: '9082',
  CALENDAR_HOST: '127.0.0.2',
  METRICS_TOKEN: 'met_0123456789abcdef0123456789abcdef',
};

/** Variables a sample needs beside it to be valid at all (set in the comparison's base too). */
const COMPANIONS: Record<string, Record<string, string>> = {
  INTERACTIONS_MODE: { DISCORD_PUBLIC_KEY: 'cd'.repeat(32) },
};

function problems(env: Record<string, string | undefined>): string[] {
  try {
    parseConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('parseConfig', () => {
  it('applies defaults', () => {
    const config = parseConfig(valid);
    expect(config.hosting).toEqual({
      baseUrl: 'https://api.example.com',
      token: 'tok-123456',
      sandbox: false,
      timeoutMs: 15_000,
      timeZone: 'Europe/Berlin',
      maxConnections: 10,
      queueTimeoutMs: 300_000,
      maxUrlBytes: 8192,
    });
    expect(config.logLevel).toBe('info');
    expect(config.discord).toEqual({
      token: 'discord-token-abc',
      applicationId: undefined,
      guildId: '100000000000000000',
      apiUrl: 'https://discord.com/api',
    });
    expect(config.access).toEqual({
      viewerRoleIds: [],
      operatorRoleIds: [],
      adminRoleIds: [],
      channelIds: [],
    });
    expect(config.contactDefaults).toEqual({
      owner: undefined,
      admin: undefined,
      tech: undefined,
      zone: undefined,
    });
    expect(config.confirmTimeoutMs).toBe(120_000);
    expect(config.databaseUrl).toBe('sqlite:data/hostops.db');
    expect(config.audit).toEqual({ channelId: undefined, retentionDays: 400 });
    expect(config.approval).toEqual({ required: [], channelId: undefined, timeoutMs: 3_600_000 });
    expect(config.watch).toEqual({
      channelId: undefined,
      schedule: '0 8 * * *',
      leadDays: [30, 14, 7, 3, 1],
      mentionRoleIds: [],
      concurrency: 4,
      maxDomains: 10_000,
    });
    // Issue 44's contract: on, IANA's bootstrap file, one request at a time per server, a second apart.
    expect(config.rdap).toEqual({
      enabled: true,
      bootstrapUrl: 'https://data.iana.org/rdap/dns.json',
      maxPerServer: 1,
      minIntervalMs: 1000,
      maxPauseMs: 3_600_000,
    });
  });

  it('reads the Discord, role and contact variables', () => {
    const config = parseConfig({
      ...valid,
      DISCORD_APPLICATION_ID: '100000000000000001',
      DISCORD_GUILD_ID: '100000000000000002',
      DISCORD_API_URL: 'http://127.0.0.1:3000/api/',
      VIEWER_ROLE_IDS: '100000000000000003',
      OPERATOR_ROLE_IDS: '100000000000000004, 100000000000000005',
      ADMIN_ROLE_IDS: '100000000000000006',
      OPS_CHANNEL_IDS: '100000000000000007,100000000000000008',
      DEFAULT_OWNER_C: 'C-1',
      DEFAULT_ZONE_C: 'Z-1',
      CONFIRM_TIMEOUT_S: '30',
    });
    expect(config.discord).toMatchObject({
      applicationId: '100000000000000001',
      guildId: '100000000000000002',
      apiUrl: 'http://127.0.0.1:3000/api',
    });
    expect(config.access.operatorRoleIds).toEqual(['100000000000000004', '100000000000000005']);
    expect(config.access.channelIds).toEqual(['100000000000000007', '100000000000000008']);
    expect(config.contactDefaults).toMatchObject({ owner: 'C-1', zone: 'Z-1' });
    expect(config.confirmTimeoutMs).toBe(30_000);
  });

  it("reads the music-bot form's plans and bot count, refusing what a form could not offer", () => {
    expect(parseConfig(valid).musicbot).toEqual({
      storagePlans: [5, 10, 25].map((g) => g * 1024 ** 3),
      maxBots: 5,
    });
    expect(
      parseConfig({ ...valid, MUSICBOT_STORAGE_PLANS: '10 GiB,5GiB, 10 GiB' }).musicbot.storagePlans,
    ).toEqual([10 * 1024 ** 3, 5 * 1024 ** 3]);
    expect(() => parseConfig({ ...valid, MUSICBOT_STORAGE_PLANS: '5 GiB, lots' })).toThrow(
      /MUSICBOT_STORAGE_PLANS.*"lots" is not a size/s,
    );
    const many = Array.from({ length: 26 }, (_, i) => `${i + 1} GiB`).join(',');
    expect(() => parseConfig({ ...valid, MUSICBOT_STORAGE_PLANS: many })).toThrow(
      /MUSICBOT_STORAGE_PLANS.*at most 25/s,
    );
    expect(() => parseConfig({ ...valid, MUSICBOT_MAX_BOTS: '26' })).toThrow(/MUSICBOT_MAX_BOTS/);
    expect(() => parseConfig({ ...valid, MUSICBOT_MAX_BOTS: '0' })).toThrow(/MUSICBOT_MAX_BOTS/);
  });

  it('has a sample other than the default for every variable the schema reads', () => {
    expect(ENVIRONMENT_VARIABLES.filter((variable) => SAMPLES[variable] === undefined)).toEqual([]);
  });

  it.each([...ENVIRONMENT_VARIABLES])(
    'reads %s: set alone to another value, it changes the configuration',
    (variable) => {
      const base = parseConfig({ ...valid, ...COMPANIONS[variable] });
      const changed = parseConfig({ ...valid, ...COMPANIONS[variable], [variable]: SAMPLES[variable] });
      expect(changed).not.toEqual(base);
    },
  );

  it('reads every variable into its place: all of them set at once', () => {
    const env = Object.fromEntries(ENVIRONMENT_VARIABLES.map((variable) => [variable, SAMPLES[variable]]));
    const config = parseConfig(env);
    expect(config).toEqual({
      discord: {
        token: 'discord-token-xyz',
        applicationId: '100000000000000001',
        guildId: '100000000000000002',
        apiUrl: 'http://127.0.0.1:3000/api',
      },
      access: {
        viewerRoleIds: ['100000000000000003'],
        operatorRoleIds: ['100000000000000004'],
        adminRoleIds: ['100000000000000005'],
        channelIds: ['100000000000000006'],
      },
      contactDefaults: { owner: 'O-1', admin: 'A-1', tech: 'T-1', zone: 'Z-1' },
      musicbot: { storagePlans: [512 * 1024 ** 2, 2 * 1024 ** 3], maxBots: 3 },
      confirmTimeoutMs: 30_000,
      http: { port: 9090, host: '127.0.0.1', metricsToken: 'met_0123456789abcdef0123456789abcdef' },
      calendar: { token: 'cal_0123456789abcdef0123456789abcdef', port: 9082, host: '127.0.0.2' },
      interactions: {
        mode: 'http',
        port: 9443,
        host: '127.0.0.1',
        publicKey: 'ab'.repeat(32),
        unreadyMs: 500,
      },
      shutdownGraceMs: 3000,
      hosting: {
        baseUrl: 'http://127.0.0.1:9000/api',
        token: 'hosting-token-xyz',
        sandbox: false,
        timeoutMs: 2500,
        timeZone: 'America/New_York',
        maxConnections: 4,
        queueTimeoutMs: 60_000,
        maxUrlBytes: 4096,
      },
      databaseUrl: 'postgres://hostops:pw@db:5432/hostops',
      audit: { channelId: '100000000000000007', retentionDays: 30 },
      approval: {
        required: ['/domain register', '/musicbot create'],
        channelId: '100000000000000008',
        timeoutMs: 600_000,
      },
      elevation: { maxHours: 4 },
      watch: {
        channelId: '100000000000000009',
        schedule: '*/30 6-18 * * 1-5',
        leadDays: [60, 14, 7],
        mentionRoleIds: ['100000000000000010', '100000000000000011'],
        concurrency: 3,
        maxDomains: 2500,
      },
      dns: { servers: ['127.0.0.1:5353', '[::1]:53', '9.9.9.9'], forwardCheck: 'require' },
      rdap: {
        enabled: false,
        bootstrapUrl: 'http://127.0.0.1:8099/dns.json',
        maxPerServer: 2,
        minIntervalMs: 250,
        maxPauseMs: 600_000,
      },
      botLocale: 'de',
      logLevel: 'debug',
    });
  });

  it('accepts CONFIRM_TIMEOUT_S from 10 to 840 s and HOSTING_API_MAX_CONNECTIONS from 1 to 256', () => {
    expect(parseConfig({ ...valid, CONFIRM_TIMEOUT_S: '10' }).confirmTimeoutMs).toBe(10_000);
    expect(parseConfig({ ...valid, CONFIRM_TIMEOUT_S: '840' }).confirmTimeoutMs).toBe(840_000);
    expect(parseConfig({ ...valid, HOSTING_API_MAX_CONNECTIONS: '1' }).hosting.maxConnections).toBe(1);
    expect(parseConfig({ ...valid, HOSTING_API_MAX_CONNECTIONS: '256' }).hosting.maxConnections).toBe(256);
  });

  it('reads a cron schedule with seconds, and never runs more lookups than the pool has connections', () => {
    expect(parseConfig({ ...valid, WATCH_SCHEDULE: '*/2 * * * * *' }).watch.schedule).toBe('*/2 * * * * *');
    expect(parseConfig({ ...valid, WATCH_CONCURRENCY: '16' }).watch.concurrency).toBe(10);
    expect(
      parseConfig({ ...valid, WATCH_CONCURRENCY: '16', HOSTING_API_MAX_CONNECTIONS: '2' }).watch.concurrency,
    ).toBe(2);
    expect(parseConfig({ ...valid, WATCH_LEAD_DAYS: '0' }).watch.leadDays).toEqual([0]);
  });

  it('refuses a calendar listener on the port of another listener (it serves nothing else)', () => {
    const base = { ...valid, CALENDAR_TOKEN: 'cal_0123456789abcdef0123456789abcdef' };
    for (const env of [
      { ...base, HTTP_PORT: '8082' },
      {
        ...base,
        CALENDAR_PORT: '9000',
        INTERACTIONS_MODE: 'http',
        INTERACTIONS_PORT: '9000',
        DISCORD_PUBLIC_KEY: 'ab'.repeat(32),
      },
    ]) {
      expect(() => parseConfig(env)).toThrow(
        /CALENDAR_PORT: must differ from HTTP_PORT and INTERACTIONS_PORT/,
      );
    }
    // Without a calendar the port is not used; METRICS_TOKEN is checked like the calendar's.
    expect(parseConfig({ ...valid, HTTP_PORT: '8082' }).calendar.port).toBe(8082);
    expect(() => parseConfig({ ...valid, METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: must be 32–256/);
  });

  it('treats empty values as unset', () => {
    expect(parseConfig({ ...valid, HOSTING_API_TIMEOUT_MS: '', LOG_LEVEL: '' }).hosting.timeoutMs).toBe(
      15_000,
    );
    expect(problems({ ...valid, HOSTING_API_TOKEN: '' })).toEqual(['HOSTING_API_TOKEN: is required']);
  });

  it('names every missing variable, one line each', () => {
    expect(problems({})).toEqual([
      'DISCORD_TOKEN: is required',
      'DISCORD_GUILD_ID: is required',
      'HOSTING_API_URL: is required',
      'HOSTING_API_TOKEN: is required',
    ]);
  });

  it.each([
    ['HOSTING_API_URL', 'ftp://example.com', 'http:// or https://'],
    ['HOSTING_API_URL', 'not a url', 'http:// or https://'],
    ['HOSTING_API_TIMEOUT_MS', 'soon', 'whole number'],
    ['HOSTING_API_TIMEOUT_MS', '0', 'must be a whole number from 100 to 300000'],
    ['HOSTING_API_TIMEZONE', 'Mars/Olympus', 'IANA time zone'],
    ['LOG_LEVEL', 'loud', 'info'],
    ['DISCORD_GUILD_ID', 'my-guild', 'Discord id'],
    ['OPERATOR_ROLE_IDS', '123,abc', 'Discord ids'],
    ['CONFIRM_TIMEOUT_S', '9', 'must be a whole number from 10 to 840'],
    ['CONFIRM_TIMEOUT_S', '841', 'must be a whole number from 10 to 840'],
    ['CONFIRM_TIMEOUT_S', '3600', 'must be a whole number from 10 to 840'],
    ['HOSTING_API_MAX_CONNECTIONS', '0', 'must be a whole number from 1 to 256'],
    ['HOSTING_API_MAX_CONNECTIONS', '257', 'must be a whole number from 1 to 256'],
    ['HOSTING_API_MAX_CONNECTIONS', 'ten', 'whole number'],
    ['HOSTING_API_QUEUE_TIMEOUT_MS', '999', 'must be a whole number from 1000 to 900000'],
    ['HOSTING_API_QUEUE_TIMEOUT_MS', '900001', 'must be a whole number from 1000 to 900000'],
    ['DISCORD_API_URL', 'discord.com', 'http:// or https://'],
    ['DATABASE_URL', 'mysql://db/hostops', 'sqlite: or postgres://'],
    ['AUDIT_CHANNEL_ID', '#audit', 'Discord id'],
    ['AUDIT_RETENTION_DAYS', '0', 'must be a whole number from 1 to 36500'],
    ['APPROVAL_REQUIRED', 'domain register,domain delete', 'changing commands: server rdns'],
    ['APPROVAL_REQUIRED', 'domain info', 'changing commands'],
    ['APPROVAL_TIMEOUT_S', '700000', 'must be a whole number from 60 to 604800'],
    ['WATCH_CHANNEL_ID', '#watch', 'Discord id'],
    ['WATCH_SCHEDULE', 'every morning', 'cron expression'],
    ['WATCH_SCHEDULE', '0 25 * * *', 'cron expression'],
    ['WATCH_LEAD_DAYS', '30,two weeks', 'whole days'],
    ['WATCH_LEAD_DAYS', '-1', 'whole days'],
    ['WATCH_LEAD_DAYS', '30,5000', 'must list days from 0 to 3650'],
    ['WATCH_LEAD_DAYS', ',', 'at least one'],
    ['WATCH_MENTION_ROLE_IDS', '@oncall', 'Discord ids'],
    ['WATCH_CONCURRENCY', '0', 'must be a whole number from 1 to 64'],
    ['WATCH_CONCURRENCY', '65', 'must be a whole number from 1 to 64'],
    ['WATCH_MAX_DOMAINS', '0', 'must be a whole number from 1 to 100000'],
    ['WATCH_MAX_DOMAINS', '100001', 'must be a whole number from 1 to 100000'],
    ['DNS_SERVERS', 'dns.example.net', 'resolver addresses'],
    ['DNS_SERVERS', '9.9.9.9:70000', 'resolver addresses'],
    ['RDNS_FORWARD_CHECK', 'strict', 'warn'],
    ['RDAP_CHECK', 'yes', 'on'],
    ['RDAP_BOOTSTRAP_URL', 'ftp://data.iana.org/rdap/dns.json', 'http'],
    ['RDAP_MAX_PER_SERVER', '0', 'must be a whole number from 1 to 16'],
    ['RDAP_MIN_INTERVAL_MS', '-5', 'whole number'],
    // Past what a timer holds (2^31 − 1 ms).
    ['RDAP_MAX_RETRY_AFTER_S', '2147484', 'from 1 to 2147483'],
  ])('%s=%s is rejected, naming the variable', (variable, value, hint) => {
    const [problem, ...rest] = problems({ ...valid, [variable]: value });
    expect(rest).toEqual([]);
    // One voice: each says what the variable is or must be, in HostOps' words (never zod's own).
    expect(problem).toMatch(new RegExp(`^${variable}: (is|must) `));
    expect(problem).toContain(hint);
  });

  it('never echoes a value', () => {
    const secretish = 'ftp://user:hunter2@example.com';
    const lines = problems({ ...valid, HOSTING_API_URL: secretish });
    expect(lines.join('\n')).not.toContain('hunter2');
  });

  it('accepts HOSTING_API_URL=sandbox without a token', () => {
    const { HOSTING_API_TOKEN: _, ...withoutToken } = valid;
    const config = parseConfig({ ...withoutToken, HOSTING_API_URL: 'sandbox' });
    expect(config.hosting).toMatchObject({ baseUrl: 'sandbox', token: '', sandbox: true });
    expect(parseConfig({ ...valid, HOSTING_API_URL: 'sandbox', HOSTING_API_TOKEN: '' }).hosting.sandbox).toBe(
      true,
    );
  });

  it('INTERACTIONS_MODE: gateway by default; http needs DISCORD_PUBLIC_KEY, named when missing or malformed', () => {
    expect(parseConfig(valid).interactions).toEqual({
      mode: 'gateway',
      port: 8081,
      host: '0.0.0.0',
      publicKey: undefined,
      unreadyMs: 2000,
    });
    expect(problems({ ...valid, INTERACTIONS_MODE: 'http' })).toEqual([
      'DISCORD_PUBLIC_KEY: is required with INTERACTIONS_MODE=http (the public key in the developer portal)',
    ]);
    expect(problems({ ...valid, INTERACTIONS_MODE: 'http', DISCORD_PUBLIC_KEY: '' })).toEqual([
      'DISCORD_PUBLIC_KEY: is required with INTERACTIONS_MODE=http (the public key in the developer portal)',
    ]);
    for (const key of ['ab'.repeat(31), 'zz'.repeat(32), `${'ab'.repeat(32)}00`]) {
      expect(problems({ ...valid, INTERACTIONS_MODE: 'http', DISCORD_PUBLIC_KEY: key })).toEqual([
        "DISCORD_PUBLIC_KEY: must be the application's public key: 64 hexadecimal characters",
      ]);
    }
    // Named together with the other problems, not after them.
    expect(problems({ ...valid, INTERACTIONS_MODE: 'http', HOSTING_API_TIMEOUT_MS: 'x' })).toHaveLength(2);
    expect(problems({ ...valid, INTERACTIONS_MODE: 'websocket' })[0]).toMatch(/^INTERACTIONS_MODE: /);
    const upper = 'AB'.repeat(32);
    expect(
      parseConfig({ ...valid, INTERACTIONS_MODE: 'http', DISCORD_PUBLIC_KEY: upper }).interactions,
    ).toMatchObject({ mode: 'http', publicKey: upper.toLowerCase() });
  });

  it('on the sandbox, the store is a throwaway one of its own whatever DATABASE_URL says', () => {
    const production = 'postgres://hostops:pw@db:5432/hostops';
    expect(parseConfig({ ...valid, DATABASE_URL: production }).databaseUrl).toBe(production);
    expect(parseConfig({ ...valid, HOSTING_API_URL: 'sandbox', DATABASE_URL: production }).databaseUrl).toBe(
      'sqlite::memory:',
    );
    expect(parseConfig({ ...valid, HOSTING_API_URL: 'sandbox' }).databaseUrl).toBe('sqlite::memory:');
  });

  it('still names HOSTING_API_TOKEN when a real URL has none', () => {
    const { HOSTING_API_TOKEN: _, ...withoutToken } = valid;
    expect(problems(withoutToken)).toEqual(['HOSTING_API_TOKEN: is required']);
    expect(problems({ ...withoutToken, HOSTING_API_URL: 'http://127.0.0.1:9000' })).toEqual([
      'HOSTING_API_TOKEN: is required',
    ]);
    expect(problems({ ...valid, HOSTING_API_URL: 'Sandbox' })).toEqual([
      'HOSTING_API_URL: must be an http:// or https:// URL, or sandbox for the built-in sandbox',
    ]);
  });
});

it('CHANGE_COMMANDS names exactly the changing subcommands of commands/index.ts', async () => {
  const { commands } = await import('../commands/index.js');
  const changing = commands.flatMap((module) =>
    Object.entries(module.subcommands)
      .filter(([, subcommand]) => subcommand.kind === 'change')
      .map(([name]) => `${module.definition.name} ${name}`),
  );
  expect([...CHANGE_COMMANDS].sort()).toEqual(changing.sort());
});
