import { afterEach, describe, expect, it } from 'vitest';
import { deployConfigSchema, parseConfig } from '../../src/config.js';
import { deployCommands } from '../../src/discord/deployCommands.js';
import { captureLogs } from '../support/captureLogs.js';
import { arr, isRecord, type Json, rec } from '../support/e2eHelpers.js';
import { FakeDiscord } from '../support/FakeDiscord.js';

const SUBCOMMAND = 1;
const STRING = 3;
const INTEGER = 4;
const BOOLEAN = 5;
const GUILD_CONTEXT = 0;
const GUILD_INSTALL = 0;

/** The command surface of the issue: option name → [type, required]. */
const SURFACE: Record<string, Record<string, Record<string, [number, boolean]>> | null> = {
  server: {
    logs: { id: [INTEGER, true] },
    rdns: { id: [INTEGER, true], ip: [STRING, true], hostname: [STRING, true], validate: [BOOLEAN, false] },
  },
  domain: {
    info: { domain: [STRING, true] },
    expiry: { domains: [STRING, true], within: [INTEGER, false] },
    register: {
      domain: [STRING, true],
      ns1: [STRING, true],
      ns2: [STRING, true],
      owner: [STRING, false],
      admin: [STRING, false],
      tech: [STRING, false],
      zone: [STRING, false],
    },
    dns: { domain: [STRING, true], records: [STRING, false] },
  },
  musicbot: {
    create: {
      username: [STRING, true],
      email: [STRING, true],
      storage: [STRING, true],
      bots: [INTEGER, true],
    },
  },
  panel: { bind: { license: [STRING, true], ip: [STRING, true] } },
  help: null,
};

let fake: FakeDiscord | undefined;
afterEach(async () => {
  await fake?.stop();
  fake = undefined;
});

async function deploy(env: (f: FakeDiscord) => Record<string, string> = () => ({})) {
  const f = await FakeDiscord.start();
  fake = f;
  const logs = captureLogs();
  const config = parseConfig(
    { DISCORD_TOKEN: f.token, DISCORD_API_URL: f.apiUrl, ...env(f) },
    deployConfigSchema,
  );
  const count = await deployCommands(config, logs.logger);
  return { f, logs, count, config };
}

function expectSurface(body: unknown): void {
  const commands = arr(body, 'bulk body').map((c) => rec(c));
  expect(commands.map((c) => c.name)).toEqual(Object.keys(SURFACE));
  for (const command of commands) {
    const name = String(command.name);
    expect(command.contexts, `${name} contexts`).toEqual([GUILD_CONTEXT]);
    expect(command.integration_types, `${name} integration_types`).toEqual([GUILD_INSTALL]);
    expect(typeof command.description === 'string' && command.description.length > 0).toBe(true);
    const subcommands = SURFACE[name];
    const options = Array.isArray(command.options) ? command.options.filter(isRecord) : [];
    if (subcommands === null || subcommands === undefined) {
      expect(options, `${name} takes no options`).toEqual([]);
      continue;
    }
    expect(options.map((o) => o.name)).toEqual(Object.keys(subcommands));
    for (const sub of options) {
      expect(sub.type).toBe(SUBCOMMAND);
      const expected = subcommands[String(sub.name)] ?? {};
      const leaves = (Array.isArray(sub.options) ? sub.options : []).filter(isRecord);
      expect(leaves.map((o) => o.name).sort(), `/${name} ${String(sub.name)}`).toEqual(
        Object.keys(expected).sort(),
      );
      for (const leaf of leaves) {
        const [type, required] = expected[String(leaf.name)] ?? [];
        const where = `/${name} ${String(sub.name)} ${String(leaf.name)}`;
        expect(leaf.type, where).toBe(type);
        expect(leaf.required === true, `${where} required`).toBe(required);
      }
      // Discord lists required options first; it rejects anything else.
      const requiredFlags = leaves.map((o) => o.required === true);
      expect(requiredFlags, `/${name} ${String(sub.name)} required first`).toEqual(
        [...requiredFlags].sort((a, b) => Number(b) - Number(a)),
      );
    }
  }
  // Integer options that must be ≥ 1 say so to Discord.
  const leaf = (command: string, sub: string, option: string): Json => {
    const c = commands.find((x) => x.name === command);
    const s = arr(c?.options)
      .map((o) => rec(o))
      .find((o) => o.name === sub);
    return rec(
      arr(s?.options)
        .map((o) => rec(o))
        .find((o) => o.name === option),
    );
  };
  expect(leaf('server', 'logs', 'id').min_value).toBe(1);
  expect(leaf('server', 'rdns', 'id').min_value).toBe(1);
  expect(leaf('musicbot', 'create', 'bots').min_value).toBe(1);
}

const writes = (f: FakeDiscord) =>
  f.requests.filter((r) => r.path.includes('/commands') && r.method !== 'GET');

describe('deployCommands', () => {
  it('with DISCORD_GUILD_ID: one bulk PUT to the guild route with all five commands', async () => {
    const { f, count, logs } = await deploy((f) => ({
      DISCORD_APPLICATION_ID: f.applicationId,
      DISCORD_GUILD_ID: f.guildId,
    }));
    const put = writes(f);
    expect(put).toHaveLength(1);
    expect(put[0]?.method).toBe('PUT');
    expect(put[0]?.path).toBe(`/applications/${f.applicationId}/guilds/${f.guildId}/commands`);
    expectSurface(put[0]?.body);
    expect(count).toBe(5);
    // The application id was given: no need to ask for it.
    expect(f.requests.some((r) => r.path === '/applications/@me')).toBe(false);
    expect(logs.text).toContain('commands registered to the guild');
    expect(logs.text).not.toContain(f.token);
  });

  it('without DISCORD_GUILD_ID: one bulk PUT to the global route', async () => {
    const { f, count, logs } = await deploy((f) => ({ DISCORD_APPLICATION_ID: f.applicationId }));
    const put = writes(f);
    expect(put).toHaveLength(1);
    expect(put[0]?.method).toBe('PUT');
    expect(put[0]?.path).toBe(`/applications/${f.applicationId}/commands`);
    expectSurface(put[0]?.body);
    expect(count).toBe(5);
    expect(logs.text).toContain('commands registered globally');
  });

  it('without DISCORD_APPLICATION_ID: reads the id from GET /applications/@me first', async () => {
    const { f } = await deploy((f) => ({ DISCORD_GUILD_ID: f.guildId }));
    const me = f.requests.findIndex((r) => r.method === 'GET' && r.path === '/applications/@me');
    const put = f.requests.findIndex((r) => r.method === 'PUT');
    expect(me).toBeGreaterThanOrEqual(0);
    expect(put).toBeGreaterThan(me);
    expect(f.requests[put]?.path).toBe(`/applications/${f.applicationId}/guilds/${f.guildId}/commands`);
    expect(f.requests[me]?.headers.authorization).toBe(`Bot ${f.token}`);
    expect(writes(f)).toHaveLength(1);
  });

  it('running it again overwrites the set: still five commands, one PUT per run', async () => {
    const { f, config } = await deploy();
    await deployCommands(config, captureLogs().logger);
    const puts = writes(f);
    expect(puts).toHaveLength(2);
    expect(puts.every((r) => r.method === 'PUT')).toBe(true);
    const response = await fetch(`${f.apiUrl}/v10/applications/${f.applicationId}/commands`, {
      headers: { authorization: `Bot ${f.token}` },
    });
    const registered = arr(await response.json()).map((c) => rec(c).name);
    expect(registered.sort()).toEqual(Object.keys(SURFACE).sort());
  });
});
