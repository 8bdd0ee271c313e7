import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../src/config.js';

const valid = { HOSTING_API_URL: 'https://api.example.com', HOSTING_API_TOKEN: 'tok-123456' };

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
    });
    expect(config.logLevel).toBe('info');
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
    expect(problems({})).toEqual(['HOSTING_API_URL: is required', 'HOSTING_API_TOKEN: is required']);
  });

  it.each([
    ['HOSTING_API_URL', 'ftp://example.com', 'http:// or https://'],
    ['HOSTING_API_URL', 'not a url', 'http:// or https://'],
    ['HOSTING_API_TIMEOUT_MS', 'soon', 'whole number'],
    ['HOSTING_API_TIMEOUT_MS', '0', '>=100'],
    ['HOSTING_API_TIMEZONE', 'Mars/Olympus', 'IANA time zone'],
    ['LOG_LEVEL', 'loud', 'info'],
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
