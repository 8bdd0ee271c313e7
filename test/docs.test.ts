import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import { commands } from '../commands/index.js';
import { definition as musicbotDefinition } from '../commands/musicbot.js';
import { ConfigError, ENVIRONMENT_VARIABLES, EXAMPLE_HOSTING_API_URL, parseConfig } from '../src/config.js';
import { consoleConfig } from '../src/console/consoleConfig.js';
import { SWEEP_INTERVAL_MS } from '../src/discord/changes/ChangeSweeper.js';
import { DEADLINE_CHECK_MS, HEADERS_CHECK_MS } from '../src/discord/http/endpointLimits.js';
import {
  BOOTSTRAP_FETCH_BUDGET_MS,
  BOOTSTRAP_MAX_AGE_MS,
  BOOTSTRAP_MAX_BYTES,
  BOOTSTRAP_RETRY_MS,
} from '../src/rdap/RdapBootstrap.js';
import {
  MAX_ANSWER_BYTES,
  MAX_REDIRECTS,
  REQUEST_TIMEOUT_MS,
  RETRY_WITHIN_MS,
} from '../src/rdap/RdapClient.js';
import { FAILED_RETRY_MS, SERVER_RETRY_MS, URGENT_BUDGET_MS } from '../src/rdap/RegistryCheck.js';
import { MAX_TIMER_MS } from '../src/rdap/ServerGate.js';

const root = join(import.meta.dirname, '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

/** README.md and every Markdown file under docs/, as paths relative to the root. */
const documents = [
  'README.md',
  ...readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => join('docs', file))
    .sort(),
];
/** The documents that describe HostOps as it is now: a dated bench note (docs/bench/2026-…) records its day, and
 * the files and variables it names may since have gone. Its links are still checked. */
const current = documents.filter((file) => !/^docs\/bench\/\d{4}-\d{2}-\d{2}-/.test(file));

/** What a reader can follow or copy: the text with its fenced blocks, and the fenced blocks alone. */
const prose = (text: string) => text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
const fenced = (text: string) => [...text.matchAll(/^```[^\n]*\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? '');
/** Inline code spans outside fenced blocks. */
const codeSpans = (text: string) => [...prose(text).matchAll(/`([^`\n]+)`/g)].map((m) => m[1] ?? '');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
const anchorsIn = (file: string) =>
  new Set([...prose(read(file)).matchAll(/^#{1,6} +(.+)$/gm)].map((m) => anchorOf(m[1] ?? '')));

/** Files git tracks, and what is in them, for "does anything outside the docs read this variable". */
const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((file) => file !== '' && existsSync(join(root, file)));

describe('configuration is documented where operators look', () => {
  it('.env.example lists exactly the variables the schema reads', () => {
    const listed = [...read('.env.example').matchAll(/^#?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]);
    expect(new Set(listed)).toEqual(new Set(ENVIRONMENT_VARIABLES));
  });

  it('.env.example, copied as it is and filled in, gives the defaults the schema applies', () => {
    // The required values are left empty or commented out in the example; fill them in as an operator would.
    const required = {
      DISCORD_TOKEN: 'discord-token',
      DISCORD_GUILD_ID: '100000000000000000',
      HOSTING_API_URL: 'https://api.provider.test',
      HOSTING_API_TOKEN: 'hosting-token',
    };
    const example: Record<string, string | undefined> = { ...parseEnv(read('.env.example')), ...required };
    expect(parseConfig(example)).toEqual(parseConfig(required));
  });

  it('.env.example, copied as it is, leaves the provider unset: the console runs on the sandbox', () => {
    const example = parseEnv(read('.env.example'));
    expect(example.HOSTING_API_URL).toBeUndefined();
    expect(consoleConfig(example).hosting.sandbox).toBe(true);
  });

  it('its commented provider URL, uncommented unchanged, is called the example placeholder it is', () => {
    const commented = /^#HOSTING_API_URL=(.*)$/m.exec(read('.env.example'))?.[1];
    expect(commented).toBe(EXAMPLE_HOSTING_API_URL);
    for (const token of [{}, { HOSTING_API_TOKEN: 'hosting-token' }]) {
      const env = { HOSTING_API_URL: commented, ...token };
      const problems = (() => {
        try {
          consoleConfig(env);
          return [];
        } catch (error) {
          return error instanceof ConfigError ? error.problems : [String(error)];
        }
      })();
      expect(problems).toEqual([
        "HOSTING_API_URL: is still the example placeholder (api.example-hosting.com): set your provider's API URL, or sandbox for the built-in sandbox",
      ]);
    }
  });

  it('docs/configuration.md lists exactly the variables the schema reads, in one table', () => {
    const listed = [...read('docs/configuration.md').matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map(
      (m) => m[1],
    );
    expect(listed.length).toBe(new Set(listed).size);
    expect(new Set(listed)).toEqual(new Set(ENVIRONMENT_VARIABLES));
  });

  it('the README shows the test command and what CI runs, which runs that command', () => {
    expect(read('README.md')).toContain('npm ci && npm test');
    expect(read('README.md')).toContain('bash .ci/run');
    expect(read('.ci/run')).toContain('.ci/with-node shipped npm ci');
    expect(read('.ci/run')).toContain('.ci/with-node shipped npm test');
  });
});

describe('the README is a front door and the docs hold together', () => {
  it('the README fits on a few screens: at most 300 lines', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(300);
  });

  it('every relative link in README.md and docs/ resolves, to the file and to the heading', () => {
    const broken: string[] = [];
    for (const file of documents) {
      for (const [, target = ''] of prose(read(file)).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target)) continue;
        const [path = '', anchor] = target.split('#');
        const resolved = path === '' ? file : normalize(join(dirname(file), path));
        if (!existsSync(join(root, resolved))) broken.push(`${file}: ${target} (no ${resolved})`);
        else if (anchor !== undefined && resolved.endsWith('.md') && !anchorsIn(resolved).has(anchor))
          broken.push(`${file}: ${target} (no heading #${anchor} in ${resolved})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('no link or path the docs give leaves the repository: a clone holds everything they point to', () => {
    const outside: string[] = [];
    for (const file of documents) {
      const text = read(file);
      for (const [, target = ''] of prose(text).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target)) continue;
        const path = target.split('#')[0] ?? '';
        if (path !== '' && normalize(join(dirname(file), path)).startsWith('..'))
          outside.push(`${file}: ${target}`);
      }
      for (const span of [...codeSpans(text), ...fenced(text)])
        for (const [path] of span.matchAll(/(?<![\w.])\.\.\/[\w./-]+/g)) outside.push(`${file}: ${path}`);
    }
    expect(outside).toEqual([]);
  });

  it('every npm script the docs run exists in package.json', () => {
    const scripts = new Set(Object.keys((JSON.parse(read('package.json')) as { scripts: object }).scripts));
    const missing: string[] = [];
    for (const file of documents) {
      const text = read(file);
      const commands = [...fenced(text), ...codeSpans(text)].join('\n');
      for (const [, name = ''] of commands.matchAll(/\bnpm run(?: --silent| -s)? ([a-z][\w:-]*)/g))
        if (!scripts.has(name)) missing.push(`${file}: npm run ${name}`);
      for (const [, name = ''] of commands.matchAll(/\bnode --run ([a-z][\w:-]*)/g))
        if (!scripts.has(name)) missing.push(`${file}: node --run ${name}`);
    }
    expect(missing).toEqual([]);
  });

  it('every environment variable the docs name is one HostOps reads, or one something in the repository uses', () => {
    const schema = new Set<string>(ENVIRONMENT_VARIABLES);
    const elsewhere = tracked
      .filter((file) => !file.endsWith('.md') && file !== '.env.example' && !file.startsWith('test/docs'))
      .map((file) => read(file))
      .join('\n');
    // Names the platform itself reads, which no file of ours needs to spell.
    const platform = new Set(['NODE_OPTIONS', 'NO_COLOR', 'LC_ALL', 'LC_MESSAGES', 'LANG', 'PATH', 'HOME']);
    const unknown: string[] = [];
    for (const file of current) {
      const text = read(file);
      for (const span of [...codeSpans(text), ...fenced(text)]) {
        for (const [name = ''] of span.matchAll(/\b[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]\b/g)) {
          if (schema.has(name) || platform.has(name)) continue;
          if (!new RegExp(`\\b${name}\\b`).test(elsewhere)) unknown.push(`${file}: ${name}`);
        }
      }
    }
    expect([...new Set(unknown)]).toEqual([]);
  });

  it('every slash command the docs name in code is one HostOps has, subcommand included', () => {
    const subcommands = new Map<string, string[]>(
      commands.map((module) => [module.definition.name, Object.keys(module.subcommands)]),
    );
    // HTTP paths the docs name the same way, and docs/store.md's example of a mistyped command.
    const paths = new Set(['healthz', 'metrics', 'interactions', 'calendar', 'app', 'panle']);
    const unknown: string[] = [];
    for (const file of current) {
      for (const span of codeSpans(read(file))) {
        const named = /^\/([a-z]+)(?: ([a-z]+))?(?=[\s`]|$)/.exec(span);
        if (!named) continue;
        const [, name = '', sub] = named;
        const known = subcommands.get(name);
        if (known === undefined) {
          if (!paths.has(name)) unknown.push(`${file}: ${span}`);
        } else if (sub !== undefined && !known.includes('') && !known.includes(sub))
          unknown.push(`${file}: ${span}`);
      }
    }
    expect(unknown).toEqual([]);
  });

  it('every file of the repository the docs name in code exists', () => {
    const missing: string[] = [];
    for (const file of current) {
      for (const span of codeSpans(read(file))) {
        const path = span.split(/\s/)[0] ?? '';
        if (!/^(\.ci|src|commands|test|bench|deploy|scripts|docs)\/[\w./-]*$/.test(path)) continue;
        if (!existsSync(join(root, path))) missing.push(`${file}: ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

/** Lines of code in the files of the repository given. */
const linesOf = (files: readonly string[]) =>
  files.reduce((sum, file) => sum + read(file).split('\n').length - 1, 0);
/** The musicbot create option of the given name, as its definition declares it. */
const musicbotOption = (name: string) => {
  const option = musicbotDefinition.options[0].options.find((o) => o.name === name);
  if (option === undefined) throw new Error(`no musicbot option ${name}`);
  return option as { max_length?: number; min_value?: number; max_value?: number };
};

describe('the numbers the docs state are the ones the code defines', () => {
  // Each: a document, and what it must say, built from the code's own constant.
  const stated: [file: string, text: string][] = [
    ['docs/http-mode.md', `HostOps checks the bodies' deadlines every ${DEADLINE_CHECK_MS} ms itself`],
    ['docs/access.md', `the change sweep (every bot replica, every ${SWEEP_INTERVAL_MS / 1000} seconds)`],
    ['docs/http-mode.md', `Node checks\n  the headers' every ${HEADERS_CHECK_MS} ms`],
    [
      'docs/security.md',
      `the bodies checked every ${DEADLINE_CHECK_MS} ms and the headers every ${HEADERS_CHECK_MS} ms`,
    ],
    [
      'docs/hosting-api.md',
      `username up to ${musicbotOption('username').max_length}\n  characters, e-mail up to ${musicbotOption('email').max_length}, ${musicbotOption('bots').min_value} to ${musicbotOption('bots').max_value?.toLocaleString('en')} bots`,
    ],
    [
      'docs/rdap.md',
      `the HTTP client, the per-server gate, the bootstrap, the public-address check and the schemas are about ${
        Math.round(
          linesOf([
            'src/rdap/RdapClient.ts',
            'src/rdap/ServerGate.ts',
            'src/rdap/RdapBootstrap.ts',
            'src/rdap/publicAddress.ts',
            'src/rdap/rdapSchemas.ts',
          ]) / 100,
        ) * 100
      } lines`,
    ],
  ];
  it.each(stated)('%s says: %s', (file, text) => {
    expect(read(file)).toContain(text);
  });

  it('docs/reliability.md says a closed change writes its audit row in the transaction of its end, as ChangeEnds does', () => {
    expect(read('src/changes/ChangeEnds.ts')).toContain('written in the same transaction as the end itself');
    expect(read('docs/reliability.md')).toMatch(
      /write their audit row in the\s+same transaction as the end itself/,
    );
    expect(read('docs/reliability.md')).not.toContain('retried with backoff (about 17 s');
  });
});

describe('docs/rdap.md states the bounds src/rdap/ defines', () => {
  const rdap = read('docs/rdap.md');
  const row = (what: string) => rdap.split('\n').find((line) => line.startsWith(`| ${what} |`)) ?? '';
  const defaults = parseConfig({
    DISCORD_TOKEN: 'discord-token',
    DISCORD_GUILD_ID: '100000000000000000',
    HOSTING_API_URL: 'https://api.provider.test',
    HOSTING_API_TOKEN: 'hosting-token',
  });

  it('what a command’s look-up, a request, redirects and a 429 may cost', () => {
    const command = row("a command's look-up (`/domain info`, `/domain expiry`), in all");
    expect(command).toContain(`| ${URGENT_BUDGET_MS / 1000} s: the bootstrap file`);
    expect(command).toContain(`not asked again by a command for ${FAILED_RETRY_MS / 60_000} minutes`);
    expect(command).toContain(
      `is not asked by any command for ${SERVER_RETRY_MS / 1000} s, whatever the domain`,
    );
    expect(rdap).toContain(
      `or longer than a request waits for itself (${RETRY_WITHIN_MS / 1000} s), is not asked`,
    );
    expect(rdap).toContain(`takes at most ${URGENT_BUDGET_MS / 1000} s in all, the\nbootstrap file`);
    expect(row('one request to a registry')).toContain(
      `| ${REQUEST_TIMEOUT_MS / 1000} s, each redirect hop; ${MAX_ANSWER_BYTES / 1024} KiB of answer |`,
    );
    expect(row('redirects of one request')).toContain(`| ${MAX_REDIRECTS}, no loop`);
    expect(rdap).toContain(`Redirects (RFC 7480) are followed at most ${MAX_REDIRECTS} times`);
    expect(MAX_TIMER_MS).toBe(2 ** 31 - 1);
    expect(row("a registry's `429`")).toContain(
      `at most \`RDAP_MAX_RETRY_AFTER_S\` (${defaults.rdap.maxPauseMs / 1000} s) and 2³¹ − 1 ms; waited for within a request only up to ${RETRY_WITHIN_MS / 1000} s`,
    );
  });

  it('what the bootstrap file may cost', () => {
    expect(row('one fetch of the bootstrap file')).toContain(
      `| ${BOOTSTRAP_FETCH_BUDGET_MS / 1000} s in all, in the background; ${BOOTSTRAP_MAX_BYTES / 1024 ** 2} MiB |`,
    );
    expect(row('one fetch of the bootstrap file')).toContain('tried again after an hour');
    expect(row('the bootstrap file, per URL')).toContain('one request a day, one an hour after a failure');
    expect([BOOTSTRAP_MAX_AGE_MS, BOOTSTRAP_RETRY_MS]).toEqual([86_400_000, 3_600_000]);
    expect(rdap).toContain('its URL is not tried again for\nan hour');
  });
});
