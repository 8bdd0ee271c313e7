import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../src/config.js';

const valid = {
  HOSTING_API_URL: 'https://api.example.com',
  HOSTING_API_TOKEN: 'tok-123456',
  DISCORD_TOKEN: 'discord-token-abc',
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
      timeoutMs: 15_000,
      timeZone: 'Europe/Berlin',
      maxConnections: 10,
      maxUrlBytes: 8192,
    });
    expect(config.logLevel).toBe('info');
    expect(config.discord).toEqual({
      token: 'discord-token-abc',
      applicationId: undefined,
      guildId: undefined,
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

  it('reads every variable', () => {
    const config = parseConfig({
      ...valid,
      HOSTING_API_URL: 'http://127.0.0.1:9000/api',
      HOSTING_API_TIMEOUT_MS: '2500',
      HOSTING_API_TIMEZONE: 'America/New_York',
      LOG_LEVEL: 'debug',
    });
    expect(config.hosting.timeoutMs).toBe(2500);
    expect(config.hosting.timeZone).toBe('America/New_York');
    expect(config.logLevel).toBe('debug');
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
      'HOSTING_API_URL: is required',
      'HOSTING_API_TOKEN: is required',
    ]);
  });

  it.each([
    ['HOSTING_API_URL', 'ftp://example.com', 'http:// or https://'],
    ['HOSTING_API_URL', 'not a url', 'http:// or https://'],
    ['HOSTING_API_TIMEOUT_MS', 'soon', 'whole number'],
    ['HOSTING_API_TIMEOUT_MS', '0', '>=100'],
    ['HOSTING_API_TIMEZONE', 'Mars/Olympus', 'IANA time zone'],
    ['LOG_LEVEL', 'loud', 'info'],
    ['DISCORD_GUILD_ID', 'my-guild', 'Discord id'],
    ['OPERATOR_ROLE_IDS', '123,abc', 'Discord ids'],
    ['CONFIRM_TIMEOUT_S', '3600', '<=840'],
    ['DISCORD_API_URL', 'discord.com', 'http:// or https://'],
  ])('%s=%s is rejected, naming the variable', (variable, value, hint) => {
    const [problem, ...rest] = problems({ ...valid, [variable]: value });
    expect(rest).toEqual([]);
    expect(problem).toMatch(new RegExp(`^${variable}: `));
    expect(problem).toContain(hint);
  });

  it('never echoes a value', () => {
    const secretish = 'ftp://user:hunter2@example.com';
    const lines = problems({ ...valid, HOSTING_API_URL: secretish });
    expect(lines.join('\n')).not.toContain('hunter2');
  });
});
