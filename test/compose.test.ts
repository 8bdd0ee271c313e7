// compose.yaml, the high-availability setup, checked without Docker. There is no YAML library among our
// dependencies, so compose.yaml keeps to a small subset of YAML (block mappings, sequences of scalars,
// plain and quoted scalars, comments), which the reader below understands and otherwise refuses.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.js';
import { KEEP_ALIVE_MS, NETWORK_MARGIN_MS } from '../src/discord/http/endpointLimits.js';

type Yaml = string | number | null | Yaml[] | { [key: string]: Yaml };

interface Line {
  number: number;
  indent: number;
  text: string;
}

function parseYamlSubset(source: string): Yaml {
  const lines: Line[] = [];
  source.split('\n').forEach((raw, index) => {
    const text = raw.replace(/\s+$/, '');
    if (text.trim() === '' || text.trim().startsWith('#')) return;
    if (/\t/.test(raw.slice(0, raw.length - raw.trimStart().length)))
      throw new Error(`line ${index + 1}: tab indentation`);
    lines.push({ number: index + 1, indent: text.length - text.trimStart().length, text: text.trim() });
  });
  let position = 0;

  function scalar(text: string, line: Line): Yaml {
    if (text.startsWith('"')) {
      if (!/^"(?:[^"\\]|\\.)*"$/.test(text)) throw new Error(`line ${line.number}: unsupported quoting`);
      return JSON.parse(text) as string;
    }
    if (text.startsWith("'")) {
      if (!/^'(?:[^']|'')*'$/.test(text)) throw new Error(`line ${line.number}: unsupported quoting`);
      return text.slice(1, -1).replaceAll("''", "'");
    }
    if (/^[[{&*!|>%@`]/.test(text) || / #/.test(text) || /: /.test(text))
      throw new Error(`line ${line.number}: outside the YAML subset compose.yaml keeps to: ${text}`);
    if (/^-?\d+$/.test(text)) return Number(text);
    if (text === '' || text === '~' || text === 'null') return null;
    return text;
  }

  function block(indent: number): Yaml {
    const first = lines[position];
    if (first === undefined || first.indent < indent) return null;
    if (first.text === '-' || first.text.startsWith('- ')) {
      const items: Yaml[] = [];
      for (let line = lines[position]; line && line.indent === first.indent; line = lines[position]) {
        if (!line.text.startsWith('- ')) throw new Error(`line ${line.number}: expected a list item`);
        items.push(scalar(line.text.slice(2).trim(), line));
        position++;
      }
      return items;
    }
    const map: { [key: string]: Yaml } = {};
    for (let line = lines[position]; line && line.indent >= first.indent; line = lines[position]) {
      if (line.indent !== first.indent) throw new Error(`line ${line.number}: unexpected indentation`);
      const match = /^([A-Za-z0-9_.-]+):(?: (.*))?$/.exec(line.text);
      if (!match?.[1]) throw new Error(`line ${line.number}: expected "key: value"`);
      if (match[1] in map) throw new Error(`line ${line.number}: duplicate key ${match[1]}`);
      position++;
      const next = lines[position];
      map[match[1]] =
        match[2] !== undefined
          ? scalar(match[2].trim(), line)
          : next && next.indent > line.indent
            ? block(next.indent)
            : null;
    }
    return map;
  }

  const document = block(0);
  const rest = lines[position];
  if (rest) throw new Error(`line ${rest.number}: unexpected indentation`);
  return document;
}

const compose = parseYamlSubset(readFileSync(join(import.meta.dirname, '..', 'compose.yaml'), 'utf8')) as {
  services: Record<string, Record<string, Yaml>>;
  volumes: Record<string, Yaml>;
};
const services = compose.services;
/** Compose substitutes it from .env or the environment. */
const PASSWORD = `\${POSTGRES_PASSWORD}`;
const hostops = Object.entries(services).filter(([, service]) => service.build === '.');
const postgres = services.postgres as {
  image: string;
  environment: Record<string, string>;
  volumes: string[];
  healthcheck: { test: string[] };
};

/** A HostOps replica of the compose files: .env, restarts, on the compose PostgreSQL once it is healthy. */
const replicaOnPostgres = (environment: Record<string, string>) => ({
  env_file: '.env',
  restart: 'unless-stopped',
  depends_on: { postgres: { condition: 'service_healthy' } },
  environment: { DATABASE_URL: `postgres://hostops:${PASSWORD}@postgres:5432/hostops`, ...environment },
});

describe('compose.yaml', () => {
  it('the reader refuses what it does not understand', () => {
    expect(() => parseYamlSubset('a: [1, 2]')).toThrow(/outside the YAML subset/);
    expect(() => parseYamlSubset('a:\n  - b: c')).toThrow(/outside the YAML subset/);
    expect(parseYamlSubset('a:\n  b: "x: y"\n  c:\n    - 1\n    - two\n')).toEqual({
      a: { b: 'x: y', c: [1, 'two'] },
    });
  });

  it('runs PostgreSQL 17 on a named volume, with a pg_isready health check and the password from the environment', () => {
    expect(postgres.image).toBe('postgres:17');
    expect(postgres.environment.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD(:\?[^}]*)?\}$/);
    const [volume, path] = (postgres.volumes[0] ?? '').split(':');
    expect(path).toBe('/var/lib/postgresql/data');
    expect(Object.keys(compose.volumes)).toContain(volume);
    expect(postgres.healthcheck.test.join(' ')).toMatch(/pg_isready -U hostops -d hostops/);
  });

  it('runs two HostOps replicas built from the Dockerfile, on that PostgreSQL, after it is healthy', () => {
    expect(hostops.map(([name]) => name)).toHaveLength(2);
    expect(Object.keys(services).sort()).toEqual(['postgres', ...hostops.map(([name]) => name)].sort());
    for (const [, service] of hostops) {
      expect(service).toMatchObject(replicaOnPostgres({ HTTP_PORT: '8080' }));
      const url = new URL(
        (service.environment as Record<string, string>).DATABASE_URL?.replace(PASSWORD, 'pw') ?? '',
      );
      expect([url.hostname, url.username, url.pathname]).toEqual([
        'postgres',
        postgres.environment.POSTGRES_USER,
        `/${postgres.environment.POSTGRES_DB}`,
      ]);
      // Nothing shared but the database: no volume (SQLite is not used).
      expect(service.volumes).toBeUndefined();
    }
  });

  it('publishes each replica’s /healthz and /metrics on its own host port, on loopback only', () => {
    const ports = hostops.map(([, service]) => service.ports as string[]);
    expect(ports).toEqual([['127.0.0.1:8080:8080'], ['127.0.0.1:8081:8080']]);
  });
});

describe('compose.http.yaml: the replicas in http mode behind a proxy', () => {
  const root = join(import.meta.dirname, '..');
  const http = parseYamlSubset(readFileSync(join(root, 'compose.http.yaml'), 'utf8')) as typeof compose;
  const replicas = Object.entries(http.services).filter(([, service]) => service.build === '.');
  const caddy = http.services.caddy as {
    image: string;
    ports: string[];
    volumes: string[];
    environment: Record<string, string>;
  };
  const caddyfile = readFileSync(join(root, 'Caddyfile'), 'utf8');
  // The /interactions block's directives, without its comments.
  const interactions = caddyfile
    .slice(caddyfile.indexOf('handle /interactions {'), caddyfile.indexOf('\n\t}\n'))
    .split('\n')
    .filter((line) => !line.trim().startsWith('#'))
    .join('\n');

  it('runs the same PostgreSQL, two HostOps replicas in http mode on it, and Caddy: nothing else', () => {
    expect(Object.keys(http.services).sort()).toEqual(
      ['caddy', 'postgres', ...replicas.map(([name]) => name)].sort(),
    );
    expect(replicas).toHaveLength(2);
    expect(http.services.postgres).toEqual({ ...services.postgres, ports: undefined });
    for (const [, service] of replicas) {
      expect(service).toMatchObject(replicaOnPostgres({ INTERACTIONS_MODE: 'http' }));
      // Only the proxy reaches them; they share nothing but the database.
      expect(service.ports).toBeUndefined();
      expect(service.volumes).toBeUndefined();
      const env = service.environment as Record<string, string>;
      const config = parseConfig({
        DISCORD_TOKEN: 't',
        DISCORD_GUILD_ID: '100000000000000000',
        HOSTING_API_URL: 'sandbox',
        DISCORD_PUBLIC_KEY: 'ab'.repeat(32),
        ...env,
        DATABASE_URL: env.DATABASE_URL?.replace(PASSWORD, 'pw'),
      });
      expect(config.interactions).toMatchObject({ mode: 'http', port: 8081, host: '0.0.0.0' });
      expect(config.http.port).toBe(8080);
    }
  });

  it('Caddy serves HTTPS for HOSTOPS_DOMAIN and sends /interactions to each replica, health-checked on /healthz', () => {
    expect(caddy.image).toMatch(/^caddy:2/);
    expect(caddy.ports).toEqual(['80:80', '443:443']);
    expect(caddy.volumes).toContain('./Caddyfile:/etc/caddy/Caddyfile:ro');
    expect(caddy.environment.HOSTOPS_DOMAIN).toMatch(/^\$\{HOSTOPS_DOMAIN:\?[^}]*\}$/);
    expect(caddyfile).toMatch(/^\{\$HOSTOPS_DOMAIN\} \{$/m);
    const upstreams = /reverse_proxy ([^{\n]+) \{/.exec(caddyfile)?.[1]?.trim().split(/\s+/);
    expect(upstreams?.sort()).toEqual(replicas.map(([name]) => `${name}:8081`).sort());
    expect(caddyfile).toMatch(/handle \/interactions \{/);
    expect(caddyfile).toMatch(/health_uri \/healthz\n/);
    expect(caddyfile).toMatch(/health_port 8080\n/);
    // No retries of a failed round trip: Caddy before 2.8 cannot send the body again, fails the retry on the
    // healthy replica and counts it against that one (test/process/caddyReplicaCrash.test.ts). Instead the
    // first failure takes a replica out of rotation (passive health check).
    expect(interactions).not.toMatch(/lb_try_duration|lb_retries|lb_retry_match/);
    expect(interactions).toMatch(/\n\t+max_fails 1\n/);
    // Anything but the endpoint: 404, so /healthz and /metrics are not public.
    expect(caddyfile).toMatch(/\n\trespond 404\n\}/);
  });

  it("Caddy's timings agree with HostOps': keep-alive shorter, health checks within the unready time, dial within Discord's 3 s", () => {
    const ms = (name: string) => {
      const value = new RegExp(`\\n\\t+${name} (\\d+)(ms|s)\\n`).exec(caddyfile);
      if (!value) throw new Error(`no ${name} in the Caddyfile`);
      return Number(value[1]) * (value[2] === 's' ? 1000 : 1);
    };
    // Caddy closes an idle connection before HostOps would: never a POST sent on one being closed.
    expect(ms('keepalive')).toBeLessThan(KEEP_ALIVE_MS);
    for (const [, service] of replicas) {
      const env = service.environment as Record<string, string>;
      const config = parseConfig({
        DISCORD_TOKEN: 't',
        DISCORD_GUILD_ID: '100000000000000000',
        HOSTING_API_URL: 'sandbox',
        DISCORD_PUBLIC_KEY: 'ab'.repeat(32),
        ...env,
        DATABASE_URL: env.DATABASE_URL?.replace(PASSWORD, 'pw'),
      });
      // /healthz fails at SIGTERM; the replica keeps answering this long, so Caddy's next check sees it first.
      expect(ms('health_interval')).toBeLessThan(config.interactions.unreadyMs);
      expect(caddyfile).toContain(`health_port ${config.http.port}\n`);
      // Stopping within Docker's 10 s (compose's default stop_grace_period), before its SIGKILL.
      expect(config.shutdownGraceMs).toBeLessThan(10_000);
    }
    // A replica gone silently fails a round trip within the network's margin, not Go's 10 s.
    expect(ms('dial_timeout')).toBeLessThan(NETWORK_MARGIN_MS);
    // The passive check keeps a failed replica out until the active one has had time to see it.
    expect(ms('fail_duration')).toBeGreaterThan(ms('health_interval') + ms('health_timeout'));
  });
});
