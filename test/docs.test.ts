import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ENVIRONMENT_VARIABLES, parseConfig } from '../src/config.js';

const root = join(import.meta.dirname, '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

describe('configuration is documented where operators look', () => {
  it('.env.example lists exactly the variables the schema reads', () => {
    const listed = [...read('.env.example').matchAll(/^([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]);
    expect(new Set(listed)).toEqual(new Set(ENVIRONMENT_VARIABLES));
  });

  it('.env.example, copied as it is, gives the defaults the schema applies', () => {
    // The four required values are left empty in the example; fill them in as an operator would.
    const required = {
      DISCORD_TOKEN: 'discord-token',
      DISCORD_GUILD_ID: '100000000000000000',
      HOSTING_API_TOKEN: 'hosting-token',
    };
    const example: Record<string, string | undefined> = { ...parseEnv(read('.env.example')), ...required };
    const bare = { ...required, HOSTING_API_URL: example.HOSTING_API_URL };
    expect(parseConfig(example)).toEqual(parseConfig(bare));
  });

  it('the README table lists exactly the variables the schema reads', () => {
    const listed = [...read('README.md').matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1]);
    expect(new Set(listed)).toEqual(new Set(ENVIRONMENT_VARIABLES));
  });

  it('the README shows the test command and what CI runs, which runs that command', () => {
    expect(read('README.md')).toContain('npm ci && npm test');
    expect(read('README.md')).toContain('bash .ci/run');
    expect(read('.ci/run')).toContain('.ci/with-node shipped npm ci');
    expect(read('.ci/run')).toContain('.ci/with-node shipped npm test');
  });
});
