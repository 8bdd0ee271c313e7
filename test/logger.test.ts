// The logger's own defences, tested by logging secrets on purpose: if one of them broke, every "no secret
// in the logs" test elsewhere would only pass as long as nothing happened to log the secret.
import { DiscordAPIError } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { REDACTED } from '../src/logger.js';
import { captureLogs } from './support/captureLogs.js';

const HOSTING_TOKEN = 'hosting-token-5f0c2a9e71';
const DISCORD_TOKEN = 'MTIzNDU2Nzg5MDEyMzQ1Njc4.Gh1jKl.discord-token-value';
// What a real interaction token looks like: base64 without padding.
const INTERACTION_TOKEN =
  'aW50ZXJhY3Rpb246MTMwMDAwMDAwMDAwMDAwMDAwMTpqQ0VzVDRsNDhPY3FhZjNNbW9rZ0VHSkxxQ0pBTkdqZmVkS2k';
const PASSWORD = 'Gen3ratedPassw0rdXyzAbCd';

function logs() {
  return captureLogs({ level: 'debug', secrets: [HOSTING_TOKEN, DISCORD_TOKEN] });
}

describe('keys named authorization, token or password', () => {
  it.each([
    ['authorization', `Bearer ${'a'.repeat(12)}-auth`],
    ['token', 'tok-value-1234'],
    ['password', 'pw-value-5678'],
    ['HOSTING_API_TOKEN', 'env-hosting-1111'],
    ['DISCORD_TOKEN', 'env-discord-2222'],
  ])('%s is redacted at the top level and three levels down, its siblings kept', (key, value) => {
    const l = logs();
    l.logger.info(
      {
        [key]: `${value}-0`,
        request: { [key]: `${value}-1`, kept: 'visible-1' },
        call: { headers: { [key]: `${value}-2`, accept: 'application/json' } },
        a: { b: { c: { [key]: `${value}-3` } } },
      },
      'a line with secrets in it',
    );
    const [entry] = l.entries();
    for (let depth = 0; depth <= 3; depth++) expect(l.text).not.toContain(`${value}-${depth}`);
    expect(entry?.[key]).toBe(REDACTED);
    expect(entry?.request).toEqual({ [key]: REDACTED, kept: 'visible-1' });
    expect(entry?.call).toEqual({ headers: { [key]: REDACTED, accept: 'application/json' } });
    expect(entry?.a).toEqual({ b: { c: { [key]: REDACTED } } });
    expect(entry?.msg).toBe('a line with secrets in it');
  });
});

describe('secret keys at any depth, in arrays and in errors', () => {
  it('redacts seven levels down and inside arrays, leaving the logged object itself untouched', () => {
    const l = logs();
    const deep = { l1: { l2: { l3: { l4: { l5: { l6: { token: 'deep-token-7' } } } } } } };
    const listed = { records: [{ name: 'a', password: 'listed-pw-1' }, { name: 'b' }] };
    l.logger.info({ deep, listed, kept: { plain: 'visible' } }, 'nested');
    expect(l.text).not.toContain('deep-token-7');
    expect(l.text).not.toContain('listed-pw-1');
    const [entry] = l.entries();
    expect(entry?.listed).toEqual({ records: [{ name: 'a', password: REDACTED }, { name: 'b' }] });
    expect(entry?.kept).toEqual({ plain: 'visible' });
    // The caller's objects are copied on the way to a secret, never changed.
    expect(deep.l1.l2.l3.l4.l5.l6.token).toBe('deep-token-7');
    expect(listed.records[0]?.password).toBe('listed-pw-1');
  });

  it('redacts keys an error carries, and those of its cause', () => {
    const l = logs();
    const cause = Object.assign(new Error('inner'), {
      config: { headers: { authorization: 'Bearer cause-auth-1' } },
    });
    const error = Object.assign(new Error('outer', { cause }), { token: 'error-token-2' });
    l.logger.error({ err: error }, 'failed');
    expect(l.text).not.toContain('cause-auth-1');
    expect(l.text).not.toContain('error-token-2');
    expect(l.entries()[0]?.err).toMatchObject({ type: 'Error', token: REDACTED });
  });
});

describe('known secret values are scrubbed from every line', () => {
  it('the API and bot tokens, wherever they turn up: message, any field, an error', () => {
    const l = logs();
    l.logger.warn(
      { note: `header was Bot ${DISCORD_TOKEN}`, nested: { deep: { text: `x${HOSTING_TOKEN}y` } } },
      `calling with ${HOSTING_TOKEN}`,
    );
    l.logger.error({ err: new Error(`rejected ${DISCORD_TOKEN}`) }, 'failed');
    expect(l.lines).toHaveLength(2);
    expect(l.text).not.toContain(HOSTING_TOKEN);
    expect(l.text).not.toContain(DISCORD_TOKEN);
    const [first, second] = l.entries();
    expect(first?.msg).toBe(`calling with ${REDACTED}`);
    expect(first?.note).toBe(`header was Bot ${REDACTED}`);
    expect(first?.nested).toEqual({ deep: { text: `x${REDACTED}y` } });
    expect(JSON.stringify(second?.err)).toContain(`rejected ${REDACTED}`);
  });

  it('a generated password while it is registered, and not before or after (it is only held while in use)', () => {
    const l = logs();
    l.logger.info(`before: ${PASSWORD}`);
    const forget = l.secrets.add(PASSWORD);
    l.logger.info({ query: `password=${PASSWORD}&x=1` }, `during: ${PASSWORD}`);
    forget();
    l.logger.info(`after: ${PASSWORD}`);
    const [before, during, after] = l.entries();
    expect(before?.msg).toBe(`before: ${PASSWORD}`);
    expect(during?.msg).toBe(`during: ${REDACTED}`);
    expect(during?.query).toBe(`password=${REDACTED}&x=1`);
    expect(after?.msg).toBe(`after: ${PASSWORD}`);
  });

  it('values too short to be secrets are not registered (they would blank out ordinary text)', () => {
    const l = logs();
    l.secrets.add('abc');
    l.logger.info('abc abc');
    expect(l.entries()[0]?.msg).toBe('abc abc');
  });
});

describe('the error serializer', () => {
  it('drops the request body and raw error of a Discord REST error and redacts the token in its URL', () => {
    const l = logs();
    const url = `https://discord.com/api/v10/webhooks/1300000000000000001/${INTERACTION_TOKEN}/messages/@original`;
    const error = new DiscordAPIError(
      {
        code: 50035,
        message: 'Invalid Form Body',
        errors: { content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Too long.' }] } },
      },
      50035,
      400,
      'PATCH',
      url,
      { body: { content: `Your password: ${PASSWORD}` }, files: undefined },
    );
    // The same thing the router does when Discord refuses an answer.
    l.logger.warn({ err: error, discordCode: error.code }, 'could not deliver the answer to Discord');
    expect(l.text).not.toContain(PASSWORD);
    expect(l.text).not.toContain(INTERACTION_TOKEN);
    const err = l.entries()[0]?.err as Record<string, unknown>;
    expect(err).not.toHaveProperty('requestBody');
    expect(err).not.toHaveProperty('rawError');
    expect(err.url).toBe(
      `https://discord.com/api/v10/webhooks/1300000000000000001/${REDACTED}/messages/@original`,
    );
    expect(err).toMatchObject({ type: 'DiscordAPIError', code: 50035, status: 400, method: 'PATCH' });
    // The message itself is kept: Discord's words are what an operator needs to see.
    expect(String(err.message)).toContain('Invalid Form Body');
  });

  it('drops a request body from any error that carries one', () => {
    const l = logs();
    const error = Object.assign(new Error('request failed'), {
      requestBody: { json: { password: PASSWORD } },
      rawError: { echoed: PASSWORD },
    });
    l.logger.error({ err: error }, 'failed');
    expect(l.text).not.toContain(PASSWORD);
    expect(l.entries()[0]?.err).toMatchObject({ type: 'Error', message: 'request failed' });
  });
});
